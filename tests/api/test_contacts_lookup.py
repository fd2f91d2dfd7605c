"""POST /users/from_phone_numbers: who of these numbers is registered, in batches, rate-limited."""

from __future__ import annotations

import pytest

from chalicelib.models.users import PHONE_SK, PROFILE_SK, PhoneClaim, User, UsersTable, phone_pk, user_pk
from chalicelib.services.contacts import contacts
from chalicelib.store import batch as store_batch
from chalicelib.timeutil import utcnow
from tests.utils.api import body, post_json
from tests.utils.aws_faults import read_timeout
from tests.utils.factories import user_with_token

PATH = "/users/from_phone_numbers"


def _many_users(numbers: list[str], *, first_id: int = 10_000) -> None:
    """Active users with phone claims for ``numbers``, written directly (fast)."""
    now = utcnow()
    with UsersTable.batch_write() as batch:
        for offset, number in enumerate(numbers):
            uid = first_id + offset
            batch.save(PhoneClaim(phone_pk(number), PHONE_SK, user_id=uid))
            batch.save(
                User(
                    user_pk(uid),
                    PROFILE_SK,
                    id=uid,
                    phone_number=number,
                    is_active=True,
                    full_name=f"User {offset}",
                    created=now,
                    modified=now,
                )
            )


@pytest.fixture
def caller(aws):
    return user_with_token("+14155550900", full_name="Caller")


def _lookup(client, numbers, token):
    return post_json(client, PATH, {"phone_numbers": numbers}, token)


def test_returns_active_users_echoing_each_number_as_sent(client, caller):
    _, token = caller
    ann, _ = user_with_token("+14155550101", full_name="Ann")
    user_with_token("+14155550102", active=False)  # invited, never logged in
    sent = ["+1 (415) 555-0101", "+14155550102", "+14155550103", "not a number", "+1415", "+14155550101"]
    response = _lookup(client, sent, token)
    assert response.status_code == 200
    assert body(response) == [
        {
            "phone_number": "+1 (415) 555-0101",
            "user": {
                "id": ann.id,
                "full_name": "Ann",
                "phone_number": "+14155550101",
                "photo": None,
                "big_photo": None,
            },
        },
        {
            "phone_number": "+14155550101",
            "user": {
                "id": ann.id,
                "full_name": "Ann",
                "phone_number": "+14155550101",
                "photo": None,
                "big_photo": None,
            },
        },
    ]


def test_nothing_registered_is_an_empty_list(client, caller):
    _, token = caller
    assert body(_lookup(client, ["+14155550199"], token)) == []
    assert body(_lookup(client, [], token)) == []


def test_a_thousand_numbers_take_at_most_20_calls_in_2_rounds(client, caller, aws, monkeypatch):
    _, token = caller
    numbers = [f"+1212555{i:04d}" for i in range(1000)]
    _many_users(numbers)
    _lookup(client, numbers[:1], token)  # warm the table description PynamoDB caches per process
    rounds = []
    original = contacts.parallel_map

    def counting(call, args):
        if len(args) > 1:  # a fan-out (one call runs on the request's thread)
            rounds.append(len(args))
        return original(call, args)

    monkeypatch.setattr(contacts, "parallel_map", counting)
    monkeypatch.setattr(store_batch, "parallel_map", counting)
    aws.reset()
    response = _lookup(client, numbers, token)
    assert response.status_code == 200
    rows = body(response)
    assert len(rows) == 1000 and [row["phone_number"] for row in rows] == numbers
    assert all(row["user"]["phone_number"] == row["phone_number"] for row in rows)
    calls = aws.of("dynamodb")
    # the caller's lookup log read; then the charge to it side by side with 10 calls of 100 claims;
    # then 10 calls of 100 profiles
    assert rounds == [11, 10]
    # 20 BatchGetItem for the lookup, 1 more for authentication (token and profile in one call),
    # 1 to read the lookup log and 1 conditional UpdateItem charging it
    assert calls == {"BatchGetItem": 22, "UpdateItem": 1}


def test_too_many_numbers_and_wrong_shapes_are_400(client, caller, aws):
    _, token = caller
    cases = [
        (
            {"phone_numbers": ["+14155550101"] * 1001},
            {"phone_numbers": ["Ensure this field has no more than 1000 elements."]},
        ),
        ({"numbers": []}, {"phone_numbers": ["This field is required."]}),
        ({"phone_numbers": None}, {"phone_numbers": ["This field may not be null."]}),
        ({"phone_numbers": "+14155550101"}, {"phone_numbers": ['Expected a list of items but got type "str".']}),
        (["+14155550101"], {"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]}),
    ]
    aws.reset()
    for payload, expected in cases:
        response = post_json(client, PATH, payload, token)
        assert response.status_code == 400, payload
        assert body(response) == expected
    # authentication only: no lookup, and no rate-limit count
    assert aws.of("dynamodb") == {"BatchGetItem": len(cases)}


def test_lookups_count_numbers_not_requests(client, caller):
    # enumerating the user base: 1,000 numbers a request, request after request
    _, token = caller
    _, other_token = user_with_token("+14155550901")
    for batch in range(2):
        numbers = [f"+1212555{batch}{i:03d}" for i in range(1000)]
        assert _lookup(client, numbers, token).status_code == 200
    # 2,000 numbers in 24 hours: even one more is refused
    response = _lookup(client, ["+12125559999"], token)
    assert response.status_code == 429
    retry_after = int(response.headers["Retry-After"])
    assert 1 <= retry_after <= 25 * 3600 + 1
    assert body(response) == {"detail": f"Request was throttled. Expected available in {retry_after} seconds."}
    assert _lookup(client, ["+12125559999"], other_token).status_code == 200


def test_a_request_whose_numbers_do_not_fit_is_refused_whole_and_costs_nothing(client, caller, override_settings):
    override_settings(contact_lookup_numbers_per_user_per_day=5)
    _, token = caller
    ann, _ = user_with_token("+14155550101", full_name="Ann")
    assert _lookup(client, ["+14155550101", "+14155550102", "+14155550103"], token).status_code == 200
    refused = _lookup(client, ["+14155550101", "+14155550104", "+14155550105"], token)
    assert refused.status_code == 429 and "Retry-After" in refused.headers
    # the refused three were not counted: two more still fit, and are answered
    answered = _lookup(client, ["+14155550101", "+14155550104"], token)
    assert answered.status_code == 200 and [row["user"]["id"] for row in body(answered)] == [ann.id]
    assert _lookup(client, ["+14155550106"], token).status_code == 429


def test_repeated_and_invalid_numbers_are_not_counted(client, caller, override_settings):
    override_settings(contact_lookup_numbers_per_user_per_day=2)
    _, token = caller
    same_number = ["+14155550101", "+1 (415) 555-0101", "+14155550101", "not a number", "+1415"]
    for _ in range(2):
        assert _lookup(client, same_number, token).status_code == 200
    assert _lookup(client, ["+14155550102", "+14155550103"], token).status_code == 429


def test_requires_auth(client, aws):
    response = _lookup(client, ["+14155550101"], None)
    assert response.status_code == 401


def test_dynamodb_throttling_is_503(client, caller, fail_aws):
    _, token = caller
    fail_aws("dynamodb", "BatchGetItem", "ProvisionedThroughputExceededException")
    response = _lookup(client, ["+14155550101"], token)
    assert response.status_code == 503 and "Retry-After" in response.headers


def test_get_is_not_allowed(client, caller):
    _, token = caller
    response = client.http.get(PATH, headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 405


def test_dynamodb_read_timeout_on_a_rate_counter_is_503(client, caller, break_aws):
    _, token = caller
    break_aws("UpdateItem", read_timeout)
    response = _lookup(client, ["+14155550161"], token)
    assert response.status_code == 503 and "Retry-After" in response.headers
    assert body(response) == {"detail": "Service temporarily unavailable, try again later."}


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("+14155550202\u0000", "Null characters are not allowed."),
        ("+1415555\ud800", "Surrogate characters are not allowed: U+D800."),
    ],
)
def test_nul_or_a_lone_surrogate_in_an_entry_is_400_keyed_by_the_field(client, caller, entry, message):
    # "+14155550202\0" matched the registered number and echoed the NUL back
    _many_users(["+14155550202"])
    response = _lookup(client, ["+14155550203", entry], caller[1])
    assert response.status_code == 400
    assert body(response) == {"phone_numbers": {"1": [message]}}


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({}, "Not a valid string."),
        (1, "Not a valid string."),
        (None, "This field may not be null."),
        ([], "Not a valid string."),
    ],
)
def test_an_entry_that_is_no_string_is_400_by_position_and_nothing_is_looked_up(client, caller, aws, entry, message):
    # [{}], [1] and [null] were left out silently with 200
    _many_users(["+14155550202"])
    aws.reset()
    response = _lookup(client, ["+14155550202", entry], caller[1])
    assert response.status_code == 400
    assert body(response) == {"phone_numbers": {"1": [message]}}
    assert aws.of("dynamodb") == {"BatchGetItem": 1}  # authentication only
