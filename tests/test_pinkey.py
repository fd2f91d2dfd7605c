"""The pin key of a deployed stage comes from SSM, once per process; without a usable one, login answers 503."""

from __future__ import annotations

import logging

import boto3
import pytest

from chalicelib.api.error_responses import headers_of, status_of
from tests.utils.api import texts_to
from tests.utils.factories import stored_pin
from tests.utils.pin_key import KEY, PARAMETER, put_pin_key

PHONE = "+14155550190"


def test_the_key_is_read_from_ssm_once_and_cached(deployed_stage, aws):
    from chalicelib import pinkey

    put_pin_key(KEY)
    aws.reset()
    assert pinkey.pin_key() == KEY.encode()
    put_pin_key("f" * 64)  # a rotation reaches the next cold start, not this process
    assert pinkey.pin_key() == KEY.encode()
    assert aws.of("ssm")["GetParameter"] == 1


@pytest.mark.parametrize(
    "value",
    ["local-development-pin-secret", "<SSM SecureString /invites/dev/pin-secret>", "short-key", "CHANGEME" * 5],
)
def test_a_placeholder_or_weak_key_is_refused_with_503(deployed_stage, value, caplog):
    from chalicelib.errors import ServiceUnavailable
    from chalicelib.services.identity import auth

    put_pin_key(value)
    with caplog.at_level(logging.ERROR), pytest.raises(ServiceUnavailable):
        auth.request_pin(PHONE, "203.0.113.9")
    assert "pin key" in caplog.text and value not in caplog.text


def test_a_missing_parameter_is_503_with_a_log_line_and_no_fallback(deployed_stage, caplog):
    from chalicelib.errors import ServiceUnavailable
    from chalicelib.services.identity import auth

    with caplog.at_level(logging.ERROR), pytest.raises(ServiceUnavailable) as raised:
        auth.request_pin(PHONE, "203.0.113.9")
    assert status_of(raised.value) == 503 and "Retry-After" in headers_of(raised.value)
    assert "ParameterNotFound" in caplog.text


def test_an_unset_parameter_name_is_503(deployed_stage, override_settings, caplog):
    from chalicelib import pinkey
    from chalicelib.errors import ServiceUnavailable

    override_settings(pin_key_parameter="")
    with caplog.at_level(logging.ERROR), pytest.raises(ServiceUnavailable):
        pinkey.pin_key()
    assert "PIN_KEY_PARAMETER" in caplog.text


def test_an_unset_stage_is_not_local(aws, monkeypatch):
    from chalicelib import pinkey
    from chalicelib.config import get_settings
    from chalicelib.errors import ServiceUnavailable

    monkeypatch.delenv("STAGE")
    get_settings.cache_clear()
    try:
        assert get_settings().stage == ""
        with pytest.raises(ServiceUnavailable):  # no SSM parameter named: refused, not the development key
            pinkey.pin_key()
    finally:
        get_settings.cache_clear()


def test_verify_pin_spends_no_try_when_the_key_is_unavailable(deployed_stage, override_settings):
    from chalicelib.errors import ServiceUnavailable
    from chalicelib.models.auth import Pin, pin_pk
    from chalicelib.services.identity import auth

    put_pin_key(KEY)
    auth.request_pin(PHONE, "203.0.113.9")
    from chalicelib import pinkey

    pinkey.forget()
    boto3.client("ssm", region_name="us-east-1").delete_parameter(Name=PARAMETER)
    with pytest.raises(ServiceUnavailable):
        auth.verify_pin(PHONE, "000000", "203.0.113.5")
    assert Pin.get(pin_pk(PHONE)).attempts == 0


def test_default_pin_key_is_refused_on_a_deployed_stage(aws, override_settings, monkeypatch):
    # the development key is public: HMACs under it are as good as pins stored in clear
    from chalicelib.errors import ServiceUnavailable
    from chalicelib.services.identity import auth

    monkeypatch.delenv("PIN_SECRET")
    override_settings(stage="prod")
    with pytest.raises(ServiceUnavailable):
        auth.request_pin(PHONE, "203.0.113.9")
    assert texts_to(PHONE) == [] and stored_pin(PHONE) is None
    # a deployed stage never takes the key from the environment, only from SSM
    override_settings(pin_secret="a-real-server-key-from-the-environment-0000")
    with pytest.raises(ServiceUnavailable):
        auth.request_pin(PHONE, "203.0.113.9")
    assert texts_to(PHONE) == []
