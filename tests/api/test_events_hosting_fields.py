"""The hosting settings of an event (join_mode, guest_invites, guest_list, place_visibility): defaults that
give today's behaviour, shown in every representation, refused by field when wrong with nothing stored."""

from __future__ import annotations

import pytest

from tests.utils.api import body, get, post_event, post_json
from tests.utils.factories import make_person

DEFAULTS = {"join_mode": "invite_only", "guest_invites": 0, "guest_list": "everyone", "place_visibility": "everyone"}


def test_an_event_created_without_them_shows_the_defaults_everywhere(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    created = body(post_event(client, alice, invite_phone_numbers=[bob.phone]))
    assert {name: created[name] for name in DEFAULTS} == DEFAULTS
    shown = body(get(client, f"/events/{created['id']}", bob.token))
    assert {name: shown[name] for name in DEFAULTS} == DEFAULTS
    listed = body(get(client, "/events", bob.token))["results"][0]
    assert {name: listed[name] for name in DEFAULTS} == DEFAULTS


def test_they_are_taken_on_create_and_edit(client):
    alice = make_person("Alice")
    chosen = {"join_mode": "approval", "guest_invites": 15, "guest_list": "hosts_only", "place_visibility": "accepted"}
    created = body(post_event(client, alice, **chosen))
    assert {name: created[name] for name in chosen} == chosen
    edited = post_json(client, f"/events/{created['id']}", {"join_mode": "open", "guest_invites": 0}, alice.token,
                       method="PATCH")  # fmt: skip
    assert edited.status_code == 200
    assert body(edited)["join_mode"] == "open" and body(edited)["guest_invites"] == 0
    assert body(edited)["guest_list"] == "hosts_only"


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("join_mode", "everyone", '"everyone" is not a valid choice.'),
        ("join_mode", 3, '"3" is not a valid choice.'),
        ("join_mode", None, "This field may not be null."),
        ("guest_list", "hidden", '"hidden" is not a valid choice.'),
        ("place_visibility", True, '"True" is not a valid choice.'),
        ("guest_invites", 16, "Ensure this value is less than or equal to 15."),
        ("guest_invites", -1, "Ensure this value is greater than or equal to 0."),
        ("guest_invites", "x", "A valid integer is required."),
    ],
)
def test_a_wrong_value_is_400_by_field_and_nothing_is_stored(client, name, value, message):
    alice = make_person("Alice")
    refused = post_event(client, alice, **{name: value})
    assert (refused.status_code, body(refused)) == (400, {name: [message]})
    assert body(get(client, "/events", alice.token))["count"] == 0
    created = body(post_event(client, alice))
    edited = post_json(client, f"/events/{created['id']}", {name: value}, alice.token, method="PATCH")
    assert (edited.status_code, body(edited)) == (400, {name: [message]})
    assert body(get(client, f"/events/{created['id']}", alice.token))[name] == DEFAULTS[name]
