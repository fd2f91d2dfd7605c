"""GET /i/<code>/event.ics: one RFC 5545 VEVENT, read back with a real iCalendar parser (icalendar)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import icalendar

from chalicelib.guest_page.ics import fold
from tests.utils.factories import make_person, phone, put
from tests.utils.web import invite_by_text, link_texted_to, page

ICS = "text/calendar; charset=utf-8"


def calendar_of(client, path: str):
    response = page(client, f"{path}/event.ics")
    assert response.status_code == 200, response.body
    assert response.headers["Content-Type"] == ICS
    assert response.headers["Content-Disposition"] == 'attachment; filename="event.ics"'
    assert response.headers["X-Robots-Tag"] == "noindex" and response.headers["Referrer-Policy"] == "no-referrer"
    assert b"\r\n" in response.body and b"\n" not in response.body.replace(b"\r\n", b"")  # CRLF lines only
    return response.body, icalendar.Calendar.from_ical(response.body)


def only_event(calendar):
    events = calendar.walk("VEVENT")
    assert len(events) == 1
    return events[0]


def test_the_calendar_entry_has_uid_utc_start_summary_location_and_status(client):
    alice = make_person("Alice")
    first, second = phone(), phone()
    event = invite_by_text(
        client,
        alice,
        first,
        second,
        title="Dinner; wine, cheese \\ more",
        venue_name="Caf\u00e9 Central",
        address="1 Main St, Springfield",
        event_date="2030-06-01T20:30:00+02:00",
    )
    raw, calendar = calendar_of(client, link_texted_to(first))
    assert calendar["VERSION"] == "2.0" and calendar["PRODID"]
    vevent = only_event(calendar)
    assert vevent["UID"] == f"event-{event['id']}@invites.example.test"
    start = vevent.decoded("DTSTART")
    assert start == datetime(2030, 6, 1, 18, 30, tzinfo=UTC) and start.utcoffset().total_seconds() == 0
    assert b"DTSTART:20300601T183000Z" in raw  # UTC form, no TZID
    assert str(vevent["SUMMARY"]) == "Dinner; wine, cheese \\ more"
    assert str(vevent["LOCATION"]) == "Caf\u00e9 Central, 1 Main St, Springfield"
    assert str(vevent["STATUS"]) == "CONFIRMED" and vevent.decoded("DTSTAMP")
    # stable per event: again, and through another guest's link
    assert only_event(calendar_of(client, link_texted_to(first))[1])["UID"] == vevent["UID"]
    assert only_event(calendar_of(client, link_texted_to(second))[1])["UID"] == vevent["UID"]


def test_a_cancelled_event_is_status_cancelled_with_the_same_uid(client):
    alice = make_person("Alice")
    number = phone()
    event = invite_by_text(client, alice, number)
    path = link_texted_to(number)
    before = only_event(calendar_of(client, path)[1])
    assert put(client, f"/events/{event['id']}/cancel_event", alice.token).status_code == 204
    after = only_event(calendar_of(client, path)[1])
    assert str(after["STATUS"]) == "CANCELLED" and after["UID"] == before["UID"]


def test_an_event_without_time_is_a_whole_day(client):
    number = phone()
    invite_by_text(client, make_person("Alice"), number, event_date="2030-06-01T00:00:00Z", venue_name="")
    vevent = only_event(calendar_of(client, link_texted_to(number))[1])
    assert vevent.decoded("DTSTART") == date(2030, 6, 1) and vevent.decoded("DTEND") == date(2030, 6, 2)
    assert "LOCATION" not in vevent


def test_a_long_title_is_folded_and_read_back_whole(client):
    number = phone()
    title = "\u00c9t\u00e9 " * 45  # 2-byte characters across the 75-octet fold points
    invite_by_text(client, make_person("Alice"), number, title=title.strip())
    raw, calendar = calendar_of(client, link_texted_to(number))
    assert all(len(line) <= 75 for line in raw.split(b"\r\n"))
    assert str(only_event(calendar)["SUMMARY"]) == title.strip()


def test_fold_never_splits_a_character():
    line = "SUMMARY:" + "\U0001f389" * 40
    folded = fold(line)
    parts = folded.split("\r\n ")
    assert "".join(parts) == line
    assert all(len(part.encode()) <= 75 for part in parts)
