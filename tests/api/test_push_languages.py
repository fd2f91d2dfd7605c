"""Pushes in the language a device registered: ``language`` on add_ios_device and add_android_device (validated
against the catalogues, stored with the device), and every push to it carries it: for iOS the APNs alert's
``loc-key`` and ``loc-args`` as Apple documents, with the title and the body rendered in that language; for
Android a rendered body. A device registered without one gets exactly what it always got."""

from __future__ import annotations

import json

import pytest

from chalicelib.languages import dates
from chalicelib.languages.catalogues import available, words
from chalicelib.messaging import push_sender
from chalicelib.models.users import Device, user_pk
from tests.utils.api import body, post_json
from tests.utils.factories import make_event, make_person, put
from tests.utils.notifications import endpoints, pushes, raw_pushes, run_queue

TOKEN = "d4" * 32
FCM_TOKEN = "fcm-token:" + "x" * 40


def _devices(user_id: int) -> list[Device]:
    return list(Device.query(user_pk(user_id), Device.sk.startswith("DEVICE#")))


def _register(client, person, language, route: str = "add_ios_device", token: str = TOKEN):
    field = "token" if route == "add_ios_device" else "device_token"
    payload = {field: token} if language is None else {field: token, "language": language}
    return post_json(client, f"/notifications/{route}", payload, person.token)


@pytest.mark.parametrize("route", ["add_ios_device", "add_android_device"])
@pytest.mark.parametrize(("asked", "stored"), [("es", "es"), ("pt_br", "pt-BR"), ("AR", "ar"), ("en", "en")])
def test_a_device_registers_the_language_of_its_pushes(client, route, asked, stored):
    bob = make_person("Bob")
    token = TOKEN if route == "add_ios_device" else FCM_TOKEN

    assert _register(client, bob, asked, route, token).status_code == 204

    [device] = _devices(bob.id)
    assert device.language == stored


@pytest.mark.parametrize("route", ["add_ios_device", "add_android_device"])
@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("xx", f"Choose one of: {', '.join(available())}."),
        ("pt", f"Choose one of: {', '.join(available())}."),
        ("", f"Choose one of: {', '.join(available())}."),
        (12, "Not a valid string."),
        ("e" * 17, "Ensure this field has no more than 16 characters."),
    ],
)
def test_an_unknown_language_is_400_keyed_by_the_field_and_nothing_is_registered(client, route, language, message):
    bob = make_person("Bob")
    token = TOKEN if route == "add_ios_device" else FCM_TOKEN

    response = _register(client, bob, language, route, token)

    assert response.status_code == 400
    assert body(response) == {"language": [message]}
    assert _devices(bob.id) == [] and endpoints() == {}


def test_registering_again_with_another_language_changes_it_and_keeps_one_endpoint(client):
    bob = make_person("Bob")
    _register(client, bob, "es")

    assert _register(client, bob, "fr").status_code == 204
    assert [device.language for device in _devices(bob.id)] == ["fr"]
    assert _register(client, bob, None).status_code == 204  # an app that sends none: its pushes in English again
    assert [device.language for device in _devices(bob.id)] == [None]
    assert len(endpoints()) == 1


def _cancelled_push(client, queue, language: str | None, route: str = "add_ios_device") -> tuple[dict, object]:
    alice, bob = make_person("Alice Martín"), make_person("Bob")
    token = TOKEN if route == "add_ios_device" else FCM_TOKEN
    assert _register(client, bob, language, route, token).status_code == 204
    event = make_event(alice, bob, title="Cena")
    run_queue(client, queue)
    assert put(client, f"/events/{event.id}/cancel_event", alice.token).status_code == 204
    run_queue(client, queue)
    [device] = _devices(bob.id)
    *_invited, raw = raw_pushes(device.endpoint_arn)  # the invitation, then the cancellation
    return raw, event


@pytest.mark.parametrize("language", available())
def test_a_push_is_in_the_devices_language_with_apples_loc_key_and_loc_args(client, queue, language):
    raw, event = _cancelled_push(client, queue, language)

    said = words(language)
    rendered = said._("{name} cancelled the event.", name="Alice Martín")
    apns = json.loads(raw["APNS"])
    assert apns == {
        "aps": {
            "alert": {
                "title": "Cena",
                "body": rendered,
                "loc-key": "push.event_cancelled",
                "loc-args": ["Alice Martín"],
            },
            "sound": "default",
        },
        "type": "event_cancelled",
        "event_id": event.id,
        "language": language,
    }
    assert json.loads(raw["APNS_SANDBOX"]) == apns
    android = json.loads(raw["GCM"])["fcmV1Message"]["message"]
    assert android["notification"] == {"title": "Cena", "body": rendered}
    assert android["data"]["language"] == language
    if language != "en":
        assert rendered != "Alice Martín cancelled the event."


def test_an_android_device_gets_the_body_in_its_language(client, queue):
    raw, _event = _cancelled_push(client, queue, "de", "add_android_device")

    android = json.loads(raw["GCM"])["fcmV1Message"]["message"]
    assert android["notification"]["body"] == "Alice Martín hat die Veranstaltung abgesagt."


def test_a_device_without_a_language_gets_the_english_push_it_always_got(client, queue):
    raw, event = _cancelled_push(client, queue, None)

    assert json.loads(raw["APNS"]) == {
        "aps": {"alert": {"title": "Cena", "body": "Alice Martín cancelled the event."}, "sound": "default"},
        "type": "event_cancelled",
        "event_id": event.id,
    }


@pytest.mark.parametrize("language", ["es", "he", "ar"])
def test_an_invitation_push_says_the_date_in_the_languages_forms(client, queue, language):
    alice, bob = make_person("Alice"), make_person("Bob")
    _register(client, bob, language)
    event = make_event(alice, bob, title="Cena")

    run_queue(client, queue)

    [device] = _devices(bob.id)
    [push] = pushes(device.endpoint_arn)
    alert = push["aps"]["alert"]
    when = dates.short_when(event, words(language).language)
    assert alert["body"] == words(language)._("{name} invited you: {when}.", name="Alice", when=when)
    assert alert["loc-key"] == "push.new_invite" and alert["loc-args"] == ["Alice", when]


def test_long_loc_args_are_cut_so_the_payload_keeps_within_apns_limit():
    name, message = "𝒜" * 256, "💬" * 1000
    loc = push_sender.localized("push.announcement", [name, message])
    payload = push_sender.push_payload("🎉" * 200, f"{name}: {message}", {"type": "announcement"}, loc)

    assert len(json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()) <= push_sender.APNS_MAX_BYTES
    args = payload["aps"]["alert"]["loc-args"]
    assert [len(arg) for arg in args] == [push_sender.MAX_LOC_ARG] * 2 and args[0].startswith("𝒜" * 99)
