"""Every text field refuses NUL and lone surrogates, wherever it is nested (docs/api.md).

A lone surrogate (JSON ``"\\ud800"``) has no UTF-8 form: before, DynamoDB's client failed to encode it and
the request answered 500, after spending a pin try for ``pin``."""

from __future__ import annotations

import json

import pytest

from tests.utils.api import body, get, last_pin, post_json
from tests.utils.factories import table_items


def _surrogate(field: str) -> dict:
    return {field: ["Surrogate characters are not allowed: U+D800."]}


def _null(field: str) -> dict:
    return {field: ["Null characters are not allowed."]}


@pytest.mark.parametrize("bad", ["\ud800", "ok \ud800 ok", "\x00"])
@pytest.mark.parametrize(
    ("path", "who", "payload", "field"),
    [
        ("/events", "owner", {"title": "{bad}", "event_date": "2030-06-01T12:00:00Z"}, "title"),
        ("/events", "owner", {"title": "T", "event_date": "2030-06-01T12:00:00Z", "address": "{bad}"}, "address"),
        ("/events", "owner", {"title": "T", "event_date": "2030-06-01T12:00:00Z", "venue_name": "{bad}"}, "venue_name"),
        ("/events/{event}", "owner", {"title": "{bad}"}, "title"),
        ("/events/{event}/messages", "guest", {"body": "{bad}"}, "body"),
        (
            "/events/{event}/polls",
            "guest",
            {"suggested_date": "2030-06-02T12:00:00Z", "suggested_venue": "{bad}"},
            "suggested_venue",
        ),
        (
            "/events/{event}/time_suggestions",
            "guest",
            {"suggested_time": "2030-06-01T15:00:00Z", "comment": "{bad}"},
            "comment",
        ),
        ("/events/{event}/accept", "guest", {"rsvp_message": "{bad}"}, "rsvp_message"),
        ("/users/me", "guest", {"full_name": "{bad}"}, "full_name"),
        ("/auth/register", "guest", {"full_name": "{bad}", "email": "a@example.com"}, "full_name"),
    ],
)
def test_bad_characters_in_any_text_field_are_400_and_nothing_stored(client, party, path, who, payload, field, bad):
    event_id, owner_token, guest_token = party.event_id, party.owner["auth_token"], party.guest["auth_token"]
    token = owner_token if who == "owner" else guest_token
    sent = json.loads(json.dumps(payload).replace("{bad}", json.dumps(bad)[1:-1]))
    before = table_items()
    response = post_json(client, path.format(event=event_id), sent, token)
    assert response.status_code == 400, response.body
    assert body(response) == (_null(field) if bad == "\x00" else _surrogate(field))
    assert table_items() == before


def test_nested_contact_name_is_refused_by_position(client, party):
    owner_token = party.owner["auth_token"]
    contacts = [
        {"phone_number": "+14155550611", "contact_name": "Ann"},
        {"phone_number": "+14155550612", "contact_name": "\ud800"},
    ]
    response = post_json(client, "/users/favorite_contacts", contacts, owner_token)
    assert response.status_code == 400
    assert body(response) == [{}, _surrogate("contact_name")]
    assert body(get(client, "/users/favorite_contacts", owner_token)) == []


def test_nested_phone_number_in_a_list_is_refused_by_position(client, party):
    event_id, owner_token = party.event_id, party.owner["auth_token"]
    response = post_json(client, f"/events/{event_id}", {"invite_phone_numbers": ["+14155550613\x00"]}, owner_token)
    assert response.status_code == 400
    assert body(response) == {"invite_phone_numbers": {"0": ["Null characters are not allowed."]}}


def test_surrogate_pin_is_400_and_spends_no_try(client, override_settings):
    override_settings(pin_max_attempts=1)
    number = "+14155550620"
    assert post_json(client, "/auth", {"phone_number": number}).status_code == 204
    response = post_json(client, "/auth/verify_pin", {"phone_number": number, "pin": "12\ud80034"})
    assert response.status_code == 400
    assert body(response) == _surrogate("pin")
    # the only try is still there: the right pin logs in
    response = post_json(client, "/auth/verify_pin", {"phone_number": number, "pin": last_pin(number)})
    assert response.status_code == 200, response.body


CONTROL = "Control characters are not allowed."
BIDI = "Bidirectional control characters are not allowed."
INVISIBLE = "Enter a name with visible characters."


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Bob\r\nInjected: x", CONTROL),
        ("Bob\tSmith", CONTROL),
        ("Bob\x1b[31m", CONTROL),
        ("\u202eevil\u202c", BIDI),
        ("Ann \u2066x\u2069", BIDI),
        ("\u202aAnn", BIDI),
        ("\u200b\u200b", INVISIBLE),
        ("\ufeff\ufeff", INVISIBLE),
        ("\u3164\u3164", INVISIBLE),
        ("\u0301\u0301", INVISIBLE),
    ],
)
@pytest.mark.parametrize(
    ("path", "method", "extra"),
    [("/users/me", "PATCH", {}), ("/users/me", "POST", {}), ("/auth/register", "POST", {"email": "a@example.com"})],
)
def test_names_shown_to_others_refuse_control_bidi_and_invisible_characters(
    client, party, name, message, path, method, extra
):
    token = party.guest["auth_token"]
    response = post_json(client, path, {"full_name": name, **extra}, token, method=method)
    assert response.status_code == 400 and body(response) == {"full_name": [message]}
    assert body(get(client, "/users/me", token))["full_name"] == "Gus Guest"


@pytest.mark.parametrize("name", ["Zoë Ørsted", "李小龍", "O'Brien-Smith", "محمد", "Ana María 🌮"])
def test_names_in_any_script_are_taken(client, party, name):
    token = party.guest["auth_token"]
    response = post_json(client, "/users/me", {"full_name": name}, token, method="PATCH")
    assert response.status_code == 200 and body(response)["full_name"] == name


def test_a_contact_name_with_a_bidi_override_is_refused_by_position(client, party):
    owner_token = party.owner["auth_token"]
    contacts = [
        {"phone_number": "+14155550611", "contact_name": ""},
        {"phone_number": "+14155550612", "contact_name": "\u202egnp.exe"},
    ]
    response = post_json(client, "/users/favorite_contacts", contacts, owner_token)
    assert response.status_code == 400
    assert body(response) == [{}, {"contact_name": [BIDI]}]
    assert body(get(client, "/users/favorite_contacts", owner_token)) == []
