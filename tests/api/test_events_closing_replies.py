"""Closing replies: rsvp_deadline and replies_paused. After the deadline or while paused, accepting answers
409 (also on the guest page, also into a waitlist); declining stays open."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.utils.api import body, get, post_event, post_json
from tests.utils.factories import make_person, phone
from tests.utils.web import answer, form_token, invite_by_text, link_texted_to, page, post_form, text_of

CLOSED = {"detail": "Replies are closed for this event."}


def _edit(client, owner, event_id, **fields):
    return post_json(client, f"/events/{event_id}", fields, owner.token, method="PATCH")


def test_the_deadline_is_at_most_the_event_date_and_every_representation_shows_both_fields(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    late = post_event(client, alice, rsvp_deadline="2030-06-02T00:00:00Z")
    assert (late.status_code, body(late)) == (
        400,
        {"rsvp_deadline": ["The reply deadline must be at or before the event's date."]},
    )
    created = post_event(client, alice, rsvp_deadline="2030-05-30T12:00:00Z", invite_phone_numbers=[bob.phone])
    assert created.status_code == 201
    event = body(created)
    assert event["rsvp_deadline"] == "2030-05-30T12:00:00Z" and event["replies_paused"] is False
    shown = body(get(client, f"/events/{event['id']}", bob.token))
    assert shown["rsvp_deadline"] == "2030-05-30T12:00:00Z" and shown["replies_paused"] is False
    listed = body(get(client, "/events", bob.token))["results"][0]
    assert listed["rsvp_deadline"] == "2030-05-30T12:00:00Z"
    # moving the event before its deadline is refused; null removes the deadline
    moved = _edit(client, alice, event["id"], event_date="2030-05-29T12:00:00Z")
    assert moved.status_code == 400 and "rsvp_deadline" in body(moved)
    cleared = _edit(client, alice, event["id"], rsvp_deadline=None)
    assert cleared.status_code == 200 and body(cleared)["rsvp_deadline"] is None


def test_after_the_deadline_accepting_is_refused_and_declining_is_not(client):
    alice, bob, cara = make_person("Alice"), make_person("Bob"), make_person("Cara")
    past = (datetime.now(UTC) - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    event = body(post_event(client, alice, rsvp_deadline=past, invite_phone_numbers=[bob.phone, cara.phone]))
    refused = post_json(client, f"/events/{event['id']}/accept", {}, bob.token)
    assert (refused.status_code, body(refused)) == (409, CLOSED)
    assert post_json(client, f"/events/{event['id']}/reject", {}, cara.token).status_code == 200
    shown = body(get(client, f"/events/{event['id']}", alice.token))
    assert shown["spots_filled"] == 0
    rows = {row["phone_number"]: row for row in shown["invitees"]}
    assert rows[bob.phone]["is_attending"] is None and rows[cara.phone]["is_attending"] is False


def test_paused_replies_refuse_accepts_also_into_the_waitlist_until_resumed(client):
    alice, bob, cara = make_person("Alice"), make_person("Bob"), make_person("Cara")
    event = body(post_event(client, alice, total_spots=1, waitlist=True, invite_phone_numbers=[bob.phone, cara.phone]))
    assert post_json(client, f"/events/{event['id']}/accept", {}, bob.token).status_code == 200
    paused = _edit(client, alice, event["id"], replies_paused=True)
    assert paused.status_code == 200 and body(paused)["replies_paused"] is True
    refused = post_json(client, f"/events/{event['id']}/accept", {}, cara.token)
    assert (refused.status_code, body(refused)) == (409, CLOSED)  # not put in line either
    assert body(get(client, f"/events/{event['id']}", alice.token))["spots_filled"] == 1
    # declining frees the spot while paused
    assert post_json(client, f"/events/{event['id']}/reject", {}, bob.token).status_code == 200
    _edit(client, alice, event["id"], replies_paused=False)
    assert post_json(client, f"/events/{event['id']}/accept", {}, cara.token).status_code == 200


def test_the_page_says_replies_are_closed_and_offers_only_decline(client):
    alice, number = make_person("Alice"), phone()
    event = invite_by_text(client, alice, number, replies_paused=True)
    path = link_texted_to(number)
    html = text_of(page(client, path))
    assert "Replies are closed for this event." in html
    assert 'value="accept"' not in html and 'value="decline"' in html
    # an accept posted anyway is refused with the reason; a decline goes through
    opened = text_of(page(client, path))
    refused = post_form(client, f"{path}/rsvp", {"csrf": form_token(opened), "answer": "accept", "message": ""})
    assert refused.status_code == 409 and "Replies are closed for this event." in text_of(refused)
    assert answer(client, path, "decline").status_code == 303
    rows = body(get(client, f"/events/{event['id']}", alice.token))["invitees"]
    assert [row["is_attending"] for row in rows if row["phone_number"] == number] == [False]


LONG_TEXT = "2030-05-30T12:00:00Z" + "0" * 1000
WRONG_DATETIME = (
    "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."
)


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("rsvp_deadline", 20300530, WRONG_DATETIME),
        ("rsvp_deadline", "next friday", WRONG_DATETIME),
        ("rsvp_deadline", LONG_TEXT, WRONG_DATETIME),
        ("replies_paused", "yes please", "Must be a valid boolean."),
        ("replies_paused", None, "This field may not be null."),
        ("replies_paused", "true" * 300, "Must be a valid boolean."),
    ],
)
def test_a_wrong_closing_value_is_400_by_field_and_nothing_is_stored(client, name, value, message):
    alice = make_person("Alice")
    refused = post_event(client, alice, **{name: value})
    assert (refused.status_code, body(refused)) == (400, {name: [message]})
    assert body(get(client, "/events", alice.token))["count"] == 0
    created = body(post_event(client, alice))
    edited = _edit(client, alice, created["id"], **{name: value})
    assert edited.status_code == 400 and body(edited) == body(refused)
    shown = body(get(client, f"/events/{created['id']}", alice.token))
    assert shown["rsvp_deadline"] is None and shown["replies_paused"] is False
