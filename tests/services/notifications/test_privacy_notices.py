"""Pushes and texts under place_visibility and guest_list: a guest who may not see the place is told no
place (a change text says the time alone, a change push names no place field, and a change of the place
alone tells them nothing); news of a guest's answer goes only to those who may see that guest."""

from __future__ import annotations

from datetime import UTC, datetime

from chalicelib.jobs import queue_handler
from chalicelib.services.replies import replies
from tests.utils.api import post_json, texts_to
from tests.utils.factories import make_event, make_person
from tests.utils.notifications import add_device, pushes

ZONE = "America/New_York"
WHEN = datetime(2030, 1, 12, 1, 30, tzinfo=UTC)  # Fri, Jan 11 at 8:30 PM EST
TOKEN_BOB, TOKEN_DAN, TOKEN_ALICE = "d4" * 32, "e5" * 32, "f6" * 32


def _edit(client, owner, event, **fields):
    response = post_json(client, f"/events/{event.id}", fields, owner.token, method="PATCH")
    assert response.status_code == 200, response.body


def _change_texts(person) -> list[str]:
    return [text for text in texts_to(person.phone) if " is now " in text]


def _texted_party():
    """Alice's event (place shown to accepted guests) with two guests without the app: one accepted, one not."""
    alice = make_person("Alice")
    silent, going = make_person("", active=False), make_person("", active=False)
    event = make_event(alice, silent, going, title="Board games", when=WHEN, time_zone=ZONE, venue_name="Cafe Nord",
                       place_visibility="accepted")  # fmt: skip
    replies.rsvp(going.user, event.id, accept=True, message=None)
    return alice, silent, going, event


def test_a_change_text_names_the_place_only_to_a_guest_who_may_see_it(client, clock, due):
    alice, silent, going, event = _texted_party()
    _edit(client, alice, event, event_date="2030-01-13T01:30:00Z", venue_name="Cafe Sud")
    queue_handler.process(due[0])
    [told_silent] = _change_texts(silent)
    assert told_silent.startswith('Invites: "Board games" is now Sat, Jan 12 at 8:30 PM EST. https://')
    assert "Cafe" not in told_silent
    [told_going] = _change_texts(going)
    assert told_going.startswith('Invites: "Board games" is now Sat, Jan 12 at 8:30 PM EST, Cafe Sud. https://')


def test_a_change_of_the_place_alone_texts_only_those_who_may_see_it(client, clock, due):
    alice, silent, going, event = _texted_party()
    _edit(client, alice, event, venue_name="Cafe Sud")
    queue_handler.process(due[0])
    assert _change_texts(silent) == []
    [told_going] = _change_texts(going)
    assert ", Cafe Sud. https://" in told_going


def test_by_default_every_guest_is_texted_the_place(client, clock, due):
    alice, silent = make_person("Alice"), make_person("", active=False)
    event = make_event(alice, silent, title="Board games", when=WHEN, time_zone=ZONE, venue_name="Cafe Nord")
    _edit(client, alice, event, venue_name="Cafe Sud")
    queue_handler.process(due[0])
    [told] = _change_texts(silent)
    assert ", Cafe Sud. https://" in told


def test_a_change_push_names_no_place_field_to_a_guest_who_may_not_see_the_place(client):
    alice, bob, dan = make_person("Alice"), make_person("Bob"), make_person("Dan")
    event = make_event(alice, bob, dan, venue_name="Cafe Nord", place_visibility="accepted")
    replies.rsvp(dan.user, event.id, accept=True, message=None)
    bob_arn, dan_arn = add_device(bob, TOKEN_BOB), add_device(dan, TOKEN_DAN)
    _edit(client, alice, event, venue_name="Cafe Sud")
    assert pushes(bob_arn) == []  # the place was all that changed
    assert [push["aps"]["alert"]["body"] for push in pushes(dan_arn)] == ["Alice changed the venue."]
    _edit(client, alice, event, title="Games night", address="1 Main St")
    assert [push["aps"]["alert"]["body"] for push in pushes(bob_arn)] == ["Alice changed the title."]
    assert pushes(dan_arn)[-1]["aps"]["alert"]["body"] == "Alice changed the title, address."


def test_an_answer_is_pushed_to_the_host_only_whatever_the_guest_list(client):
    alice, bob, dan = make_person("Alice"), make_person("Bob"), make_person("Dan")
    event = make_event(alice, bob, dan, guest_list="hosts_only")
    alice_arn, bob_arn = add_device(alice, TOKEN_ALICE), add_device(bob, TOKEN_BOB)
    replies.rsvp(dan.user, event.id, accept=True, message=None)
    assert [push["aps"]["alert"]["body"] for push in pushes(alice_arn)] == ["Dan is coming."]
    assert pushes(bob_arn) == []
