"""Review findings in auth, routing, AWS fault mapping, notify and avatars: each test failed before its fix."""

from __future__ import annotations

import logging

import pytest
from botocore.client import BaseClient
from botocore.exceptions import ClientError, ReadTimeoutError

from chalicelib.models.auth import Pin, pin_pk
from chalicelib.models.users import User, user_pk
from tests.api.test_avatars import _jpeg, _objects, _upload
from tests.utils.api import body, get, last_pin, login, post_json, texts_to

PHONE = "+14155550161"
BUSY = {"detail": "Service temporarily unavailable, try again later."}


@pytest.fixture
def break_aws(monkeypatch):
    """``break_aws("UpdateItem", exc_factory)``: that botocore operation raises what the factory makes."""
    failing = {}
    original = BaseClient._make_api_call

    def patched(self, operation_name, api_params):
        make = failing.get(operation_name)
        if make is not None:
            raise make(operation_name)
        return original(self, operation_name, api_params)

    monkeypatch.setattr(BaseClient, "_make_api_call", patched)
    return failing.__setitem__


def _read_timeout(operation_name):
    return ReadTimeoutError(endpoint_url="https://dynamodb.us-east-1.amazonaws.com/")


def _pin_item(phone):
    try:
        return Pin.get(pin_pk(phone), consistent_read=True)
    except Pin.DoesNotExist:
        return None


# --- AWS faults: a read timeout wrapped by PynamoDB, a cancelled transaction ----------------


def test_dynamodb_read_timeout_on_authentication_is_503(client, break_aws):
    # PynamoDB's cause_response_code raised AttributeError inside is_transient: Chalice's own 500 body
    token = login(client, PHONE)["auth_token"]
    break_aws("BatchGetItem", _read_timeout)
    response = get(client, "/users/me", token)
    assert response.status_code == 503
    assert body(response) == BUSY and int(response.headers["Retry-After"]) > 0


def test_dynamodb_read_timeout_while_spending_a_pin_try_is_503(client, break_aws):
    post_json(client, "/auth", {"phone_number": PHONE})
    pin = last_pin(PHONE)
    break_aws("UpdateItem", _read_timeout)
    response = post_json(client, "/auth/verify_pin", {"phone_number": PHONE, "pin": pin})
    assert response.status_code == 503 and "Retry-After" in response.headers
    assert body(response) == BUSY


def test_dynamodb_read_timeout_on_a_rate_counter_is_503(client, break_aws):
    token = login(client, PHONE)["auth_token"]
    break_aws("TransactWriteItems", _read_timeout)
    response = post_json(client, "/users/from_phone_numbers", {"phone_numbers": [PHONE]}, token)
    assert response.status_code == 503 and body(response) == BUSY


def test_transaction_conflict_on_auth_is_503_and_sends_nothing(client, break_aws):
    # Two parallel POST /auth for one number conflict on the counter item: DynamoDB cancels one
    def conflict(operation_name):
        return ClientError(
            {
                "Error": {"Code": "TransactionCanceledException", "Message": "cancelled [None, TransactionConflict]"},
                "CancellationReasons": [{"Code": "None"}, {"Code": "TransactionConflict"}, {"Code": "None"}],
                "ResponseMetadata": {"HTTPStatusCode": 400},
            },
            operation_name,
        )

    break_aws("TransactWriteItems", conflict)
    response = post_json(client, "/auth", {"phone_number": PHONE})
    assert response.status_code == 503 and "Retry-After" in response.headers
    assert texts_to(PHONE) == [] and _pin_item(PHONE) is None


# --- tokens and bodies -----------------------------------------------------------------------


@pytest.mark.parametrize("token", ["\u00b2.secret", "1\u00b9.secret"])
def test_token_with_a_non_ascii_digit_id_is_401(client, token):
    response = get(client, "/users/me", token)
    assert response.status_code == 401
    assert body(response) == {"detail": "Invalid token."}
    assert response.headers["WWW-Authenticate"] == "Bearer"


def test_json_nested_too_deep_is_400_parse_error(client):
    response = client.http.post("/auth", body=b"[" * 100_000, headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert body(response)["detail"].startswith("JSON parse error - ")


# --- secrets out of logs -----------------------------------------------------------------------


# The test client sets STAGE=local around each request (.chalice/config.json), so these two call the
# services directly, as a deployed stage would run them.


def test_sms_echo_is_for_local_runs_only(aws, override_settings, capsys):
    # ECHO_NOTIFICATIONS set on a deployed stage printed every pin and whole number to its logs
    from chalicelib import notify

    override_settings(echo_notifications="true", stage="dev")
    notify.send_sms(PHONE, "Your Invites pin is 123456.")
    assert "123456" not in capsys.readouterr().out
    override_settings(stage="local")
    notify.send_sms(PHONE, "Your Invites pin is 654321.")
    assert "654321" in capsys.readouterr().out
    assert len(texts_to(PHONE)) == 2


def test_default_pin_key_is_refused_on_a_deployed_stage(aws, override_settings, monkeypatch):
    # the development key is public: HMACs under it are as good as pins stored in clear
    from chalicelib.errors import ServiceUnavailable
    from chalicelib.services import auth

    monkeypatch.delenv("PIN_SECRET")
    override_settings(stage="prod")
    with pytest.raises(ServiceUnavailable):
        auth.request_pin(PHONE, "203.0.113.9")
    assert texts_to(PHONE) == [] and _pin_item(PHONE) is None
    # a deployed stage never takes the key from the environment (tests/test_pinkey.py: only from SSM)
    override_settings(pin_secret="a-real-server-key-from-the-environment-0000")
    with pytest.raises(ServiceUnavailable):
        auth.request_pin(PHONE, "203.0.113.9")
    assert texts_to(PHONE) == []


def test_sns_refusing_a_number_logs_no_number(client, break_aws, caplog):
    def refused(operation_name):
        message = f"Invalid parameter: PhoneNumber Reason: {PHONE} is not valid to publish to"
        return ClientError(
            {"Error": {"Code": "InvalidParameter", "Message": message}, "ResponseMetadata": {"HTTPStatusCode": 400}},
            operation_name,
        )

    break_aws("Publish", refused)
    with caplog.at_level(logging.WARNING):
        response = post_json(client, "/auth", {"phone_number": PHONE})
    assert response.status_code == 500 and body(response) == {"detail": "Internal server error."}
    assert "InvalidParameter" in caplog.text
    assert PHONE[2:] not in caplog.text
    assert _pin_item(PHONE) is None


# --- remove_avatar: the objects really go, or 503 -----------------------------------------------


def _remove(client, token):
    return client.http.post("/users/remove_avatar", headers={"Authorization": f"Bearer {token}"})


def test_remove_avatar_with_s3_down_is_503_and_keeps_the_profile(client, fail_aws):
    # it answered 200 and cleared the profile, leaving both objects public with nothing pointing at them
    user = login(client, PHONE)
    _upload(client, user["auth_token"], _jpeg(400, 300))
    stored = _objects()
    fail_aws("s3", "DeleteObjects", "SlowDown")
    response = _remove(client, user["auth_token"])
    assert response.status_code == 503 and "Retry-After" in response.headers
    assert _objects() == stored
    assert User.get(user_pk(user["id"]), "PROFILE").photo_key is not None


def test_remove_avatar_with_objects_s3_would_not_delete_is_503_and_a_retry_finishes(client, monkeypatch):
    from chalicelib import aws

    user = login(client, PHONE)
    _upload(client, user["auth_token"], _jpeg(400, 300))
    real_s3 = aws.s3()

    class Partial:
        def delete_objects(self, Bucket, Delete):  # noqa: N803 - boto3's names
            return {"Errors": [{"Key": Delete["Objects"][0]["Key"], "Code": "InternalError", "Message": "x"}]}

    monkeypatch.setattr(aws, "s3", lambda: Partial())
    assert _remove(client, user["auth_token"]).status_code == 503
    assert User.get(user_pk(user["id"]), "PROFILE").photo_key is not None
    monkeypatch.setattr(aws, "s3", lambda: real_s3)
    response = _remove(client, user["auth_token"])
    assert response.status_code == 200 and body(response)["photo"] is None
    assert _objects() == []
