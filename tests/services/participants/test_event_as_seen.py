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


def _calendar_location(client, path: str) -> list[str | None]:
    response = page(client, path)
    assert response.status_code == 200, response.body
    entries = icalendar.Calendar.from_ical(response.body).walk("VEVENT")
    return [None if entry.get("LOCATION") is None else str(entry["LOCATION"]) for entry in entries]


def _channels(client, alice, bob, number, event_id: int, path: str, bob_arn: str, due: list) -> tuple[dict, str]:
    """What each channel shows, and the guest page; an edit of the date and the venue is made first, for its text
    and push."""
    _edit(client, alice, event_id, event_date="2030-06-03T18:30:00Z", venue_name=VENUE + "!")
    queue_handler.process(due[-1])
    feed = body(post_json(client, "/users/me/calendar_feed", {}, bob.token))["url"]
    assert post_json(client, "/users/me/export", {}, alice.token).status_code == 202
    owned = exported_file(client, body(get(client, "/users/me/export", alice.token))["url"])["events_owned"][0]
    detail = body(get(client, f"/events/{event_id}", bob.token))
    told = [text for text in texts_to(number) if " is now " in text][-1]
    calendars = [f"{path}/event.ics", f"{path}/calendar.ics", "/c/" + feed.rsplit("/c/", 1)[1]]
    shown = {
        "detail": (detail["venue_name"], detail["address"], detail["location"], detail["attendees_count"]),
        "calendars": [_calendar_location(client, calendar) for calendar in calendars],
        "told": told.partition(" at 2:30 PM EDT")[2].partition(" https://")[0],
        "push": pushes(bob_arn)[-1]["aps"]["alert"]["body"],
        "export": (owned["venue_name"], owned["address"]),
    }
    return shown, text_of(page(client, path))


@pytest.fixture
def party(client, clock, due):
    """Alice's event with Bob (the app, accepted, a phone for pushes) and a number invited by text."""
    alice, bob, number = make_person("Alice"), make_person("Bob"), phone()
    event_id = invite_by_text(client, alice, number, bob.phone, time_zone="America/New_York", **PLACE)["id"]
    replies.rsvp(bob.user, event_id, accept=True, message=None)
    return alice, bob, number, event_id, link_texted_to(number), add_device(bob, TOKEN_BOB)


def test_every_channel_shows_the_place_by_the_rule(client, clock, due, party):
    shown, guest_page = _channels(client, *party, due)
    assert shown == {
        "detail": (VENUE + "!", "5 Elm St", {"latitude": 40.7, "longitude": -74.0}, 2),
        "calendars": [[f"{VENUE}!, 5 Elm St"]] * 3,
        "told": f", {VENUE}!, 5 Elm St.",
        "push": "Alice changed the date, time, venue.",
        "export": (VENUE + "!", "5 Elm St"),
    }
    assert VENUE in guest_page and "<dt>Going</dt><dd>2 people going" in guest_page


def test_a_changed_rule_is_followed_by_every_channel(client, clock, due, party, monkeypatch):
    _nobody_sees_the_place_or_counts(monkeypatch)
    shown, guest_page = _channels(client, *party, due)
    assert shown == {
        "detail": (None, None, None, None),
        "calendars": [[None]] * 3,
        "told": ".",
        "push": "Alice changed the date, time.",
        "export": (None, None),
    }
    assert VENUE not in guest_page and HIDDEN in guest_page and "<dt>Going</dt>" not in guest_page


def test_a_changed_place_rule_is_followed_by_every_channel(client, clock, due, party, monkeypatch):
    _only_the_venue_for_everyone(monkeypatch)
    shown, guest_page = _channels(client, *party, due)
    assert shown == {
        "detail": (VENUE + "!", "", {}, 2),
        "calendars": [[f"{VENUE}!"]] * 3,
        "told": f", {VENUE}!.",
        "push": "Alice changed the date, time, venue.",
        "export": (VENUE + "!", ""),
    }
    assert f"{VENUE}!" in guest_page and "5 Elm St" not in guest_page
