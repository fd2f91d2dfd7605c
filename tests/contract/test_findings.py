"""What the Schemathesis run (test_schemathesis.py) found, pinned down in-process, each where it was fixed.

1. Years before 1000 came out unpadded ("817-08-07T15:49:12Z"): no ISO 8601, and in the date keys of the
   by_user index such an event sorted after "2030-...". Fixed in ``timeutil.format_datetime``; since then
   dates in are also held to 1970-2100 (``validation.in_date_range``), so such an event is a 400.
2. A date/time whose UTC conversion leaves the calendar (``0001-01-01T00:00:00+01:00``) raised
   OverflowError: 500 on every route taking one. Fixed in ``timeutil.parse_datetime`` (now a 400).
3. ``event_before``/``cursor`` with a fraction in the last second of 9999 overflowed adding a second: 500.
   Fixed in ``services.event_reads._before_key``. Query bounds are not held to the years of stored dates.
4. A coordinate nearer to 0 than 1e-130 (valid JSON, valid latitude) is a number DynamoDB refuses: 500.
   Fixed in ``models.events.CoordinateAttribute`` (stored as 0).
5. Integers past DynamoDB's 38 digits (``"total_spots": 1e300``) were a 500. Fixed in
   ``validation.Fields.integer``: at most 2^53-1 unless a field says less, like ids (400 beyond);
   ``total_spots`` and ``spot_filled`` now say 100,000 (``MAX_SPOTS``).
"""

from __future__ import annotations

from urllib.parse import quote

from chalicelib.timeutil import format_datetime, parse_datetime
from tests.utils.api import body, get, post_json
from tests.utils.factories import make_person

SAFE = 2**53 - 1


def create(client, owner, **fields):
    payload = {"title": "Picnic", "event_date": "2030-06-01T18:30:00Z", **fields}
    return post_json(client, "/events", payload, owner.token)


def test_years_before_1000_are_four_digits_out_and_refused_in(client):
    assert format_datetime(parse_datetime("0817-08-07T07:42:12-08:00")) == "0817-08-07T15:42:12Z"
    alice = make_person("Alice")
    early = create(client, alice, event_date="0817-08-07T07:42:12-08:00")
    assert early.status_code == 400
    assert body(early) == {"event_date": ["Ensure the date is between 1970 and 2100."]}
    assert body(get(client, "/events", alice.token))["results"] == []


def test_a_date_outside_the_calendar_in_utc_is_a_400(client):
    alice = make_person("Alice")
    response = create(client, alice, event_date="0001-01-01T00:00:00+01:00")
    assert response.status_code == 400 and list(body(response)) == ["event_date"]
    response = get(client, "/events?event_after=" + quote("9999-12-31T23:59:59-01:00"), alice.token)
    assert response.status_code == 400 and list(body(response)) == ["event_after"]


def test_a_bound_in_the_last_second_of_9999_is_served(client):
    alice = make_person("Alice")
    event_id = body(create(client, alice, event_date="2100-12-31T23:59:59Z"))["id"]
    listed = get(client, "/events?event_before=" + quote("9999-12-31T23:59:59.5Z"), alice.token)
    assert listed.status_code == 200, listed.body
    assert [event["id"] for event in body(listed)["results"]] == [event_id]
    timeline = get(client, "/events/timeline?type=sent&cursor=" + quote("9999-12-31T23:59:59.5Z"), alice.token)
    assert timeline.status_code == 200 and [event["id"] for event in body(timeline)] == [event_id]


def test_a_coordinate_too_small_for_dynamodb_is_stored_as_0(client):
    alice = make_person("Alice")
    response = create(client, alice, location={"latitude": -9.487646983475579e-133, "longitude": 1e-300})
    assert response.status_code == 201, response.body
    detail = body(get(client, f"/events/{body(response)['id']}", alice.token))
    assert detail["location"] == {"latitude": 0, "longitude": 0}


def test_integers_stop_at_2_53_minus_1(client):
    alice = make_person("Alice")
    too_big = create(client, alice, total_spots=1e300)
    assert too_big.status_code == 400
    assert body(too_big) == {"total_spots": ["Ensure this value is less than or equal to 100000."]}
    assert create(client, alice, total_spots=100_000).status_code == 201
    event_id = body(create(client, alice))["id"]
    suggestion = {"suggested_time": "2030-06-02T10:00:00Z", "like_count": 10**40}
    response = post_json(client, f"/events/{event_id}/time_suggestions", suggestion, alice.token)
    assert response.status_code == 400 and list(body(response)) == ["like_count"]
    response = post_json(client, f"/events/{event_id}", {"spot_filled": SAFE + 1}, alice.token, method="PATCH")
    assert response.status_code == 400 and list(body(response)) == ["spot_filled"]
