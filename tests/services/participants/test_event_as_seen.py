"""Every channel shows an event as ``visibility.as_seen`` makes it for its viewer: change a rule there (what
part of the place a viewer sees; who sees the place and the counts, hosts included) and the JSON detail, the
guest page, its calendar entry and feed, the person's feed, a change text, a change push and the data export
all follow it."""

from __future__ import annotations

import dataclasses

import icalendar
import pytest

from chalicelib.domain import visibility
from chalicelib.jobs import queue_handler
from chalicelib.services.replies import replies
from tests.utils.api import body, get, post_json, texts_to
from tests.utils.exports import exported_file
from tests.utils.factories import make_person, phone
from tests.utils.notifications import add_device, pushes
from tests.utils.web import invite_by_text, link_texted_to, page, text_of

VENUE = "Caf\u00e9 \u05d4\u05d2\u05df \U0001f333"  # Latin, Hebrew and an emoji
PLACE = {"venue_name": VENUE, "address": "5 Elm St", "location": {"latitude": 40.7, "longitude": -74.0}}
TOKEN_BOB = "d4" * 32
HIDDEN = "The host shares the place with the guests who accept."


def _nobody_sees_the_place_or_counts(monkeypatch) -> None:
    rule = visibility.seen_by

    def changed(event, invitation):
        return dataclasses.replace(rule(event, invitation), place=False, counts=False)

    monkeypatch.setattr(visibility, "seen_by", changed)


def _only_the_venue_for_everyone(monkeypatch) -> None:
    monkeypatch.setattr(
        visibility, "place_seen", lambda held, _sight: dataclasses.replace(held, address="", location=None)
    )


def _edit(client, owner, event_id: int, **fields) -> None:
    response = post_json(client, f"/events/{event_id}", fields, owner.token, method="PATCH")
    assert response.status_code == 200, response.body


def _calendar_location(client, path: str):
    response = page(client, path)
    assert response.status_code == 200, response.body
    return [entry.get("LOCATION") for entry in icalendar.Calendar.from_ical(response.body).walk("VEVENT")]


def _channels(client, alice, bob, number, event_id: int, path: str, bob_arn: str, due: list) -> dict:
    """What each channel shows: an edit of the date and the venue is made first, for its text and push."""
    _edit(client, alice, event_id, event_date="2030-06-03T18:30:00Z", venue_name=VENUE + "!")
    queue_handler.process(due[-1])
    feed = body(post_json(client, "/users/me/calendar_feed", {}, bob.token))["url"]
    assert post_json(client, "/users/me/export", {}, alice.token).status_code == 202
    exported = exported_file(client, body(get(client, "/users/me/export", alice.token))["url"])
    detail = body(get(client, f"/events/{event_id}", bob.token))
    return {
        "detail": (detail["venue_name"], detail["address"], detail["location"], detail["attendees_count"]),
        "page": text_of(page(client, path)),
        "entry": _calendar_location(client, f"{path}/event.ics"),
        "guest feed": _calendar_location(client, f"{path}/calendar.ics"),
        "person feed": _calendar_location(client, "/c/" + feed.rsplit("/c/", 1)[1]),
        "text": [text for text in texts_to(number) if " is now " in text][-1],
        "push": pushes(bob_arn)[-1]["aps"]["alert"]["body"],
        "export": (exported["events_owned"][0]["venue_name"], exported["events_owned"][0]["address"]),
    }


@pytest.fixture
def party(client, clock, due):
    """Alice's event with Bob (the app, accepted, a phone for pushes) and a number invited by text."""
    alice, bob, number = make_person("Alice"), make_person("Bob"), phone()
    event_id = invite_by_text(client, alice, number, bob.phone, time_zone="America/New_York", **PLACE)["id"]
    replies.rsvp(bob.user, event_id, accept=True, message=None)
    return alice, bob, number, event_id, link_texted_to(number), add_device(bob, TOKEN_BOB)


def test_every_channel_shows_the_place_by_the_rule(client, clock, due, party):
    shown = _channels(client, *party, due)
    assert shown["detail"] == (VENUE + "!", "5 Elm St", {"latitude": 40.7, "longitude": -74.0}, 2)
    assert VENUE in shown["page"] and "<dt>Going</dt><dd>2 people going" in shown["page"]
    assert [str(location) for location in shown["entry"]] == [f"{VENUE}!, 5 Elm St"]
    assert [str(location) for location in shown["guest feed"]] == [f"{VENUE}!, 5 Elm St"]
    assert [str(location) for location in shown["person feed"]] == [f"{VENUE}!, 5 Elm St"]
    assert f"Jun 3 at 2:30 PM EDT, {VENUE}!, 5 Elm St. https://" in shown["text"]
    assert shown["push"] == "Alice changed the date, time, venue."
    assert shown["export"] == (VENUE + "!", "5 Elm St")


def test_a_changed_rule_is_followed_by_every_channel(client, clock, due, party, monkeypatch):
    _nobody_sees_the_place_or_counts(monkeypatch)
    shown = _channels(client, *party, due)
    assert shown["detail"] == (None, None, None, None)
    assert VENUE not in shown["page"] and HIDDEN in shown["page"] and "<dt>Going</dt>" not in shown["page"]
    assert shown["entry"] == shown["guest feed"] == shown["person feed"] == [None]
    assert VENUE not in shown["text"] and "Jun 3 at 2:30 PM EDT. https://" in shown["text"]
    assert shown["push"] == "Alice changed the date, time."
    assert shown["export"] == (None, None)


def test_a_changed_place_rule_is_followed_by_every_channel(client, clock, due, party, monkeypatch):
    _only_the_venue_for_everyone(monkeypatch)
    shown = _channels(client, *party, due)
    assert shown["detail"] == (VENUE + "!", "", {}, 2)
    assert f"{VENUE}!" in shown["page"] and "5 Elm St" not in shown["page"]
    assert [str(location) for location in shown["entry"]] == [f"{VENUE}!"]
    assert [str(location) for location in shown["guest feed"]] == [f"{VENUE}!"]
    assert [str(location) for location in shown["person feed"]] == [f"{VENUE}!"]
    assert f"Jun 3 at 2:30 PM EDT, {VENUE}!. https://" in shown["text"]
    assert shown["push"] == "Alice changed the date, time, venue."
    assert shown["export"] == (VENUE + "!", "")
