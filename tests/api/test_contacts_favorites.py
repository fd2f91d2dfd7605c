"""GET, POST and DELETE /users/favorite_contacts: both body shapes, photos in S3, bad input."""

from __future__ import annotations

import base64
import io
import time

import boto3
import pytest

from chalicelib.models.users import Favorite, user_pk
from tests.utils.api import body, get, post_json
from tests.utils.avatars import AVATAR_BUCKET, CDN, stored_objects
from tests.utils.factories import user_with_token
from tests.utils.images import jpeg, png, png_claiming

PATH = "/users/favorite_contacts"
INVALID_IMAGE = "Upload a valid image. The file you uploaded was either not an image or a corrupted image."
INVALID_PHONE = "Enter a valid phone number."
ANN, BOB, CY = "+14155550101", "+14155550102", "+14155550103"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _stored(user_id: int) -> list[Favorite]:
    return list(Favorite.query(user_pk(user_id), consistent_read=True))


def _post(client, payload, token, method="POST"):
    return post_json(client, PATH, payload, token, method=method)


@pytest.fixture
def caller(aws):
    user, token = user_with_token("+14155550900")
    return user.id, token


def test_post_array_stores_and_returns_the_whole_list_ordered_by_name(client, caller):
    user_id, token = caller
    response = _post(
        client,
        [
            {"contact_name": "bob", "phone_number": "+1 (415) 555-0102"},
            {"contact_name": "Ann", "phone_number": ANN, "photo": _b64(jpeg())},
            {"contact_name": "Cy", "phone_number": CY},
        ],
        token,
    )
    assert response.status_code == 200
    favorites = body(response)
    assert [f["contact_name"] for f in favorites] == ["Ann", "bob", "Cy"]
    ann = favorites[0]
    assert set(ann) == {"id", "phone_number", "contact_name", "photo_url", "owner", "is_favorite"}
    assert ann["phone_number"] == ANN and ann["owner"] == user_id and ann["is_favorite"] is True
    assert isinstance(ann["id"], int) and ann["photo_url"].startswith(CDN)
    assert favorites[1]["phone_number"] == BOB and favorites[1]["photo_url"] is None
    assert stored_objects() == [ann["photo_url"][len(CDN) :]]
    assert body(get(client, PATH, token)) == favorites


def test_photo_is_stored_as_a_clean_jpeg_under_an_unguessable_key(client, caller):
    from PIL import Image

    _, token = caller
    favorites = body(_post(client, [{"contact_name": "Ann", "phone_number": ANN, "photo": _b64(png())}], token))
    key = favorites[0]["photo_url"][len(CDN) :]
    obj = boto3.client("s3", region_name="us-east-1").get_object(Bucket=AVATAR_BUCKET, Key=key)
    assert obj["ContentType"] == "image/jpeg"
    assert Image.open(io.BytesIO(obj["Body"].read())).format == "JPEG"
    assert key.startswith(f"favorites/{caller[0]}/") and len(key.split("/")[-1]) >= 22


def test_photo_as_data_uri_with_line_breaks_is_accepted(client, caller):
    _, token = caller
    encoded = base64.encodebytes(jpeg()).decode()  # MIME style: a newline every 76 characters
    photo = "data:image/jpeg;base64," + encoded
    response = _post(client, [{"contact_name": "Ann", "phone_number": ANN, "photo": photo}], token)
    assert response.status_code == 200 and body(response)[0]["photo_url"].startswith(CDN)


def test_deprecated_phone_numbers_shape_on_post(client, caller):
    _, token = caller
    response = _post(client, {"phone_numbers": [BOB, "+1 415 555 0101"]}, token)
    assert response.status_code == 200
    favorites = body(response)
    assert sorted(f["phone_number"] for f in favorites) == [ANN, BOB]
    assert all(f["contact_name"] == "" and f["photo_url"] is None for f in favorites)


def test_contacts_wrapped_in_an_object_are_accepted(client, caller):
    _, token = caller
    response = _post(client, {"contacts": [{"contact_name": "Ann", "phone_number": ANN}]}, token)
    assert response.status_code == 200 and [f["phone_number"] for f in body(response)] == [ANN]


def test_post_upserts_by_normalised_number(client, caller):
    user_id, token = caller
    first = body(_post(client, [{"contact_name": "Ann", "phone_number": ANN, "photo": _b64(jpeg())}], token))[0]
    # a new name, number written differently, no photo sent: the photo stays
    second = body(_post(client, [{"contact_name": "Annie", "phone_number": "+1-415-555-0101"}], token))
    assert len(second) == 1
    assert second[0]["id"] == first["id"] and second[0]["contact_name"] == "Annie"
    assert second[0]["photo_url"] == first["photo_url"]
    # the deprecated shape keeps name and photo of a known number
    third = body(_post(client, {"phone_numbers": [ANN]}, token))
    assert third == second
    # a new photo replaces the old object
    fourth = body(_post(client, [{"phone_number": ANN, "photo": _b64(png())}], token))[0]
    assert fourth["photo_url"] != first["photo_url"] and fourth["contact_name"] == "Annie"
    assert stored_objects() == [fourth["photo_url"][len(CDN) :]]
    # photo null removes it, object and all
    fifth = body(_post(client, [{"phone_number": ANN, "photo": None}], token))[0]
    assert fifth["photo_url"] is None and stored_objects() == []
    assert len(_stored(user_id)) == 1


def test_same_number_twice_in_one_request_last_one_wins(client, caller):
    user_id, token = caller
    response = _post(
        client,
        [
            {"contact_name": "First", "phone_number": ANN, "photo": _b64(jpeg())},
            {"contact_name": "Second", "phone_number": "+1 415 555 0101"},
        ],
        token,
    )
    assert response.status_code == 200
    assert [(f["contact_name"], f["photo_url"]) for f in body(response)] == [("Second", None)]
    assert stored_objects() == [] and len(_stored(user_id)) == 1


def test_names_are_ordered_case_insensitively_then_by_number(client, caller):
    _, token = caller
    payload = [
        {"contact_name": "zed", "phone_number": ANN},
        {"contact_name": "Émile", "phone_number": BOB},
        {"contact_name": "alice", "phone_number": CY},
        {"contact_name": "Bob", "phone_number": "+14155550104"},
        {"contact_name": "bob", "phone_number": "+14155550105"},
    ]
    names = [f["contact_name"] for f in body(_post(client, payload, token))]
    assert names == ["alice", "Bob", "bob", "zed", "Émile"]


def test_delete_removes_named_numbers_and_their_photos(client, caller):
    user_id, token = caller
    _post(
        client,
        [
            {"contact_name": "Ann", "phone_number": ANN, "photo": _b64(jpeg())},
            {"contact_name": "Bob", "phone_number": BOB, "photo": _b64(jpeg())},
            {"contact_name": "Cy", "phone_number": CY},
        ],
        token,
    )
    assert len(stored_objects()) == 2
    response = _post(client, [{"phone_number": "+1 415 555 0101"}, {"phone_number": "+14155550199"}], token, "DELETE")
    assert response.status_code == 200
    remaining = body(response)
    assert [f["contact_name"] for f in remaining] == ["Bob", "Cy"]
    assert stored_objects() == [remaining[0]["photo_url"][len(CDN) :]]
    response = _post(client, {"phone_numbers": [BOB, CY]}, token, "DELETE")
    assert response.status_code == 200 and body(response) == []
    assert stored_objects() == [] and _stored(user_id) == []


def test_delete_ignores_photo_and_name_of_the_entries(client, caller):
    _, token = caller
    _post(client, [{"contact_name": "Ann", "phone_number": ANN}], token)
    response = _post(client, [{"phone_number": ANN, "photo": "not base64!", "contact_name": 5}], token, "DELETE")
    assert response.status_code == 200 and body(response) == []


def test_lists_are_per_owner(client, caller):
    _, token = caller
    _, other_token = user_with_token("+14155550901")
    _post(client, [{"contact_name": "Ann", "phone_number": ANN}], token)
    assert body(get(client, PATH, other_token)) == []
    assert body(_post(client, {"phone_numbers": [ANN]}, other_token, "DELETE")) == []
    assert len(body(get(client, PATH, token))) == 1


def test_get_reads_with_one_query(client, caller, aws):
    _, token = caller
    _post(client, [{"contact_name": "Ann", "phone_number": ANN}], token)
    aws.reset()
    get(client, PATH, token)
    calls = aws.of("dynamodb")
    assert calls["Query"] == 1 and calls["Scan"] == 0


def test_a_thousand_entries_in_one_request(client, caller, aws):
    user_id, token = caller
    numbers = [f"+1212555{i:04d}" for i in range(1000)]
    aws.reset()
    response = _post(client, [{"contact_name": f"n{i:04d}", "phone_number": n} for i, n in enumerate(numbers)], token)
    assert response.status_code == 200 and len(body(response)) == 1000
    calls = aws.of("dynamodb")
    assert calls["BatchWriteItem"] == 40 and calls["Query"] == 1
    assert len(_stored(user_id)) == 1000
    response = _post(client, {"phone_numbers": numbers[:500]}, token, "DELETE")
    assert response.status_code == 200 and len(body(response)) == 500


def test_head_and_auth(client, caller):
    _, token = caller
    response = client.http.request("HEAD", PATH, headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200 and not response.body
    for method in ("GET", "POST", "DELETE"):
        response = post_json(client, PATH, {"phone_numbers": [ANN]}, method=method)
        assert response.status_code == 401, method
        assert body(response) == {"detail": "Authentication credentials were not provided."}


# Bad input: 400 keyed by field, and nothing stored (no item, no S3 object)

TOO_MANY = "Ensure this field has no more than 1000 elements."
GOOD = {"contact_name": "Ann", "phone_number": ANN}


def _good_with_photo():
    return {"contact_name": "Good", "phone_number": CY, "photo": _b64(jpeg())}


BAD_INPUT = [
    pytest.param(
        [GOOD, {"contact_name": "Bob", "phone_number": "+1415"}],
        [{}, {"phone_number": [INVALID_PHONE]}],
        id="invalid-number",
    ),
    pytest.param(
        [{"contact_name": "x" * 257, "phone_number": ANN}],
        [{"contact_name": ["Ensure this field has no more than 256 characters."]}],
        id="name-over-256",
    ),
    pytest.param(
        [{"contact_name": "Ann"}, {"phone_number": None, "contact_name": None}],
        [
            {"phone_number": ["This field is required."]},
            {"phone_number": ["This field may not be null."], "contact_name": ["This field may not be null."]},
        ],
        id="missing-and-null",
    ),
    pytest.param(
        ["good", {"phone_number": BOB, "photo": "@@not base64@@"}, {"phone_number": ANN, "photo": 12}],
        [
            {"non_field_errors": ["Invalid data. Expected a dictionary, but got str."]},
            {"photo": [INVALID_IMAGE]},
            {"photo": [INVALID_IMAGE]},
        ],
        id="not-an-object-bad-base64-not-a-string",
    ),
    pytest.param(
        "photo-not-image",
        [{}, {"photo": [INVALID_IMAGE]}],
        id="photo-not-an-image",
    ),
    pytest.param(
        "photo-gif",
        [{}, {"photo": [INVALID_IMAGE]}],
        id="photo-gif",
    ),
    pytest.param(
        "photo-truncated",
        [{}, {"photo": [INVALID_IMAGE]}],
        id="photo-truncated",
    ),
    pytest.param(
        [GOOD] * 1001,
        {"non_field_errors": [TOO_MANY]},
        id="1001-entries",
    ),
    pytest.param(
        {"phone_numbers": [ANN] * 1001},
        {"phone_numbers": [TOO_MANY]},
        id="1001-phone-numbers",
    ),
    pytest.param(
        {"phone_numbers": [ANN, "0800 123", 7]},
        {"phone_numbers": {"1": [INVALID_PHONE], "2": ["Not a valid string."]}},
        id="phone-numbers-invalid",
    ),
    pytest.param({"contacts": [GOOD] * 1001}, {"contacts": {"non_field_errors": [TOO_MANY]}}, id="1001-contacts"),
    pytest.param(
        {"contacts": "Ann"}, {"contacts": ['Expected a list of items but got type "str".']}, id="contacts-str"
    ),
    pytest.param({"names": ["Ann"]}, {"phone_numbers": ["This field is required."]}, id="object-without-numbers"),
    pytest.param({"phone_numbers": ANN}, {"phone_numbers": ['Expected a list of items but got type "str".']}, id="str"),
    pytest.param("Ann", {"non_field_errors": ['Expected a list of items but got type "str".']}, id="string-body"),
    pytest.param(42, {"non_field_errors": ['Expected a list of items but got type "int".']}, id="number-body"),
]


@pytest.mark.parametrize(("payload", "expected"), BAD_INPUT)
def test_bad_input_is_400_and_nothing_is_stored(client, caller, payload, expected):
    user_id, token = caller
    if isinstance(payload, str) and payload.startswith("photo-"):
        data = {
            "photo-not-image": b"just some text, not an image",
            "photo-gif": b"GIF89a" + b"\x00" * 200,
            "photo-truncated": jpeg(800, 600)[:600],
        }[payload]
        payload = [_good_with_photo(), {"contact_name": "Bad", "phone_number": ANN, "photo": _b64(data)}]
    response = _post(client, payload, token)
    assert response.status_code == 400
    assert body(response) == expected
    assert _stored(user_id) == [] and stored_objects() == []


def test_photo_over_the_size_limit_is_400_by_field(client, caller, override_settings):
    limit = 1024 * 1024
    override_settings(avatar_max_bytes=limit)
    user_id, token = caller
    picture = jpeg()
    for size in (limit + 1, 2 * limit):  # just over: refused after decoding; far over: before
        photo = _b64(picture + b"\x00" * (size - len(picture)))
        response = _post(client, [_good_with_photo(), {"phone_number": ANN, "photo": photo}], token)
        assert response.status_code == 400
        assert body(response) == [{}, {"photo": ["File too large. Maximum size is 1 MB."]}]
    assert _stored(user_id) == [] and stored_objects() == []


def test_photo_over_the_pixel_limit_is_400_by_field(client, caller, override_settings):
    override_settings(favorite_photo_max_pixels=10_000)
    user_id, token = caller
    response = _post(client, [{"phone_number": ANN, "photo": _b64(jpeg(100, 101))}], token)
    assert response.status_code == 400
    assert body(response) == [{"photo": ["Image is too large: at most 0.01 megapixels."]}]
    assert _stored(user_id) == [] and stored_objects() == []
    assert _post(client, [{"phone_number": ANN, "photo": _b64(jpeg(100, 100))}], token).status_code == 200


def test_contact_photo_over_12_megapixels_is_refused_from_its_header(client, caller):
    user_id, token = caller
    started = time.perf_counter()
    over = png_claiming(4000, 3001, depth=16, colour_type=6)
    response = _post(client, [{"phone_number": ANN, "photo": _b64(over)}], token)
    assert time.perf_counter() - started < 1
    assert response.status_code == 400
    assert body(response) == [{"photo": ["Image is too large: at most 12 megapixels."]}]
    assert _stored(user_id) == [] and stored_objects() == []


@pytest.mark.parametrize("wrapped", [False, True])
def test_more_than_20_photos_in_one_request_is_400_and_nothing_stored(client, caller, wrapped):
    user_id, token = caller
    photo = _b64(jpeg())
    contacts = [{"phone_number": f"+1415555{1000 + n:04d}", "photo": photo} for n in range(21)]
    response = _post(client, {"contacts": contacts} if wrapped else contacts, token)
    assert response.status_code == 400
    error = {"non_field_errors": ["Ensure this request has no more than 20 photos."]}
    assert body(response) == ({"contacts": error} if wrapped else error)
    assert _stored(user_id) == [] and stored_objects() == []
    assert _post(client, contacts[:20], token).status_code == 200  # 20 is allowed
    assert len(stored_objects()) == 20


def test_photos_that_would_decode_past_the_request_budget_are_refused_before_decoding(client, caller):
    user_id, token = caller
    # 20 photos of 12 MP of 16-bit RGBA: the costliest request within the per-photo and count limits
    # (about 0.4 s of CPU each to decode and resize); they claim their size but hold no pixels
    photo = _b64(png_claiming(4000, 3000, depth=16, colour_type=6))
    contacts = [{"phone_number": f"+1415555{1000 + n:04d}", "photo": photo} for n in range(20)]
    started = time.perf_counter()
    response = _post(client, contacts, token)
    assert time.perf_counter() - started < 1
    assert response.status_code == 400
    assert body(response) == {
        "non_field_errors": [
            "These photos are too large to process in one request: send fewer or smaller ones at a time."
        ]
    }
    assert _stored(user_id) == [] and stored_objects() == []


def test_the_decoding_budget_is_a_setting(client, caller, override_settings):
    override_settings(image_decode_pixels_per_request=12_000)
    _, token = caller
    two = [{"phone_number": ANN, "photo": _b64(png(100, 60))}, {"phone_number": BOB, "photo": _b64(png(100, 61))}]
    assert _post(client, two, token).status_code == 400
    assert _post(client, two[:1], token).status_code == 200


def test_empty_body_is_400(client, caller):
    _, token = caller
    response = client.http.post(PATH, body=b"", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 400 and body(response) == {"non_field_errors": ["No data provided"]}


def test_empty_array_changes_nothing(client, caller):
    _, token = caller
    _post(client, [GOOD], token)
    response = _post(client, [], token)
    assert response.status_code == 200 and [f["phone_number"] for f in body(response)] == [ANN]


# Faults


def test_s3_down_on_photo_upload_is_503_and_nothing_stored(client, caller, fail_aws):
    user_id, token = caller
    fail_aws("s3", "PutObject", "SlowDown")
    response = _post(client, [_good_with_photo(), {"contact_name": "Ann", "phone_number": ANN}], token)
    assert response.status_code == 503 and "Retry-After" in response.headers
    assert _stored(user_id) == [] and stored_objects() == []


def test_dynamodb_down_on_write_is_503_and_uploaded_photos_are_removed(client, caller, fail_aws):
    user_id, token = caller
    fail_aws("dynamodb", "BatchWriteItem", "ProvisionedThroughputExceededException")
    response = _post(client, [_good_with_photo(), {"contact_name": "Ann", "phone_number": ANN}], token)
    assert response.status_code == 503
    assert _stored(user_id) == [] and stored_objects() == []


def test_dynamodb_down_on_delete_is_503_and_photos_stay(client, caller, fail_aws):
    user_id, token = caller
    _post(client, [_good_with_photo()], token)
    fail_aws("dynamodb", "BatchWriteItem", "ProvisionedThroughputExceededException")
    response = _post(client, {"phone_numbers": [CY]}, token, "DELETE")
    assert response.status_code == 503
    assert len(_stored(user_id)) == 1 and len(stored_objects()) == 1
