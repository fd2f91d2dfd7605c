"""POST /auth, /auth/verify_pin, /auth/register, /auth/logout."""

from __future__ import annotations

import logging

import pytest

from chalicelib.models.users import Token, User, user_pk
from tests.utils.api import body, call_from, get, last_pin, login, post_json, texts_to
from tests.utils.aws_faults import client_error, read_timeout, transaction_cancelled
from tests.utils.factories import stored_pin

PHONE = "+14155550123"
BUSY = {"detail": "Service temporarily unavailable, try again later."}


# --- POST /auth ---------------------------------------------------------------------------


def test_auth_texts_a_six_digit_pin_to_the_normalised_number(client):
    response = post_json(client, "/auth", {"phone_number": "+1 (415) 555-0123"})
    assert response.status_code == 204
    assert response.body == b""
    [text] = texts_to(PHONE)
    assert text == f"Your Invites pin is {last_pin(PHONE)}. It expires in 15 minutes. Don't share it."


def test_pin_is_stored_only_as_hmac(client):
    post_json(client, "/auth", {"phone_number": PHONE})
    pin = last_pin(PHONE)
    stored = stored_pin(PHONE)
    assert stored is not None and stored.attempts == 0
    assert pin not in str(stored.attribute_values)
    assert 890 <= stored.expires_at.timestamp() - __import__("time").time() <= 900


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({}, "This field is required."),
        ({"phone_number": None}, "This field may not be null."),
        ({"phone_number": 14155550123}, "Not a valid string."),
        ({"phone_number": "4155550123"}, "Enter a valid phone number."),
        ({"phone_number": "+1415555012"}, "Enter a valid phone number."),
        ({"phone_number": "+1" + "4" * 40}, "Enter a valid phone number."),
        ({"phone_number": "+1 hello"}, "Enter a valid phone number."),
    ],
)
def test_auth_bad_number_is_400_by_field_and_sends_nothing(client, payload, message):
    response = post_json(client, "/auth", payload)
    assert response.status_code == 400
    assert body(response) == {"phone_number": [message]}
    assert texts_to(PHONE) == []


def test_auth_per_number_limit_is_429_with_retry_after(client):
    for _ in range(5):
        assert post_json(client, "/auth", {"phone_number": PHONE}).status_code == 204
    response = post_json(client, "/auth", {"phone_number": PHONE})
    assert response.status_code == 429
    retry_after = int(response.headers["Retry-After"])
    assert 1 <= retry_after <= 15 * 60 + 1
    assert body(response) == {"detail": f"Request was throttled. Expected available in {retry_after} seconds."}
    assert len(texts_to(PHONE)) == 5


def test_someone_else_holds_a_numbers_login_back_for_15_minutes_at_most(client, monkeypatch):
    import time

    # GIVEN a stranger asked for the victim's pin five times and spent every try of the last one
    start = time.time()
    for _ in range(5):
        assert post_json(client, "/auth", {"phone_number": PHONE}).status_code == 204
    for _ in range(5):
        post_json(client, "/auth/verify_pin", {"phone_number": PHONE, "pin": "000000"})
    assert post_json(client, "/auth", {"phone_number": PHONE}).status_code == 429
    # WHEN the victim asks 15 minutes later
    monkeypatch.setattr(time, "time", lambda: start + 15 * 60 + 1)
    response = post_json(client, "/auth", {"phone_number": PHONE})
    # THEN a new pin comes, and it logs them in
    assert response.status_code == 204
    verified = post_json(client, "/auth/verify_pin", {"phone_number": PHONE, "pin": last_pin(PHONE)})
    assert verified.status_code == 200


def test_no_burst_of_pins_across_the_edge_of_a_quarter_hour(client, monkeypatch):
    import time

    # 5 pins at 07:29:57 and 5 at 07:30:01 were 10 pins in 4 seconds: the window was fixed to the clock
    edge = (time.time() // 900 + 1) * 900
    monkeypatch.setattr(time, "time", lambda: edge - 3)
    for _ in range(5):
        assert post_json(client, "/auth", {"phone_number": PHONE}).status_code == 204
    monkeypatch.setattr(time, "time", lambda: edge + 1)
    response = post_json(client, "/auth", {"phone_number": PHONE})
    assert response.status_code == 429
    assert int(response.headers["Retry-After"]) == 15 * 60 - 4 + 1  # when the first of the five leaves
    monkeypatch.setattr(time, "time", lambda: edge - 3 + 15 * 60 - 1)
    assert post_json(client, "/auth", {"phone_number": PHONE}).status_code == 429
    monkeypatch.setattr(time, "time", lambda: edge - 3 + 15 * 60 + 1)
    assert post_json(client, "/auth", {"phone_number": PHONE}).status_code == 204
    assert len(texts_to(PHONE)) == 6


def test_parallel_pin_requests_never_pass_five(aws):
    from chalicelib.errors import Throttled
    from chalicelib.services.identity import auth
    from tests.utils.races import race

    outcomes = race(lambda n: auth.request_pin(PHONE, f"198.51.100.{n}"), 12, refused=Throttled)
    assert outcomes.count("ok") == 5
    assert len(texts_to(PHONE)) == 5


@pytest.mark.parametrize(
    "number",
    [
        "+19005551234",  # US premium rate
        "+18005551234",  # US toll free
        "+15005550006",  # US personal number
        "+448701234567",  # GB premium rate
        "+447640123456",  # GB pager
        "+447012345678",  # GB personal number
        "+442079460000",  # GB fixed line
    ],
)
def test_auth_refuses_numbers_that_cannot_take_a_text(client, number):
    response = post_json(client, "/auth", {"phone_number": number})
    assert response.status_code == 400
    assert body(response) == {"phone_number": ["Enter a valid mobile phone number."]}
    assert texts_to(number) == []


def test_texts_can_be_restricted_to_some_countries(client, override_settings):
    override_settings(sms_countries="US, ca")
    france, canada = "+33612345678", "+16135550123"
    response = post_json(client, "/auth", {"phone_number": france})
    assert response.status_code == 400
    assert body(response) == {"phone_number": ["Enter a valid mobile phone number."]}
    assert post_json(client, "/auth", {"phone_number": canada}).status_code == 204
    assert texts_to(france) == [] and len(texts_to(canada)) == 1


def test_auth_per_ip_limit_is_429(client, override_settings):
    override_settings(auth_sms_per_ip_per_hour=3)
    numbers = [f"+1415555014{i}" for i in range(4)]
    statuses = [post_json(client, "/auth", {"phone_number": n}).status_code for n in numbers]
    assert statuses == [204, 204, 204, 429]
    assert texts_to(numbers[3]) == []


def test_auth_per_ip_limit_counts_an_ipv6_caller_per_64(client, override_settings, monkeypatch):
    override_settings(auth_sms_per_ip_per_hour=2)
    numbers = [f"+1415555015{i}" for i in range(4)]
    statuses = []
    for address, number in zip(["2001:db8:7:1::1", "2001:db8:7:1::2", "2001:db8:7:1:ffff::3"], numbers, strict=False):
        call_from(monkeypatch, address)
        statuses.append(post_json(client, "/auth", {"phone_number": number}).status_code)
    assert statuses == [204, 204, 429]
    call_from(monkeypatch, "2001:db8:7:2::1")  # the next /64
    assert post_json(client, "/auth", {"phone_number": numbers[3]}).status_code == 204


def test_sns_down_on_auth_is_503_and_nothing_is_kept(client, fail_aws):
    # GIVEN SNS throttles every publish
    fail_aws("sns", "Publish", "Throttling")
    # WHEN a pin is asked for
    response = post_json(client, "/auth", {"phone_number": PHONE})
    # THEN 503 with Retry-After, no pin stored, and the failed try did not use up the hourly limit
    assert response.status_code == 503
    assert int(response.headers["Retry-After"]) > 0
    assert "detail" in body(response)
    assert stored_pin(PHONE) is None


def test_failed_sends_do_not_count_against_the_limit(client, monkeypatch):
    from chalicelib.messaging import sms_sender as notify

    real_send = notify.send_sms
    calls = {"n": 0}

    def flaky(phone, text, **options):
        calls["n"] += 1
        if calls["n"] <= 5:
            from botocore.exceptions import ClientError

            raise ClientError({"Error": {"Code": "ServiceUnavailable"}}, "Publish")
        real_send(phone, text, **options)

    monkeypatch.setattr(notify, "send_sms", flaky)
    assert [post_json(client, "/auth", {"phone_number": PHONE}).status_code for _ in range(5)] == [503] * 5
    assert post_json(client, "/auth", {"phone_number": PHONE}).status_code == 204


def test_dynamodb_throttling_on_auth_is_503(client, fail_aws):
    fail_aws("dynamodb", "TransactWriteItems", "ProvisionedThroughputExceededException")
    response = post_json(client, "/auth", {"phone_number": PHONE})
    assert response.status_code == 503
    assert "Retry-After" in response.headers
    assert texts_to(PHONE) == []


def test_transaction_conflict_on_auth_is_503_and_sends_nothing(client, break_aws):
    # Two parallel POST /auth for one number conflict on the counter item: DynamoDB cancels one
    break_aws("TransactWriteItems", lambda op: transaction_cancelled(op, ["None", "TransactionConflict", "None"]))
    response = post_json(client, "/auth", {"phone_number": PHONE})
    assert response.status_code == 503 and "Retry-After" in response.headers
    assert texts_to(PHONE) == [] and stored_pin(PHONE) is None


def test_sns_refusing_a_number_logs_no_number(client, break_aws, caplog):
    message = f"Invalid parameter: PhoneNumber Reason: {PHONE} is not valid to publish to"
    break_aws("Publish", lambda op: client_error(op, "InvalidParameter", message))
    with caplog.at_level(logging.WARNING):
        response = post_json(client, "/auth", {"phone_number": PHONE})
    assert response.status_code == 500 and body(response) == {"detail": "Internal server error."}
    assert "InvalidParameter" in caplog.text
    assert PHONE[2:] not in caplog.text
    assert stored_pin(PHONE) is None


# --- POST /auth/verify_pin ----------------------------------------------------------------


def test_first_login_creates_an_active_user_with_every_flag_on(client):
    user = login(client, PHONE)
    assert user["phone_number"] == PHONE and user["is_active"] is True
    assert user["full_name"] == "" and user["email"] == ""
    assert user["photo"] is None and user["big_photo"] is None
    flags = [k for k in user if k.startswith("notify_")]
    assert flags and all(user[k] is True for k in flags)
    assert 0 < user["id"] <= 2**53 - 1
    assert user["auth_token"]


def test_token_is_stored_only_as_a_hash(client):
    user = login(client, PHONE)
    stored = list(Token.query(user_pk(user["id"]), Token.sk.startswith("TOKEN#")))
    assert len(stored) == 1
    assert user["auth_token"] not in str(stored[0].attribute_values) + stored[0].sk


def test_each_login_is_the_same_user_with_its_own_token(client):
    first, second = login(client, PHONE), login(client, PHONE)
    assert first["id"] == second["id"]
    assert first["auth_token"] != second["auth_token"]
    assert get(client, "/users/me", first["auth_token"]).status_code == 200
    assert get(client, "/users/me", second["auth_token"]).status_code == 200


def test_login_activates_a_user_who_was_only_an_invitee(client):
    from chalicelib.services.identity.users import find_or_create_user

    invitee, _ = find_or_create_user(PHONE, active=False)
    assert invitee.is_active is False
    user = login(client, PHONE)
    assert user["id"] == invitee.id and user["is_active"] is True


def test_wrong_pin_is_400(client):
    post_json(client, "/auth", {"phone_number": PHONE})
    wrong = "000000" if last_pin(PHONE) != "000000" else "111111"
    response = post_json(client, "/auth/verify_pin", {"phone_number": PHONE, "pin": wrong})
    assert response.status_code == 400
    assert body(response) == {"pin": ["Invalid pin."]}


def test_pin_is_single_use(client):
    post_json(client, "/auth", {"phone_number": PHONE})
    pin = last_pin(PHONE)
    assert post_json(client, "/auth/verify_pin", {"phone_number": PHONE, "pin": pin}).status_code == 200
    again = post_json(client, "/auth/verify_pin", {"phone_number": PHONE, "pin": pin})
    assert again.status_code == 400 and body(again) == {"pin": ["Invalid pin."]}


def test_new_pin_replaces_the_previous_one(client):
    post_json(client, "/auth", {"phone_number": PHONE})
    old = last_pin(PHONE)
    post_json(client, "/auth", {"phone_number": PHONE})
    new = last_pin(PHONE)
    if old != new:
        assert post_json(client, "/auth/verify_pin", {"phone_number": PHONE, "pin": old}).status_code == 400
    assert post_json(client, "/auth/verify_pin", {"phone_number": PHONE, "pin": new}).status_code == 200


def test_verify_tries_are_limited_per_caller_address_and_ipv6_per_64(client, override_settings, monkeypatch):
    override_settings(auth_verify_per_ip_per_hour=3)
    post_json(client, "/auth", {"phone_number": PHONE})
    wrong = {"phone_number": PHONE, "pin": "999999" if last_pin(PHONE) != "999999" else "999998"}
    call_from(monkeypatch, "2001:db8:5:5::1")
    assert [post_json(client, "/auth/verify_pin", wrong).status_code for _ in range(3)] == [400] * 3
    # another address of the same /64: the limit is spent, and a throttled try costs the pin nothing
    call_from(monkeypatch, "2001:db8:5:5:abcd::9")
    response = post_json(client, "/auth/verify_pin", {"phone_number": PHONE, "pin": last_pin(PHONE)})
    assert response.status_code == 429
    retry_after = int(response.headers["Retry-After"])
    assert 1 <= retry_after <= 3601
    assert body(response) == {"detail": f"Request was throttled. Expected available in {retry_after} seconds."}
    assert stored_pin(PHONE).attempts == 3
    call_from(monkeypatch, "203.0.113.77")
    assert post_json(client, "/auth/verify_pin", {"phone_number": PHONE, "pin": last_pin(PHONE)}).status_code == 200


def test_pin_is_void_after_five_wrong_tries(client):
    post_json(client, "/auth", {"phone_number": PHONE})
    pin = last_pin(PHONE)
    wrong = "000000" if pin != "000000" else "111111"
    for _ in range(5):
        assert post_json(client, "/auth/verify_pin", {"phone_number": PHONE, "pin": wrong}).status_code == 400
    response = post_json(client, "/auth/verify_pin", {"phone_number": PHONE, "pin": pin})
    assert response.status_code == 400 and body(response) == {"pin": ["Invalid pin."]}


def test_pin_still_works_eleven_minutes_later_as_its_text_promises(client, monkeypatch):
    import time

    post_json(client, "/auth", {"phone_number": PHONE})
    pin = last_pin(PHONE)
    [text] = texts_to(PHONE)
    assert "It expires in 15 minutes." in text
    later = time.time() + 11 * 60
    monkeypatch.setattr("chalicelib.services.identity.auth.time.time", lambda: later)
    response = post_json(client, "/auth/verify_pin", {"phone_number": PHONE, "pin": pin})
    assert response.status_code == 200 and body(response)["auth_token"]


def test_expired_pin_is_400(client, monkeypatch):
    import time

    post_json(client, "/auth", {"phone_number": PHONE})
    pin = last_pin(PHONE)
    later = time.time() + 15 * 60 + 1
    monkeypatch.setattr("chalicelib.services.identity.auth.time.time", lambda: later)
    response = post_json(client, "/auth/verify_pin", {"phone_number": PHONE, "pin": pin})
    assert response.status_code == 400 and body(response) == {"pin": ["Invalid pin."]}


def test_verify_for_a_number_never_asked_is_400(client):
    response = post_json(client, "/auth/verify_pin", {"phone_number": PHONE, "pin": "123456"})
    assert response.status_code == 400 and body(response) == {"pin": ["Invalid pin."]}


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ({}, {"phone_number": ["This field is required."], "pin": ["This field is required."]}),
        ({"phone_number": PHONE, "pin": 123456}, {"pin": ["Not a valid string."]}),
        ({"phone_number": PHONE, "pin": "1" * 33}, {"pin": ["Ensure this field has no more than 32 characters."]}),
        ({"phone_number": "nope", "pin": "123456"}, {"phone_number": ["Enter a valid phone number."]}),
    ],
)
def test_verify_bad_input_is_400_by_field(client, payload, expected):
    response = post_json(client, "/auth/verify_pin", payload)
    assert response.status_code == 400
    assert body(response) == expected


def test_dynamodb_read_timeout_while_spending_a_pin_try_is_503(client, break_aws):
    post_json(client, "/auth", {"phone_number": PHONE})
    pin = last_pin(PHONE)
    break_aws("UpdateItem", read_timeout)
    response = post_json(client, "/auth/verify_pin", {"phone_number": PHONE, "pin": pin})
    assert response.status_code == 503 and "Retry-After" in response.headers
    assert body(response) == BUSY


# --- POST /auth/register ------------------------------------------------------------------


def test_register_completes_the_profile_and_returns_the_callers_token(client):
    token = login(client, PHONE)["auth_token"]
    response = post_json(client, "/auth/register", {"full_name": "Ann Smith", "email": "ann@example.com"}, token)
    assert response.status_code == 200
    user = body(response)
    assert user["full_name"] == "Ann Smith" and user["email"] == "ann@example.com"
    assert user["auth_token"] == token
    assert body(get(client, "/users/me", token))["full_name"] == "Ann Smith"


def test_register_ignores_unknown_fields(client):
    user = login(client, PHONE)
    payload = {
        "full_name": "Ann",
        "email": "ann@example.com",
        "is_active": False,
        "id": 1,
        "phone_number": "+14155559999",
        "fb_token": "x",
        "photo_key": "evil",
    }
    assert post_json(client, "/auth/register", payload, user["auth_token"]).status_code == 200
    stored = User.get(user_pk(user["id"]), "PROFILE")
    assert stored.is_active is True and stored.phone_number == PHONE
    assert stored.fb_token is None and stored.photo_key is None


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ({}, {"full_name": ["This field is required."], "email": ["This field is required."]}),
        ({"full_name": "A", "email": "a@example.com"}, {"full_name": ["Ensure this field has at least 2 characters."]}),
        (
            {"full_name": "A" * 257, "email": "a@example.com"},
            {"full_name": ["Ensure this field has no more than 256 characters."]},
        ),
        ({"full_name": ["Ann"], "email": "a@example.com"}, {"full_name": ["Not a valid string."]}),
        ({"full_name": "Ann", "email": "not-an-address"}, {"email": ["Enter a valid email address."]}),
        (
            {"full_name": "Ann", "email": "a" * 245 + "@example.com"},
            {"email": ["Ensure this field has no more than 256 characters."]},
        ),
        ({"full_name": "Ann", "email": 7}, {"email": ["Not a valid string."]}),
    ],
)
def test_register_bad_input_is_400_by_field_and_nothing_stored(client, payload, expected):
    user = login(client, PHONE)
    response = post_json(client, "/auth/register", payload, user["auth_token"])
    assert response.status_code == 400
    assert body(response) == expected
    stored = User.get(user_pk(user["id"]), "PROFILE")
    assert stored.full_name == "" and stored.email == ""


def test_register_needs_a_token(client):
    response = post_json(client, "/auth/register", {"full_name": "Ann", "email": "a@example.com"})
    assert response.status_code == 401


# --- POST /auth/logout --------------------------------------------------------------------


def test_logout_revokes_only_the_token_used(client):
    phone_token, tablet_token = login(client, PHONE)["auth_token"], login(client, PHONE)["auth_token"]
    response = client.http.post("/auth/logout", headers={"Authorization": f"Bearer {phone_token}"})
    assert response.status_code == 204
    assert get(client, "/users/me", phone_token).status_code == 401
    assert get(client, "/users/me", tablet_token).status_code == 200


def test_expired_token_is_401(client, monkeypatch):
    from datetime import timedelta

    from chalicelib.timeutil import utcnow

    token = login(client, PHONE)["auth_token"]
    later = utcnow() + timedelta(days=366)
    monkeypatch.setattr("chalicelib.services.identity.tokens.utcnow", lambda: later)
    response = get(client, "/users/me", token)
    assert response.status_code == 401 and body(response) == {"detail": "Invalid token."}


def test_authentication_costs_one_dynamodb_call(client, aws):
    token = login(client, PHONE)["auth_token"]
    aws.reset()
    assert get(client, "/users/me", token).status_code == 200
    assert aws.of("dynamodb") == {"BatchGetItem": 1}


def test_dynamodb_read_timeout_on_authentication_is_503(client, break_aws):
    # PynamoDB's cause_response_code raised AttributeError inside is_transient: Chalice's own 500 body
    token = login(client, PHONE)["auth_token"]
    break_aws("BatchGetItem", read_timeout)
    response = get(client, "/users/me", token)
    assert response.status_code == 503
    assert body(response) == BUSY and int(response.headers["Retry-After"]) > 0
