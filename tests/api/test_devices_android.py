"""Android devices: POST /notifications/add_android_device and remove_android_device, through the FCM
platform application (SNS platform GCM); every push reaches them with the same rules as iOS devices."""

from __future__ import annotations

import json

from chalicelib.jobs import queue_handler
from tests.utils.api import body, post_json
from tests.utils.aws_env import aws_client
from tests.utils.factories import make_event, make_person, put
from tests.utils.notifications import endpoints, raw_pushes

TOKEN = "fcm-token_" + "Ab9:" * 30


def _android_endpoint(token: str) -> str:
    for arn, endpoint in endpoints().items():
        if endpoint.token == token:
            return arn
    raise AssertionError("no endpoint for the token")


def _fcm_messages(arn: str) -> list[dict]:
    return [json.loads(raw["GCM"])["fcmV1Message"]["message"] for raw in raw_pushes(arn)]


def test_an_android_device_gets_every_push_as_an_fcm_v1_message_once(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    assert post_json(client, "/notifications/add_android_device", {"device_token": TOKEN}, bob.token).status_code == 204
    arn = _android_endpoint(TOKEN)
    apps = aws_client("sns").list_platform_applications()["PlatformApplications"]
    fcm = next(app["PlatformApplicationArn"] for app in apps if "/GCM/" in app["PlatformApplicationArn"])
    assert arn in [e["EndpointArn"] for e in aws_client("sns").list_endpoints_by_platform_application(
        PlatformApplicationArn=fcm)["Endpoints"]]  # fmt: skip
    event = make_event(alice, bob, title="Board games")
    [invited] = _fcm_messages(arn)
    assert invited["notification"]["title"] == "Board games" and invited["data"]["type"] == "new_invite"
    assert invited["data"]["event_id"] == str(event.id)
    assert put(client, f"/events/{event.id}/cancel_event", alice.token).status_code == 204
    assert [m["data"]["type"] for m in _fcm_messages(arn)] == ["new_invite", "event_cancelled"]
    # delivered again: once only
    queue_handler.process({"type": "event_cancelled", "id": "x", "event_id": event.id, "actor_id": alice.id})
    assert len(_fcm_messages(arn)) == 2


def test_the_preferences_hold_for_android_and_remove_stops_pushes(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    post_json(client, "/notifications/add_android_device", {"device_token": TOKEN}, bob.token)
    arn = _android_endpoint(TOKEN)
    post_json(client, "/users/me", {"notify_new_invite": False}, bob.token, method="PATCH")
    make_event(alice, bob)
    assert _fcm_messages(arn) == []
    post_json(client, "/users/me", {"notify_new_invite": True}, bob.token, method="PATCH")
    assert (
        post_json(client, "/notifications/remove_android_device", {"device_token": TOKEN}, bob.token).status_code == 204
    )
    make_event(alice, bob)
    assert _fcm_messages(arn) == []


def test_a_bad_token_is_refused_by_field(client):
    bob = make_person("Bob")
    for bad in ({}, {"device_token": "short"}, {"device_token": "spaces are not allowed in a token"}):
        response = post_json(client, "/notifications/add_android_device", bad, bob.token)
        assert response.status_code == 400 and "device_token" in body(response)


def test_a_token_of_the_wrong_type_missing_or_too_long_is_400_and_no_endpoint_is_made(client):
    bob = make_person("Bob")
    cases = [
        ({"device_token": 12345678901234567890}, "Not a valid string."),
        ({"device_token": None}, "This field may not be null."),
        ({"device_token": ""}, "This field may not be blank."),
        ({"device_token": "A" * 4097}, "Ensure this field has no more than 4096 characters."),
    ]
    for payload, message in cases:
        response = post_json(client, "/notifications/add_android_device", payload, bob.token)
        assert (response.status_code, body(response)) == (400, {"device_token": [message]})
    assert endpoints() == {}
