"""The event fields of reminders, "still coming?" and online events (``reminder_hours``, ``confirm_attendance``,
``confirm_hours``, ``release_unconfirmed``, ``online_url``) and the removal's ``notify``: every wrong value is a
400 keyed by its field, on create and on edit, and nothing of the request is stored."""

from __future__ import annotations

import pytest

from chalicelib.store.invitations import find_invitation
from tests.utils.api import body, get, post_event, post_json
from tests.utils.factories import make_event, make_person, stored_event

NOT_NULL = "This field may not be null."
NOT_INTEGER = "A valid integer is required."
NOT_BOOLEAN = "Must be a valid boolean."
NOT_STRING = "Not a valid string."
NOT_HTTPS = "Enter a valid URL starting with https://."

WRONG = [
    ("reminder_hours", -1, "Ensure this value is greater than or equal to 0."),
    ("reminder_hours", 169, "Ensure this value is less than or equal to 168."),
    ("reminder_hours", 10**30, "Ensure this value is less than or equal to 168."),
    ("reminder_hours", "24", NOT_INTEGER),
    ("reminder_hours", 24.5, NOT_INTEGER),
    ("reminder_hours", True, NOT_INTEGER),
    ("reminder_hours", [24], NOT_INTEGER),
    ("reminder_hours", None, NOT_NULL),
    ("confirm_hours", 0, "Ensure this value is greater than or equal to 1."),
    ("confirm_hours", 73, "Ensure this value is less than or equal to 72."),
    ("confirm_hours", "12h", NOT_INTEGER),
    ("confirm_hours", {"hours": 12}, NOT_INTEGER),
    ("confirm_hours", None, NOT_NULL),
    ("confirm_attendance", "true", NOT_BOOLEAN),
    ("confirm_attendance", 1, NOT_BOOLEAN),
    ("confirm_attendance", None, NOT_NULL),
    ("release_unconfirmed", "yes", NOT_BOOLEAN),
    ("release_unconfirmed", 0, NOT_BOOLEAN),
    ("release_unconfirmed", None, NOT_NULL),
    ("online_url", 42, NOT_STRING),
    ("online_url", {"url": "https://meet.example.com/x"}, NOT_STRING),
    ("online_url", "https://meet.example.com/" + "a" * 476, "Ensure this field has no more than 500 characters."),
    ("online_url", "https://meet.example.com/" + "a" * 100_000, "Ensure this field has no more than 500 characters."),
    ("online_url", "http://meet.example.com/x", NOT_HTTPS),
    ("online_url", "javascript:alert(1)", NOT_HTTPS),
    ("online_url", "https://meet.example.com/\u0000", "Null characters are not allowed."),
]
STORED = {"reminder_hours": 24, "confirm_hours": 24, "confirm_attendance": False, "release_unconfirmed": False}


def _shown(client, person, event_id) -> dict:
    shown = body(get(client, f"/events/{event_id}", person.token))
    return {name: shown[name] for name in (*STORED, "online_url", "title")}


@pytest.mark.parametrize(("name", "value", "message"), WRONG, ids=lambda each: str(each)[:24])
def test_a_wrong_value_on_create_is_400_by_field_and_no_event_is_made(client, name, value, message):
    alice = make_person("Alice")
    refused = post_event(client, alice, **{name: value})
    assert (refused.status_code, body(refused)) == (400, {name: [message]})
    assert body(get(client, "/events", alice.token))["count"] == 0


@pytest.mark.parametrize(("name", "value", "message"), WRONG, ids=lambda each: str(each)[:24])
def test_a_wrong_value_on_edit_is_400_by_field_and_nothing_of_the_edit_is_stored(client, name, value, message):
    alice = make_person("Alice")
    event = make_event(alice, online_url="https://meet.example.com/abc")
    before = _shown(client, alice, event.id)
    sent = {name: value, "title": "Renamed", "reminder_hours" if name != "reminder_hours" else "confirm_hours": 2}
    refused = post_json(client, f"/events/{event.id}", sent, alice.token, method="PATCH")
    assert (refused.status_code, body(refused)) == (400, {name: [message]})
    assert _shown(client, alice, event.id) == before
    assert stored_event(event.id).title == "Dinner"


def test_each_wrong_field_of_one_body_is_named_at_once(client):
    alice = make_person("Alice")
    sent = {"reminder_hours": 500, "confirm_hours": None, "confirm_attendance": "on", "release_unconfirmed": 1,
            "online_url": "ftp://files.example.com/"}  # fmt: skip
    refused = post_event(client, alice, **sent)
    assert refused.status_code == 400 and set(body(refused)) == set(sent)
    event = make_event(alice)
    edited = post_json(client, f"/events/{event.id}", sent, alice.token, method="PATCH")
    assert edited.status_code == 400 and set(body(edited)) == set(sent)
    assert {name: getattr(stored_event(event.id), name) for name in STORED} == STORED


def test_the_bounds_themselves_are_taken(client):
    alice = make_person("Alice")
    lowest = {"reminder_hours": 0, "confirm_hours": 1, "confirm_attendance": False, "release_unconfirmed": False}
    created = post_event(client, alice, **lowest)
    assert created.status_code == 201 and {name: body(created)[name] for name in lowest} == lowest
    highest = {"reminder_hours": 168, "confirm_hours": 72, "confirm_attendance": True, "release_unconfirmed": True}
    edited = post_json(client, f"/events/{body(created)['id']}", highest, alice.token, method="PATCH")
    assert edited.status_code == 200 and {name: body(edited)[name] for name in highest} == highest


@pytest.mark.parametrize("query", ["?notify=yes", "?notify=True", "?notify=0", "?notify=", "?notify=true%00",
                                   "?notify=" + "t" * 10_000])  # fmt: skip
def test_a_wrong_notify_is_400_keyed_by_notify_and_the_guest_stays(client, query):
    olive, gus = make_person("Olive"), make_person("Gus")
    event = make_event(olive, gus)
    counted = stored_event(event.id).invitee_count
    response = client.http.delete(f"/events/{event.id}/invitees/{gus.id}{query}",
                                  headers={"Authorization": f"Bearer {olive.token}"})  # fmt: skip
    assert (response.status_code, body(response)) == (400, {"notify": ["Must be true or false."]})
    assert find_invitation(event.id, gus.id) is not None
    assert stored_event(event.id).invitee_count == counted
