"""POST /notifications/add_ios_device and remove_ios_device."""

from __future__ import annotations

import pytest
from moto.sns.models import sns_backends

from chalicelib.models.users import Device, user_pk
from tests.utils.api import ACCOUNT, REGION, body, login, post_json

DEVICE = "a1" * 32


def _endpoints() -> dict:
    return sns_backends[ACCOUNT][REGION].platform_endpoints


def _devices(user_id: int) -> list:
    return list(Device.query(user_pk(user_id), Device.sk.startswith("DEVICE#")))


def test_add_device_makes_one_platform_endpoint_and_is_idempotent(client):
    user = login(client, "+14155550201")
    for _ in range(2):
        response = post_json(client, "/notifications/add_ios_device", {"token": DEVICE}, user["auth_token"])
        assert response.status_code == 204
    [device] = _devices(user["id"])
    assert device.endpoint_arn in _endpoints()
    assert _endpoints()[device.endpoint_arn].token == DEVICE
    assert len(_endpoints()) == 1


def test_remove_device_deletes_the_endpoint_and_is_idempotent(client):
    user = login(client, "+14155550202")
    post_json(client, "/notifications/add_ios_device", {"token": DEVICE.upper()}, user["auth_token"])
    for _ in range(2):
        response = post_json(client, "/notifications/remove_ios_device", {"token": DEVICE}, user["auth_token"])
        assert response.status_code == 204
    assert _devices(user["id"]) == []
    assert _endpoints() == {}


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({}, "This field is required."),
        ({"token": 12}, "Not a valid string."),
        ({"token": "a1" * 31}, "Enter a valid iOS device token: 64 hexadecimal characters."),
        ({"token": "a1" * 33}, "Enter a valid iOS device token: 64 hexadecimal characters."),
        ({"token": "zz" * 32}, "Enter a valid iOS device token: 64 hexadecimal characters."),
    ],
)
def test_bad_device_token_is_400_and_nothing_registered(client, payload, message):
    user = login(client, "+14155550203")
    response = post_json(client, "/notifications/add_ios_device", payload, user["auth_token"])
    assert response.status_code == 400
    assert body(response) == {"token": [message]}
    assert _devices(user["id"]) == [] and _endpoints() == {}


def test_device_routes_need_a_token(client):
    assert post_json(client, "/notifications/add_ios_device", {"token": DEVICE}).status_code == 401
    assert post_json(client, "/notifications/remove_ios_device", {"token": DEVICE}).status_code == 401


def test_sns_down_on_add_device_is_503_and_nothing_stored(client, fail_aws):
    user = login(client, "+14155550204")
    fail_aws("sns", "CreatePlatformEndpoint", "InternalError")
    response = post_json(client, "/notifications/add_ios_device", {"token": DEVICE}, user["auth_token"])
    assert response.status_code == 503 and "Retry-After" in response.headers
    assert _devices(user["id"]) == []


def test_a_phone_that_changes_hands_stops_getting_the_last_owners_pushes(client):
    # GIVEN Ann registered her phone
    ann = login(client, "+14155550211")
    post_json(client, "/notifications/add_ios_device", {"token": DEVICE}, ann["auth_token"])
    # WHEN Bob logs in on that phone and registers it
    bob = login(client, "+14155550212")
    response = post_json(client, "/notifications/add_ios_device", {"token": DEVICE}, bob["auth_token"])
    # THEN the device is Bob's alone: Ann's pushes no longer reach it
    assert response.status_code == 204
    assert _devices(ann["id"]) == []
    [device] = _devices(bob["id"])
    assert _endpoints()[device.endpoint_arn].token == DEVICE and len(_endpoints()) == 1
    # and when Ann takes it back, it is hers again
    post_json(client, "/notifications/add_ios_device", {"token": DEVICE}, ann["auth_token"])
    assert _devices(bob["id"]) == [] and len(_devices(ann["id"])) == 1


def test_removing_a_device_frees_it(client):
    from chalicelib.models.users import DeviceOwner

    user = login(client, "+14155550213")
    post_json(client, "/notifications/add_ios_device", {"token": DEVICE}, user["auth_token"])
    post_json(client, "/notifications/remove_ios_device", {"token": DEVICE}, user["auth_token"])
    assert list(DeviceOwner.query(f"DEVICE#{DEVICE}")) == []
