"""GET /i/<code>/event.ics: one RFC 5545 VEVENT, read back with a real iCalendar parser (icalendar)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from urllib.parse import unquote

import icalendar
import pytest

from chalicelib.guest_page.ics import fold
from chalicelib.models.events import Event, event_pk
from tests.utils.api import post_json
from tests.utils.factories import make_person, phone, put
from tests.utils.web import PUBLIC_BASE, answer, invite_by_text, link_texted_to, page

ICS = "text/calendar; charset=utf-8"


def calendar_of(client, path: str):
    response = page(client, f"{path}/event.ics")
    assert response.status_code == 200, response.body
    assert response.headers["Content-Type"] == ICS
    assert response.headers["Content-Disposition"].startswith('attachment; filename="')
    assert response.headers["X-Robots-Tag"] == "noindex" and response.headers["Referrer-Policy"] == "no-referrer"
    assert b"\r\n" in response.body and b"\n" not in response.body.replace(b"\r\n", b"")  # CRLF lines only
    return response.body, icalendar.Calendar.from_ical(response.body)


def only_event(calendar):
    events = calendar.walk("VEVENT")
    assert len(events) == 1
    return events[0]


def test_the_calendar_entry_has_uid_start_in_the_sent_offset_summary_location_and_status(client):
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
    assert start == datetime(2030, 6, 1, 18, 30, tzinfo=UTC) and start.utcoffset().total_seconds() == 2 * 3600
    assert b"DTSTART;TZID=UTC+0200:20300601T203000" in raw  # the creator's offset, its VTIMEZONE given
    assert vevent.decoded("DTEND") == datetime(2030, 6, 1, 20, 30, tzinfo=UTC)  # 120 minutes by default
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


def test_a_zoned_event_starts_and_ends_in_its_zone_for_its_duration(client):
    number = phone()
    invite_by_text(
        client, make_person("Sam"), number, event_date="2026-12-13T04:30:00Z", time_zone="America/Los_Angeles",
        duration_minutes=90,
    )  # fmt: skip
    raw, calendar = calendar_of(client, link_texted_to(number))
    assert b"DTSTART;TZID=America/Los_Angeles:20261212T203000" in raw
    assert b"DTEND;TZID=America/Los_Angeles:20261212T220000" in raw
    (zone,) = calendar.walk("VTIMEZONE")
    assert str(zone["TZID"]) == "America/Los_Angeles" and b"TZNAME:PST" in raw
    vevent = only_event(calendar)
    assert vevent.decoded("DTSTART") == datetime(2026, 12, 13, 4, 30, tzinfo=UTC)
    assert vevent.decoded("DTEND") - vevent.decoded("DTSTART") == timedelta(minutes=90)


def test_an_event_across_the_end_of_summer_time_ends_at_the_right_instant(client):
    number = phone()
    start = datetime(2027, 11, 5, 19, 0, tzinfo=UTC)  # noon PDT; summer time ends on the 7th
    invite_by_text(
        client, make_person("Sam"), number, event_date=start.isoformat(), time_zone="America/Los_Angeles",
        duration_minutes=3 * 24 * 60,
    )  # fmt: skip
    raw, calendar = calendar_of(client, link_texted_to(number))
    assert b"DTEND;TZID=America/Los_Angeles:20271108T110000" in raw  # noon PDT + 72 h = 11 AM PST
    assert b"TZNAME:PDT" in raw and b"TZNAME:PST" in raw
    vevent = only_event(calendar)
    assert vevent.decoded("DTEND") == start + timedelta(days=3)


def test_description_and_url_lead_back_to_the_guests_page(client):
    number = phone()
    invite_by_text(client, make_person("Sam"), number)
    path = link_texted_to(number)
    vevent = only_event(calendar_of(client, path)[1])
    assert str(vevent["URL"]) == PUBLIC_BASE + path
    assert PUBLIC_BASE + path in str(vevent["DESCRIPTION"])


def _sequence_and_revision(client, path: str):
    vevent = only_event(calendar_of(client, path)[1])
    return int(vevent["SEQUENCE"]), vevent.decoded("LAST-MODIFIED")


def test_sequence_grows_with_each_edit_of_date_title_or_place_and_with_the_cancel(client):
    owner, number = make_person("Sam"), phone()
    event_id = invite_by_text(client, owner, number, total_spots=10)["id"]
    path = link_texted_to(number)
    created = _sequence_and_revision(client, path)
    assert created[0] == 0 and created[1] == Event.get(event_pk(event_id), "META").calendar_modified.replace(
        microsecond=0
    )

    def edit(**fields):
        response = post_json(client, f"/events/{event_id}", fields, owner.token, "PATCH")
        assert response.status_code == 200, response.body
        return _sequence_and_revision(client, path)

    titled = edit(title="Picnic, moved")
    assert titled[0] == 1 and titled[1] >= created[1]
    assert edit(event_date="2030-06-02T18:30:00Z")[0] == 2
    placed = edit(venue_name="The Park")
    assert placed[0] == 3
    # neither a spot filled by hand nor a guest's answer is an edit of the entry
    assert edit(spot_filled=1) == placed
    assert answer(client, path, "accept").status_code == 303
    assert _sequence_and_revision(client, path) == placed
    assert post_json(client, f"/events/{event_id}/cancel_event", {}, owner.token, "PUT").status_code == 204
    vevent = only_event(calendar_of(client, path)[1])
    assert int(vevent["SEQUENCE"]) == 4 and str(vevent["STATUS"]) == "CANCELLED"


def test_an_event_stored_before_sequence_and_duration_still_gives_a_whole_entry(client):
    number = phone()
    event_id = invite_by_text(client, make_person("Sam"), number)["id"]
    Event(event_pk(event_id), "META").update(
        actions=[Event.duration_minutes.remove(), Event.calendar_sequence.remove(), Event.calendar_modified.remove(),
                 Event.utc_offset_minutes.remove()]
    )  # fmt: skip
    stored = Event.get(event_pk(event_id), "META")
    vevent = only_event(calendar_of(client, link_texted_to(number))[1])
    assert int(vevent["SEQUENCE"]) == 0 and vevent.decoded("LAST-MODIFIED") == stored.modified.replace(microsecond=0)
    assert vevent.decoded("DTEND") - vevent.decoded("DTSTART") == timedelta(minutes=120)


@pytest.mark.parametrize(
    ("title", "plain", "full"),
    [
        ("Picnic", "Picnic", "Picnic"),
        ("F\u00eate \U0001f389 at Zo\u00eb\u2019s", "Fete at Zoes", "F\u00eate \U0001f389 at Zo\u00eb\u2019s"),
        (
            "\u041f\u0440\u0430\u0437\u0434\u043d\u0438\u043a",
            "event",
            "\u041f\u0440\u0430\u0437\u0434\u043d\u0438\u043a",
        ),
        ('a/b\\c:"d"\r\nHeader: x', "a b c d Header x", "a b c d Header x"),
    ],
)
def test_the_file_is_named_after_the_title_with_a_plain_ascii_fallback(client, title, plain, full):
    number = phone()
    invite_by_text(client, make_person("Sam"), number, title=title)
    response = page(client, f"{link_texted_to(number)}/event.ics")
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith(f"attachment; filename=\"{plain}.ics\"; filename*=UTF-8''")
    assert disposition.isascii() and "\r" not in disposition and "\n" not in disposition
    assert unquote(disposition.split("filename*=UTF-8''")[1]) == f"{full}.ics"
