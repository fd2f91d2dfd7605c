"""The stop list's key is its own: rotating the pin key leaves every number on the list."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from chalicelib import pinkey
from chalicelib.services.texts import stop_list
from tests.utils.api import login, post_json, texts_to
from tests.utils.pin_key import KEY, STOP_LIST_PARAMETER, put_pin_key, put_stop_list_key

STOPPED, OTHER = "+14155550501", "+14155550502"


def rotate_the_pin_key() -> None:
    put_pin_key("f" * 64)
    pinkey.forget()  # every process after the rotation reads the new key


def test_a_number_stays_stopped_after_the_pin_key_rotates(deployed_stage):
    put_pin_key(KEY)
    stop_list.stop(STOPPED, stop_list.FROM_TEXT)
    rotate_the_pin_key()
    assert stop_list.stopped([STOPPED, OTHER]) == {STOPPED}


def test_an_invitation_after_a_rotation_does_not_text_who_said_stop(client, deployed_stage):
    put_pin_key(KEY)
    stop_list.stop(STOPPED, stop_list.FROM_PAGE)
    rotate_the_pin_key()
    owner = login(client, "+14155550503", full_name="Rita Rotation")["auth_token"]
    event = {"title": "Picnic", "event_date": "2031-06-01T12:00:00Z", "invite_phone_numbers": [STOPPED, OTHER]}
    assert post_json(client, "/events", event, owner).status_code == 201
    assert texts_to(STOPPED) == [] and len(texts_to(OTHER)) == 1


def test_the_deploy_makes_the_key_once_from_the_pin_key_so_the_numbers_on_the_list_stay(deployed_stage):
    import boto3

    from chalicelib.store import stop_list as stored
    from tests.infra.scripts import load

    put_pin_key(KEY)
    ssm = boto3.client("ssm", region_name="us-east-1")
    ssm.delete_parameter(Name=STOP_LIST_PARAMETER)  # a stage deployed before the list had a key of its own
    key_then = hmac.new(KEY.encode(), b"invites stop list", hashlib.sha256).digest()
    stored.add(hmac.new(key_then, STOPPED.encode(), hashlib.sha256).hexdigest(), stop_list.FROM_TEXT)
    deploy = load("deploy")
    deploy.ensure_stop_list_key(boto3.session.Session(region_name="us-east-1"), "dev")
    pinkey.forget()
    assert stop_list.stopped([STOPPED, OTHER]) == {STOPPED}
    rotate_the_pin_key()
    deploy.ensure_stop_list_key(boto3.session.Session(region_name="us-east-1"), "dev")  # made once, kept
    assert stop_list.stopped([STOPPED, OTHER]) == {STOPPED}


def test_a_malformed_key_is_503_not_an_empty_list(deployed_stage, caplog):
    put_stop_list_key("not hex")
    pinkey.forget()
    with pytest.raises(pinkey.StopListKeyUnavailable):
        stop_list.stopped([STOPPED])
    assert "not 64 hex digits" in caplog.text
