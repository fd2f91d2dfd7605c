"""POST /users/change_avatar and /users/remove_avatar (multipart upload, S3, Pillow)."""

from __future__ import annotations

import io
import time

import boto3
import pytest

from chalicelib.models.users import User, user_pk
from tests.utils.api import body, login
from tests.utils.avatars import AVATAR_BUCKET, CDN, multipart, remove_avatar, stored_objects, upload_avatar
from tests.utils.images import jpeg, png_claiming


def _photo(width=1600, height=1200, exif=b"") -> bytes:
    """A photo-like JPEG (noise), large enough that both stored sizes are scaled down."""
    return jpeg(width, height, noise=True, exif=exif)


def _stored(user_id):
    return User.get(user_pk(user_id), "PROFILE")


def test_upload_stores_both_sizes_and_returns_their_urls(client):
    from PIL import Image

    user = login(client, "+14155550401")
    response = upload_avatar(client, user["auth_token"], _photo())
    assert response.status_code == 200
    profile = body(response)
    assert profile["photo"].startswith(CDN) and profile["big_photo"].startswith(CDN)
    s3 = boto3.client("s3", region_name="us-east-1")
    big = s3.get_object(Bucket=AVATAR_BUCKET, Key=profile["big_photo"][len(CDN) :])
    small = s3.get_object(Bucket=AVATAR_BUCKET, Key=profile["photo"][len(CDN) :])
    assert big["ContentType"] == "image/jpeg"
    assert Image.open(io.BytesIO(big["Body"].read())).size == (1024, 768)
    assert Image.open(io.BytesIO(small["Body"].read())).size == (200, 200)
    # unguessable keys: a random part of at least 128 bits
    assert len(profile["photo"].split("/")[-2]) >= 22


def test_gps_metadata_is_stripped(client):
    from PIL import Image

    exif = Image.Exif()
    exif[0x010F] = "SpyCam"  # Make
    exif[0x8825] = {1: "N", 2: (51.0, 30.0, 0.0)}  # GPS
    user = login(client, "+14155550402")
    profile = body(upload_avatar(client, user["auth_token"], _photo(exif=exif.tobytes())))
    data = (
        boto3.client("s3", region_name="us-east-1")
        .get_object(Bucket=AVATAR_BUCKET, Key=profile["big_photo"][len(CDN) :])["Body"]
        .read()
    )
    assert b"SpyCam" not in data and not Image.open(io.BytesIO(data)).getexif()


def test_new_avatar_replaces_the_old_objects(client):
    user = login(client, "+14155550403")
    first = body(upload_avatar(client, user["auth_token"], _photo()))
    second = body(upload_avatar(client, user["auth_token"], _photo(800, 800)))
    assert first["photo"] != second["photo"]
    assert stored_objects() == sorted([second["photo"][len(CDN) :], second["big_photo"][len(CDN) :]])


def test_remove_avatar_deletes_objects_and_answers_the_user(client):
    user = login(client, "+14155550404")
    upload_avatar(client, user["auth_token"], _photo())
    response = remove_avatar(client, user["auth_token"])
    assert response.status_code == 200
    assert body(response)["photo"] is None and body(response)["big_photo"] is None
    assert stored_objects() == []
    assert _stored(user["id"]).photo_key is None


INVALID = "Upload a valid image. The file you uploaded was either not an image or a corrupted image."


@pytest.mark.parametrize(
    ("data", "status", "expected"),
    [
        (b"just some text, not an image", 400, {"photo": [INVALID]}),
        (b"GIF89a" + b"\x00" * 200, 400, {"photo": [INVALID]}),
        ("truncated", 400, {"photo": [INVALID]}),
        ("bomb", 400, {"photo": ["Image is too large: at most 40 megapixels."]}),
    ],
)
def test_bad_uploads_are_refused_and_the_profile_unchanged(client, data, status, expected):
    if data == "truncated":
        data = _photo()[:3000]
    elif data == "bomb":
        data = png_claiming(30_000, 30_000)
    user = login(client, "+14155550405")
    response = upload_avatar(client, user["auth_token"], data)
    assert response.status_code == status
    assert body(response) == expected
    assert _stored(user["id"]).photo_key is None and stored_objects() == []


def test_wrong_field_is_400(client):
    user = login(client, "+14155550406")
    response = upload_avatar(client, user["auth_token"], _photo(), field="avatar")
    assert response.status_code == 400 and body(response) == {"photo": ["No file was submitted."]}


def test_over_four_megabytes_is_413(client):
    # 4 MB, not 5: API Gateway base64-encodes the body, and 5 MB would exceed Lambda's 6 MB request limit
    user = login(client, "+14155550407")
    response = upload_avatar(client, user["auth_token"], b"\xff\xd8\xff" + b"\x00" * (4 * 1024 * 1024 + 70_000))
    assert response.status_code == 413
    assert body(response) == {"detail": "Request body too large. Maximum size is 4 MB."}
    assert stored_objects() == []


def test_not_multipart_is_415(client):
    user = login(client, "+14155550408")
    response = client.http.post(
        "/users/change_avatar",
        body=b"{}",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {user['auth_token']}"},
    )
    assert response.status_code == 415


def test_s3_down_on_upload_is_503_and_nothing_changes(client, fail_aws):
    user = login(client, "+14155550409")
    fail_aws("s3", "PutObject", "SlowDown")
    response = upload_avatar(client, user["auth_token"], _photo())
    assert response.status_code == 503 and "Retry-After" in response.headers
    assert _stored(user["id"]).photo_key is None and stored_objects() == []


def test_profile_write_failing_after_upload_leaves_no_objects(client, fail_aws):
    user = login(client, "+14155550410")
    fail_aws("dynamodb", "UpdateItem", "ProvisionedThroughputExceededException")
    response = upload_avatar(client, user["auth_token"], _photo())
    assert response.status_code == 503
    assert stored_objects() == []


def _many_parts(count: int) -> tuple[bytes, dict]:
    boundary = "b"
    part = f'--{boundary}\r\nContent-Disposition: form-data; name="x"\r\n\r\na\r\n'.encode()
    return part * count + f"--{boundary}--\r\n".encode(), {"Content-Type": f"multipart/form-data; boundary={boundary}"}


def test_more_than_8_parts_is_400_in_well_under_a_second(client):
    token = login(client, "+14155550330")["auth_token"]
    payload, headers = _many_parts(80_000)  # 4.3 MB: took 9-30 s to refuse before the parts were counted
    started = time.perf_counter()
    response = client.http.post(
        "/users/change_avatar", body=payload, headers={**headers, "Authorization": f"Bearer {token}"}
    )
    assert time.perf_counter() - started < 0.5
    assert response.status_code == 400
    assert body(response) == {"non_field_errors": ["Too many parts."]}
    assert stored_objects() == []


def test_a_photo_among_8_parts_is_taken(client):
    token = login(client, "+14155550331")["auth_token"]
    extra, _ = _many_parts(7)
    photo, headers = multipart(_photo(64, 48))
    payload = extra.removesuffix(b"--b--\r\n") + photo.replace(b"----invites-test-boundary", b"b")
    headers = {"Content-Type": "multipart/form-data; boundary=b", "Authorization": f"Bearer {token}"}
    response = client.http.post("/users/change_avatar", body=payload, headers=headers)
    assert response.status_code == 200, response.body
    assert body(response)["photo"].startswith(CDN)


def test_remove_avatar_with_s3_down_is_503_and_keeps_the_profile(client, fail_aws):
    # it answered 200 and cleared the profile, leaving both objects public with nothing pointing at them
    user = login(client, "+14155550161")
    upload_avatar(client, user["auth_token"], _photo(400, 300))
    stored = stored_objects()
    fail_aws("s3", "DeleteObjects", "SlowDown")
    response = remove_avatar(client, user["auth_token"])
    assert response.status_code == 503 and "Retry-After" in response.headers
    assert stored_objects() == stored
    assert _stored(user["id"]).photo_key is not None


def test_remove_avatar_with_objects_s3_would_not_delete_is_503_and_a_retry_finishes(client, monkeypatch):
    from chalicelib import aws

    user = login(client, "+14155550161")
    upload_avatar(client, user["auth_token"], _photo(400, 300))
    real_s3 = aws.s3()

    class Partial:
        def delete_objects(self, Bucket, Delete):  # noqa: N803 - boto3's names
            return {"Errors": [{"Key": Delete["Objects"][0]["Key"], "Code": "InternalError", "Message": "x"}]}

    monkeypatch.setattr(aws, "s3", lambda: Partial())
    assert remove_avatar(client, user["auth_token"]).status_code == 503
    assert _stored(user["id"]).photo_key is not None
    monkeypatch.setattr(aws, "s3", lambda: real_s3)
    response = remove_avatar(client, user["auth_token"])
    assert response.status_code == 200 and body(response)["photo"] is None
    assert stored_objects() == []


def _nested(sub_parts: int, *, header: bytes = b"Content-Type: multipart/mixed; boundary=in") -> bytes:
    inner = b'--in\r\nContent-Type: text/plain\r\n\r\na\r\n' * sub_parts + b"--in--\r\n"
    return b'--b\r\nContent-Disposition: form-data; name="extra"\r\n' + header + b"\r\n\r\n" + inner + b"\r\n"


@pytest.mark.parametrize(
    "header",
    [
        b"Content-Type: multipart/mixed; boundary=in",
        b"content-type:\r\n  Multipart/Mixed; boundary=in",  # any case, folded
    ],
)
def test_a_part_that_is_itself_multipart_is_400_whatever_it_holds(client, header):
    # a valid photo beside 30,000 nested sub-parts: only the outer parts were counted, and all were parsed
    token = login(client, "+14155550332")["auth_token"]
    photo, _ = multipart(_photo(64, 48))
    payload = _nested(30_000, header=header) + photo.replace(b"----invites-test-boundary", b"b")
    headers = {"Content-Type": "multipart/form-data; boundary=b", "Authorization": f"Bearer {token}"}
    response = client.http.post("/users/change_avatar", body=payload, headers=headers)
    assert response.status_code == 400
    assert body(response) == {"non_field_errors": ["Nested multipart bodies are not accepted."]}
    assert stored_objects() == []


def test_photos_are_cached_briefly_and_stop_resolving_after_removal(client):
    # a person's photo must not outlive its deletion in a CDN or browser cache: no year-long immutable caching
    user = login(client, "+14155550402")
    profile = body(upload_avatar(client, user["auth_token"], _photo()))
    s3 = boto3.client("s3", region_name="us-east-1")
    for url in (profile["photo"], profile["big_photo"]):
        cache = s3.head_object(Bucket=AVATAR_BUCKET, Key=url[len(CDN) :])["CacheControl"]
        assert "immutable" not in cache and cache == "public, max-age=600", cache
    assert remove_avatar(client, user["auth_token"]).status_code == 200
    for url in (profile["photo"], profile["big_photo"]):
        with pytest.raises(s3.exceptions.ClientError):
            s3.head_object(Bucket=AVATAR_BUCKET, Key=url[len(CDN) :])
