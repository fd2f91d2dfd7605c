"""time_zone and duration_minutes on events: accepted on create and edit, validated, in every representation,
and the local time they give the invitation text and the guest's page (with and without script)."""

from __future__ import annotations

import pytest

from chalicelib.models.events import Event, event_pk
from tests.utils.api import body, get, post_event, post_json, texts_to
from tests.utils.factories import make_person, phone, stored_event, table_items
from tests.utils.web import invite_by_text, link_texted_to, page, text_of

DATE = "2026-12-13T04:30:00Z"  # Saturday, December 12, 8:30 PM in San Francisco


def test_time_zone_and_duration_are_stored_and_in_every_representation(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    response = post_event(
        client, alice, event_date=DATE, time_zone="America/Los_Angeles", duration_minutes=90,
        invite_phone_numbers=[bob.phone],
    )  # fmt: skip
    assert response.status_code == 201, response.body
    created = body(response)
    assert created["time_zone"] == "America/Los_Angeles" and created["duration_minutes"] == 90
    event_id = created["id"]
    detail = body(get(client, f"/events/{event_id}", alice.token))
    listed = body(get(client, "/events", bob.token))["results"][0]
    timeline = body(get(client, "/events/timeline?type=sent", alice.token))[0]
    for shown in (detail, listed, timeline):
        assert shown["time_zone"] == "America/Los_Angeles" and shown["duration_minutes"] == 90
    assert stored_event(event_id).time_zone == "America/Los_Angeles"


def test_without_them_time_zone_is_null_and_duration_120(client):
    created = body(post_event(client, make_person("Alice")))
    assert created["time_zone"] is None and created["duration_minutes"] == 120


@pytest.mark.parametrize("zone", ["Mars/Olympus_Mons", "america/los_angeles", "../../etc/passwd", "PST8PDT/x", "/UTC"])
def test_an_unknown_time_zone_is_refused_and_nothing_is_stored(client, zone):
    response = post_event(client, make_person("Alice"), time_zone=zone)
    assert response.status_code == 400
    assert body(response) == {"time_zone": ["Unknown time zone."]}
    assert not [item for item in table_items() if item["pk"].startswith("EVENT#")]


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"duration_minutes": 0}, {"duration_minutes": ["Ensure this value is greater than or equal to 1."]}),
        ({"duration_minutes": 10081}, {"duration_minutes": ["Ensure this value is less than or equal to 10080."]}),
        ({"duration_minutes": "2h"}, {"duration_minutes": ["A valid integer is required."]}),
        ({"time_zone": 5}, {"time_zone": ["Not a valid string."]}),
        ({"time_zone": "Europe/Paris\x00"}, {"time_zone": ["Null characters are not allowed."]}),
    ],
)
def test_bad_values_answer_400_keyed_by_field(client, fields, expected):
    response = post_event(client, make_person("Alice"), **fields)
    assert response.status_code == 400 and body(response) == expected


def test_edit_sets_changes_and_clears_the_time_zone(client):
    alice = make_person("Alice")
    event_id = body(post_event(client, alice, event_date=DATE))["id"]
    path = f"/events/{event_id}"
    edited = post_json(client, path, {"time_zone": "Europe/Berlin", "duration_minutes": 45}, alice.token, "PATCH")
    assert edited.status_code == 200, edited.body
    assert body(edited)["time_zone"] == "Europe/Berlin" and body(edited)["duration_minutes"] == 45
    refused = post_json(client, path, {"time_zone": "Europe/Atlantis"}, alice.token, "PATCH")
    assert refused.status_code == 400 and body(refused) == {"time_zone": ["Unknown time zone."]}
    assert stored_event(event_id).time_zone == "Europe/Berlin"
    cleared = post_json(client, path, {"time_zone": None}, alice.token, "PATCH")
    assert body(cleared)["time_zone"] is None and stored_event(event_id).time_zone is None


def test_an_event_stored_before_these_fields_still_reads(client):
    alice = make_person("Alice")
    event_id = body(post_event(client, alice))["id"]
    Event(event_pk(event_id), "META").update(
        actions=[Event.time_zone.remove(), Event.utc_offset_minutes.remove(), Event.duration_minutes.remove(),
                 Event.calendar_sequence.remove(), Event.calendar_modified.remove()]
    )  # fmt: skip
    shown = body(get(client, f"/events/{event_id}", alice.token))
    assert shown["time_zone"] is None and shown["duration_minutes"] == 120


# --------------------------------------------------------------------------- what the guest reads


def test_the_text_and_the_page_show_the_events_own_zone(client):
    number = phone()
    invite_by_text(client, make_person("Sam"), number, event_date=DATE, time_zone="America/Los_Angeles")
    (text,) = texts_to(number)
    assert ", Sat, Dec 12 at 8:30 PM PST. " in text
    html = text_of(page(client, link_texted_to(number)))
    expected = (
        '<time datetime="2026-12-13T04:30:00Z" data-offset="-480" data-yours="{time} your time">'
        "Saturday, December 12, 2026 at 8:30 PM PST</time>"
    )
    assert expected in html  # server-rendered: what a page without script shows


def test_without_a_zone_the_creators_offset_is_used(client):
    number = phone()
    invite_by_text(client, make_person("Sam"), number, event_date="2026-12-12T20:30:00-08:00")
    assert ", Sat, Dec 12 at 8:30 PM UTC-8. " in texts_to(number)[0]
    assert "Saturday, December 12, 2026 at 8:30 PM UTC-8</time>" in text_of(page(client, link_texted_to(number)))


def test_a_half_hour_offset_and_an_offset_less_date(client):
    india, utc = phone(), phone()
    invite_by_text(client, make_person("Sam"), india, event_date="2026-12-12T20:30:00+05:30")
    invite_by_text(client, make_person("Ann"), utc, event_date="2026-12-12T20:30:00")
    assert ", Sat, Dec 12 at 8:30 PM UTC+5:30. " in texts_to(india)[0]
    assert ", Sat, Dec 12 at 8:30 PM UTC. " in texts_to(utc)[0]


def test_a_zone_without_letters_for_its_abbreviation_shows_its_offset(client):
    number = phone()
    invite_by_text(client, make_person("Sam"), number, event_date="2026-12-12T16:30:00Z", time_zone="Asia/Dubai")
    assert ", Sat, Dec 12 at 8:30 PM UTC+4. " in texts_to(number)[0]


def test_a_day_event_is_the_day_its_creator_sent(client):
    number = phone()
    invite_by_text(
        client, make_person("Sam"), number, event_date="2026-12-12T00:00:00-08:00", time_zone="America/Los_Angeles"
    )
    assert ", Sat, Dec 12. " in texts_to(number)[0]
    assert '<time datetime="2026-12-12">Saturday, December 12, 2026</time>' in text_of(
        page(client, link_texted_to(number))
    )


def test_summer_time_gives_the_summer_abbreviation(client):
    number = phone()
    invite_by_text(client, make_person("Sam"), number, event_date="2026-07-04T01:00:00Z", time_zone="America/New_York")
    assert ", Fri, Jul 3 at 9:00 PM EDT. " in texts_to(number)[0]
