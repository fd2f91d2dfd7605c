"""Processing an album upload in its own function: once per object, within the image budget, metadata gone,
upright, two sizes; a file that fails is deleted with its photo and never listed."""

from __future__ import annotations

import io
import zlib

import pytest
from PIL import Image

from chalicelib.config import get_settings
from chalicelib.models.events import META_SK, Event, Invitation, event_pk, invitation_sk
from chalicelib.services.media import images
from chalicelib.services.the_day.photo_uploads import PROCESSED, REJECTED, SKIPPED
from tests.utils import the_day
from tests.utils.aws_env import aws_client
from tests.utils.factories import make_event, make_person
from tests.utils.images import PNG_SIGNATURE, jpeg, png, png_chunk, png_claiming


@pytest.fixture
def day(aws):
    owner, guest = make_person("Olive Owner"), make_person("Gus Guest")
    event = make_event(owner, guest)
    the_day.started(event.id)
    the_day.going(event.id, guest)
    return event.id, guest


@pytest.fixture
def decodes(monkeypatch) -> list[int]:
    """The pixels of each image the processing decodes (the budget's measure)."""
    seen: list[int] = []
    original = images._decode

    def counted(data, image, field, **kwargs):
        seen.append(image.size[0] * image.size[1])
        return original(data, image, field, **kwargs)

    monkeypatch.setattr(images, "_decode", counted)
    return seen


def _process(*keys: str) -> list[str]:
    from app import process_photo_upload

    return process_photo_upload(the_day.s3_event(*keys), None)


def _object(key: str) -> bytes:
    return aws_client("s3").get_object(Bucket=get_settings().avatar_bucket, Key=key)["Body"].read()


def _sideways_photo_with_a_location() -> bytes:
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: the camera was turned; shown rotated 90 degrees clockwise
    exif[0x010F] = "PhoneMaker"
    gps = exif.get_ifd(0x8825)
    gps.update({1: "N", 2: (37.0, 46.0, 30.0), 3: "W", 4: (122.0, 25.0, 10.0)})
    return jpeg(2400, 1200, exif=exif.tobytes())


def test_a_photo_is_turned_upright_stripped_and_kept_in_two_sizes_then_listed(client, day, decodes):
    event_id, guest = day
    key = the_day.upload(guest, event_id, _sideways_photo_with_a_location())
    assert _process(key) == [PROCESSED]
    [photo] = the_day.stored_photos(event_id)
    assert photo.state == "ready"
    thumb, big = Image.open(io.BytesIO(_object(photo.thumb_key))), Image.open(io.BytesIO(_object(photo.big_key)))
    assert (thumb.format, thumb.size) == ("JPEG", (200, 400))  # upright: taller than wide
    assert (big.format, big.size) == ("JPEG", (800, 1600))
    for made in (thumb, big):
        assert "exif" not in made.info and len(made.getexif()) == 0
        assert b"PhoneMaker" not in _object(photo.big_key)
    assert key not in the_day.bucket_keys()  # the original goes
    assert decodes and max(decodes) <= get_settings().avatar_max_pixels
    listed = client.http.get(f"/events/{event_id}/photos", headers={"Authorization": f"Bearer {guest.token}"})
    assert [item["id"] for item in listed.json_body["results"]] == [photo.id]


@pytest.mark.parametrize("data", [png(640, 480, (0, 128, 0)), "webp"], ids=["png", "webp"])
def test_png_and_webp_are_taken(day, data):
    event_id, guest = day
    if data == "webp":
        out = io.BytesIO()
        Image.new("RGB", (300, 200), "orange").save(out, "WEBP")
        data = out.getvalue()
    assert _process(the_day.upload(guest, event_id, data)) == [PROCESSED]
    [photo] = the_day.stored_photos(event_id)
    assert Image.open(io.BytesIO(_object(photo.big_key))).format == "JPEG"


def _text_bomb() -> bytes:
    """A small valid PNG with a zTXt chunk that inflates to 64 MB of text."""
    plain = png(8, 8, (1, 2, 3))
    text = png_chunk(b"zTXt", b"Comment\x00\x00" + zlib.compress(b"a" * 64_000_000, 9))
    return plain[:33] + text + plain[33:]  # after IHDR (8 bytes of signature + 25 of IHDR)


def _truncated() -> bytes:
    whole = jpeg(800, 600, noise=True)
    return whole[: len(whole) // 2]


@pytest.mark.parametrize(
    ("data", "decoded"),
    [
        (png_claiming(20_000, 20_000), False),  # a decompression bomb: 400 megapixels claimed
        (_truncated(), True),
        (_text_bomb(), False),
        (b"GIF89a no thanks, this is a text file", False),
        (PNG_SIGNATURE + b"\x00" * 40, False),
    ],
    ids=["decompression-bomb", "truncated", "png-text-chunk", "not-an-image", "broken-png-header"],
)
def test_a_file_that_fails_is_deleted_never_listed_and_costs_no_more_than_the_budget(
    client, day, decodes, data, decoded
):
    event_id, guest = day
    key = the_day.upload(guest, event_id, data)
    assert _process(key) == [REJECTED]
    assert the_day.stored_photos(event_id) == []
    assert the_day.bucket_keys() == set()
    assert Event.get(event_pk(event_id), META_SK).photo_count == 0  # the places are given back
    assert Invitation.get(event_pk(event_id), invitation_sk(guest.id)).photo_count == 0
    assert bool(decodes) is decoded and all(pixels <= get_settings().avatar_max_pixels for pixels in decodes)
    listed = client.http.get(f"/events/{event_id}/photos", headers={"Authorization": f"Bearer {guest.token}"})
    assert listed.json_body["results"] == []


def test_a_redelivered_event_processes_nothing_again(day, aws, decodes):
    event_id, guest = day
    key = the_day.upload(guest, event_id, jpeg(1000, 800))
    assert _process(key) == [PROCESSED]
    [photo] = the_day.stored_photos(event_id)
    stored = {name: _object(name) for name in (photo.thumb_key, photo.big_key)}
    aws.reset()
    assert _process(key, key) == [SKIPPED, SKIPPED]
    assert aws.of("s3")["PutObject"] == 0 and len(decodes) == 1
    assert {name: _object(name) for name in stored} == stored
    assert [p.state for p in the_day.stored_photos(event_id)] == ["ready"]


def test_an_upload_landing_after_the_cancel_is_deleted(client, day):
    event_id, guest = day
    key = the_day.upload(guest, event_id, jpeg())
    Event(event_pk(event_id), META_SK).update(actions=[Event.cancelled.set(True)])
    assert _process(key) == [REJECTED]
    assert the_day.stored_photos(event_id) == [] and the_day.bucket_keys() == set()


def test_an_object_nobody_was_granted_is_deleted(day):
    event_id, guest = day
    key = f"photo-uploads/{guest.id}/{event_id}/12345"
    aws_client("s3").put_object(Bucket=get_settings().avatar_bucket, Key=key, Body=jpeg())
    assert _process(key) == [SKIPPED]
    assert the_day.bucket_keys() == set()


def test_a_fault_midway_raises_for_lambda_s_retry_and_the_retry_finishes_the_photo(day, monkeypatch):
    from botocore.exceptions import ClientError

    from chalicelib.store import photos as photo_store
    from tests.utils.aws_faults import client_error

    event_id, guest = day
    key = the_day.upload(guest, event_id, jpeg(600, 400))
    marked = photo_store.mark_ready

    def throttled(*args, **kwargs):
        raise client_error("UpdateItem", "ProvisionedThroughputExceededException")

    monkeypatch.setattr(photo_store, "mark_ready", throttled)
    with pytest.raises(ClientError):
        _process(key)
    assert [photo.state for photo in the_day.stored_photos(event_id)] == ["pending"]  # nothing lost
    assert key in the_day.bucket_keys()
    monkeypatch.setattr(photo_store, "mark_ready", marked)
    assert _process(key) == [PROCESSED]
    assert [photo.state for photo in the_day.stored_photos(event_id)] == ["ready"] and key not in the_day.bucket_keys()
