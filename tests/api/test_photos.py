"""The album over HTTP: who may add and see photos and when, the presigned POST's policy, the limits under
parallel requests, the pages, removal, and the album going with its event."""

from __future__ import annotations

import base64
import json
from datetime import timedelta

import pytest
import requests

from chalicelib.config import get_settings
from chalicelib.errors import Conflict
from chalicelib.models.events import META_SK, Event, Invitation, Photo, event_pk, invitation_sk
from chalicelib.services.the_day import photos
from chalicelib.timeutil import utcnow
from tests.utils import the_day
from tests.utils.api import body, get, post_json
from tests.utils.aws_env import aws_client
from tests.utils.factories import make_event, make_person
from tests.utils.races import race

JPEG = {"content_type": "image/jpeg"}


@pytest.fixture
def day(aws):
    """An event that started an hour ago with its album on: the owner, a going guest, one who has not answered."""
    owner, guest, undecided = make_person("Olive Owner"), make_person("Gus Guest"), make_person("Una Undecided")
    event = make_event(owner, guest, undecided)
    the_day.started(event.id)
    the_day.going(event.id, guest)
    return event.id, owner, guest, undecided


def _photos_path(event_id: int) -> str:
    return f"/events/{event_id}/photos"


def test_a_going_guest_gets_a_presigned_post_bound_to_its_key_type_and_size(client, day):
    event_id, _, guest, _ = day
    response = post_json(client, _photos_path(event_id), {"content_type": "image/png"}, guest.token)
    assert response.status_code == 201, response.body
    grant = body(response)
    fields = grant["upload_fields"]
    assert fields["key"] == f"photo-uploads/{guest.id}/{event_id}/{grant['id']}"
    assert fields["Content-Type"] == "image/png"
    policy = json.loads(base64.b64decode(fields["policy"]))
    assert {"Content-Type": "image/png"} in policy["conditions"]
    assert ["content-length-range", 1, 15 * 1024 * 1024] in policy["conditions"]
    assert {"key": fields["key"]} in policy["conditions"]
    stored = the_day.stored_photos(event_id)
    assert [(photo.id, photo.state, photo.user_id) for photo in stored] == [(grant["id"], "pending", guest.id)]
    # the form works as a client posts it (moto stands in for S3); the file lands under the key
    answer = requests.post(grant["upload_url"], data=fields, files={"file": ("p.png", b"bytes")}, timeout=5)
    assert answer.status_code == 204
    landed = aws_client("s3").get_object(Bucket=get_settings().avatar_bucket, Key=fields["key"])
    assert landed["Body"].read() == b"bytes"


@pytest.mark.parametrize("sent", [{}, {"content_type": "image/gif"}, {"content_type": None}])
def test_a_type_outside_jpeg_png_and_webp_is_400_keyed_by_content_type(client, day, sent):
    event_id, owner, _, _ = day
    response = post_json(client, _photos_path(event_id), sent, owner.token)
    assert response.status_code == 400
    assert list(body(response)) == ["content_type"]
    assert the_day.stored_photos(event_id) == []


def test_a_guest_who_is_not_going_is_403_and_a_stranger_404(client, day):
    event_id, _, _, undecided = day
    response = post_json(client, _photos_path(event_id), JPEG, undecided.token)
    assert (response.status_code, body(response)) == (403, {"detail": photos.NOT_GOING})
    assert get(client, _photos_path(event_id), undecided.token).status_code == 403
    stranger = make_person("Sam Stranger")
    assert post_json(client, _photos_path(event_id), JPEG, stranger.token).status_code == 404
    assert the_day.stored_photos(event_id) == []


@pytest.mark.parametrize(
    ("album", "hours_ago", "detail"),
    [
        ("off", 1, "This event has no shared album."),
        ("guests", -2, "The album opens when the event starts."),
        ("guests", 24 * 30 + 1, "The album is closed."),
    ],
)
def test_the_album_takes_photos_only_when_on_from_the_start_until_30_days_after(client, day, album, hours_ago, detail):
    event_id, owner, _, _ = day
    the_day.started(event_id, hours_ago=hours_ago, album=album)
    response = post_json(client, _photos_path(event_id), JPEG, owner.token)
    assert (response.status_code, body(response)) == (409, {"detail": detail})
    assert the_day.stored_photos(event_id) == []


def test_the_album_field_is_off_by_default_set_by_an_edit_and_shown(client, aws):
    owner = make_person("Olive Owner")
    created = post_json(client, "/events", {"title": "Party", "event_date": "2031-01-01T18:00:00Z"}, owner.token)
    assert body(created)["album"] == "off"
    event_id = body(created)["id"]
    edited = post_json(client, f"/events/{event_id}", {"album": "guests"}, owner.token, method="PATCH")
    assert (edited.status_code, body(edited)["album"]) == (200, "guests")
    wrong = post_json(client, f"/events/{event_id}", {"album": "everyone"}, owner.token, method="PATCH")
    assert wrong.status_code == 400 and list(body(wrong)) == ["album"]
    assert Event.get(event_pk(event_id), META_SK).album == "guests"


def test_parallel_grants_stop_at_the_person_s_limit_exactly(client, day, monkeypatch):
    event_id, _, guest, _ = day
    monkeypatch.setattr(photos, "PHOTOS_PER_PERSON", 3)

    def grant(_n: int) -> None:
        photos.grant_upload(guest.user, event_id, "image/jpeg")

    outcomes = race(grant, 10, refused=Conflict)
    assert outcomes.count("ok") == 3
    assert len(the_day.stored_photos(event_id)) == 3
    assert Invitation.get(event_pk(event_id), invitation_sk(guest.id)).photo_count == 3
    refused = post_json(client, _photos_path(event_id), JPEG, guest.token)
    assert (refused.status_code, body(refused)) == (409, {"detail": photos.PERSON_FULL})


def test_parallel_grants_of_many_people_stop_at_the_event_s_limit_exactly(client, day, monkeypatch):
    event_id, owner, guest, _ = day
    monkeypatch.setattr(photos, "PHOTOS_PER_EVENT", 4)
    people = [owner, guest]

    def grant(n: int) -> None:
        photos.grant_upload(people[n % 2].user, event_id, "image/jpeg")

    assert race(grant, 12, refused=Conflict).count("ok") == 4
    assert len(the_day.stored_photos(event_id)) == 4
    assert Event.get(event_pk(event_id), META_SK).photo_count == 4


def test_an_upload_window_that_lapsed_gives_its_place_back(client, day, monkeypatch):
    event_id, _, guest, _ = day
    monkeypatch.setattr(photos, "PHOTOS_PER_PERSON", 1)
    assert post_json(client, _photos_path(event_id), JPEG, guest.token).status_code == 201
    assert post_json(client, _photos_path(event_id), JPEG, guest.token).status_code == 409
    [lapsed] = the_day.stored_photos(event_id)
    lapsed.update(actions=[Photo.created.set(utcnow() - timedelta(seconds=photos.UPLOAD_SECONDS + 120))])
    again = post_json(client, _photos_path(event_id), JPEG, guest.token)
    assert again.status_code == 201
    assert [photo.id for photo in the_day.stored_photos(event_id)] == [body(again)["id"]]


def test_the_album_is_newest_first_in_pages_of_30_with_presigned_urls(client, day, aws):
    event_id, owner, guest, _ = day
    made = [the_day.ready_photo(event_id, guest if n % 2 else owner) for n in range(32)]
    post_json(client, _photos_path(event_id), JPEG, guest.token)  # pending: never listed
    aws.reset()
    first = get(client, _photos_path(event_id), guest.token)
    assert first.status_code == 200
    page = body(first)
    assert [photo["id"] for photo in page["results"]] == [photo.id for photo in reversed(made)][:30]
    newest = page["results"][0]
    assert newest["user_id"] == made[-1].user_id
    assert newest["created_at"].endswith("Z")
    assert "/photos/" in newest["thumb_url"] and newest["thumb_url"].split("?")[0].endswith("/thumb.jpg")
    assert "X-Amz-Signature=" in newest["url"] and newest["url"].split("?")[0].endswith("/photo.jpg")
    assert aws.of("s3") == {}  # presigned here: no call to S3
    rest = get(client, page["next"].removeprefix("https://invites.example.test").removeprefix("/api"), guest.token)
    assert [photo["id"] for photo in body(rest)["results"]] == [made[1].id, made[0].id]
    assert body(rest)["next"] is None


def test_before_must_be_a_photo_id(client, day):
    event_id, owner, _, _ = day
    response = get(client, _photos_path(event_id) + "?before=abc", owner.token)
    assert response.status_code == 400 and list(body(response)) == ["before"]


def _put_objects(photo) -> None:
    s3, bucket = aws_client("s3"), get_settings().avatar_bucket
    for key in (photo.thumb_key, photo.big_key):
        s3.put_object(Bucket=bucket, Key=key, Body=b"jpeg")


def test_the_uploader_and_a_host_may_remove_a_photo_and_another_guest_may_not(client, day):
    event_id, owner, guest, _ = day
    other = make_person("Otto Other")
    the_day.going_after_invite(client, owner, event_id, other)
    mine, second = the_day.ready_photo(event_id, guest), the_day.ready_photo(event_id, guest)
    _put_objects(mine)
    path = f"{_photos_path(event_id)}/{mine.id}"
    refused = client.http.delete(path, headers={"Authorization": f"Bearer {other.token}"})
    assert refused.status_code == 403
    assert client.http.delete(path, headers={"Authorization": f"Bearer {guest.token}"}).status_code == 204
    assert mine.thumb_key not in the_day.bucket_keys() and mine.big_key not in the_day.bucket_keys()
    assert client.http.delete(path, headers={"Authorization": f"Bearer {guest.token}"}).status_code == 404
    by_host = f"{_photos_path(event_id)}/{second.id}"
    assert client.http.delete(by_host, headers={"Authorization": f"Bearer {owner.token}"}).status_code == 204
    assert the_day.stored_photos(event_id) == []
    assert Event.get(event_pk(event_id), META_SK).photo_count == 0
    assert Invitation.get(event_pk(event_id), invitation_sk(guest.id)).photo_count == 0


def test_cancelling_the_event_removes_its_album(client, day):
    event_id, owner, guest, _ = day
    photo = the_day.ready_photo(event_id, guest)
    _put_objects(photo)
    cancelled = client.http.put(f"/events/{event_id}/cancel_event", headers={"Authorization": f"Bearer {owner.token}"})
    assert cancelled.status_code == 204
    assert the_day.stored_photos(event_id) == []
    assert the_day.bucket_keys() == set()
    closed = post_json(client, _photos_path(event_id), JPEG, guest.token)
    assert (closed.status_code, body(closed)) == (409, {"detail": "The album is closed."})


def test_a_clone_carries_the_album_setting(client, day):
    event_id, owner, _, _ = day
    clone = post_json(client, f"/events/{event_id}/clone", {"event_date": "2031-01-01T18:00:00Z"}, owner.token)
    assert clone.status_code == 201 and body(clone)["album"] == "guests"


def test_storage_down_on_removal_is_a_503_with_retry_after_and_the_photo_stays(client, day, break_aws):
    from tests.utils.aws_faults import client_error

    event_id, _, guest, _ = day
    photo = the_day.ready_photo(event_id, guest)
    break_aws("DeleteObjects", lambda operation: client_error(operation, "SlowDown"))  # S3 asks to back off
    path = f"{_photos_path(event_id)}/{photo.id}"
    refused = client.http.delete(path, headers={"Authorization": f"Bearer {guest.token}"})
    assert refused.status_code == 503 and refused.headers.get("Retry-After")
    assert [item.id for item in the_day.stored_photos(event_id)] == [photo.id]


def test_a_page_costs_the_same_few_queries_and_no_s3_call_however_big_the_album(client, day, aws):
    event_id, _, guest, _ = day
    for _ in range(65):
        the_day.ready_photo(event_id, guest)
    aws.reset()
    page = get(client, _photos_path(event_id), guest.token)
    assert len(body(page)["results"]) == 30
    assert aws.of("dynamodb")["Query"] <= 3 and aws.total("s3") == 0  # the event, then one page of photos
