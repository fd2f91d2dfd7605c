"""Dates, spot counters and time suggestions within the documented limits (docs/api.md)."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from chalicelib.models.events import SUGGESTION_PREFIX, TimeSuggestion, event_pk
from chalicelib.timeutil import format_datetime, parse_datetime
from tests.utils.api import body, get, post_event, post_json
from tests.utils.factories import make_event, make_person, stored_event, table_items
from tests.utils.races import race

DATE_RANGE = "Ensure the date is between 1970 and 2100."
SAFE = 2**53 - 1


# --------------------------------------------------------------------------- dates


@pytest.mark.parametrize(
    "value",
    [
        "9999-12-31T23:59:59Z",
        "1969-12-31T23:59:59Z",
        "2101-01-01T00:00:00Z",
        "0001-01-01T00:00:00Z",
        "2100-12-31T23:30:00-01:00",
    ],  # the last is 2101 in UTC
)
@pytest.mark.parametrize(
    ("path", "field", "extra"),
    [
        ("/events", "event_date", {"title": "T"}),
        ("/events/{event}", "event_date", {}),
        ("/events/{event}/polls", "suggested_date", {"suggested_venue": "Park"}),
        ("/events/{event}/time_suggestions", "suggested_time", {}),
    ],
)
def test_dates_outside_1970_to_2100_are_400_by_field_and_nothing_stored(client, path, field, extra, value):
    owner = make_person("Owner")
    event = make_event(owner)
    before = table_items()
    response = post_json(client, path.format(event=event.id), {field: value, **extra}, owner.token)
    assert response.status_code == 400
    assert body(response) == {field: [DATE_RANGE]}
    assert table_items() == before


@pytest.mark.parametrize("value", ["1970-01-01T00:00:00Z", "2100-12-31T23:59:59Z"])
def test_dates_at_the_edges_are_taken(client, value):
    owner = make_person("Owner")
    response = post_json(client, "/events", {"title": "Edge", "event_date": value}, owner.token)
    assert response.status_code == 201 and body(response)["event_date"] == value
    event_id = body(response)["id"]
    for path, field in (("polls", "suggested_date"), ("time_suggestions", "suggested_time")):
        payload = {field: value, "suggested_venue": "Park"}
        assert post_json(client, f"/events/{event_id}/{path}", payload, owner.token).status_code in (201, 204)


def test_the_date_range_is_a_setting(client, override_settings):
    override_settings(earliest_year=2000, latest_year=2040)
    owner = make_person("Owner")
    response = post_json(client, "/events", {"title": "T", "event_date": "2041-01-01T00:00:00Z"}, owner.token)
    assert body(response) == {"event_date": ["Ensure the date is between 2000 and 2040."]}


# --------------------------------------------------------------------------- counters


def test_spot_counters_above_100000_are_400(client):
    owner = make_person("Owner")
    event = make_event(owner)
    too_many = post_json(
        client, "/events", {"title": "T", "event_date": "2030-01-01T00:00:00Z", "total_spots": 100_001}, owner.token
    )
    assert body(too_many) == {"total_spots": ["Ensure this value is less than or equal to 100000."]}
    filled = post_json(client, f"/events/{event.id}", {"spot_filled": 9007199254740991}, owner.token)
    assert filled.status_code == 400
    assert body(filled) == {"spot_filled": ["Ensure this value is less than or equal to 100000."]}
    assert stored_event(event.id).spots_filled == 0


def test_repeated_filling_stops_at_1000000_spots(client):
    owner = make_person("Owner")
    event = make_event(owner)
    for _ in range(10):
        response = post_json(client, f"/events/{event.id}", {"spot_filled": 100_000}, owner.token)
        assert response.status_code == 200
    assert body(response)["spots_filled"] == 1_000_000
    response = post_json(client, f"/events/{event.id}", {"spot_filled": 1}, owner.token)
    assert response.status_code == 400
    assert body(response) == {"spot_filled": ["Ensure this value is less than or equal to 0."]}
    assert stored_event(event.id).spots_filled == 1_000_000


def test_parallel_filling_never_passes_the_cap(aws, override_settings):
    from chalicelib.errors import DomainError
    from chalicelib.services.hosting import events

    override_settings(max_spots_filled=10)
    owner = make_person("Owner")
    event = make_event(owner)

    def fill(_):
        events.update_event(owner.user, event.id, events.EventInput(spot_filled=3))

    # refused: 400 past the cap, or 409 "changed meanwhile" after the retries
    results = race(fill, 12, refused=DomainError)
    assert results.count("ok") == 3
    assert stored_event(event.id).spots_filled == 9


def test_the_cap_is_in_the_write_itself(aws, override_settings):
    """Past the service's own check, DynamoDB itself refuses a write that would pass the cap."""
    from chalicelib import store
    from chalicelib.services.hosting import events
    from chalicelib.store.events import EventEdit, edit_event
    from chalicelib.timeutil import utcnow

    override_settings(max_spots_filled=5)
    owner = make_person("Owner")
    event = make_event(owner)
    events.update_event(owner.user, event.id, events.EventInput(spot_filled=4))
    current = stored_event(event.id)
    with pytest.raises(store.Refused):
        edit = EventEdit(spots_filled_by_hand=4)
        edit_event(current, edit, counters_unchanged=True, max_spots_filled=5, now=utcnow())
    assert stored_event(event.id).spots_filled == 4


# --------------------------------------------------------------------------- time suggestions


def _suggest(client, event_id: int, token: str):
    payload = {"suggested_time": "2030-06-01T15:00:00Z", "comment": "x" * 500}
    return post_json(client, f"/events/{event_id}/time_suggestions", payload, token)


def _stored_suggestions(event_id: int) -> int:
    return len(list(TimeSuggestion.query(event_pk(event_id), TimeSuggestion.sk.startswith(SUGGESTION_PREFIX))))


def test_the_51st_time_suggestion_is_400_and_not_stored(client):
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest)
    for _ in range(50):
        assert _suggest(client, event.id, guest.token).status_code == 204
    response = _suggest(client, event.id, owner.token)
    assert response.status_code == 400
    assert body(response) == {"_error_message": "No more than 50 time suggestions can be submitted."}
    assert _stored_suggestions(event.id) == 50
    assert len(body(get(client, f"/events/{event.id}/time_suggestions", guest.token))) == 50


def test_parallel_time_suggestions_never_pass_the_limit(aws, override_settings):
    from chalicelib.errors import ValidationError
    from chalicelib.services.conversation import conversation
    from tests.utils.factories import future

    override_settings(time_suggestions_per_event=5)
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest)

    def suggest(n):
        conversation.suggest_time(guest.user, event.id, conversation.SuggestionInput(future(), f"#{n}"))

    results = race(suggest, 16, refused=ValidationError)
    assert results.count("ok") == 5 and results.count("refused") == 11
    assert _stored_suggestions(event.id) == 5


def test_event_reads_never_touch_time_suggestions(client):
    """The detail and the list read the partition only up to the suggestions: one that could not even be
    read back (a broken item) changes nothing for them, while their own list does read it."""
    import boto3

    owner = make_person("Owner")
    event = make_event(owner)
    boto3.client("dynamodb", region_name="us-east-1").put_item(
        TableName="test-events",
        Item={
            "pk": {"S": event_pk(event.id)},
            "sk": {"S": f"{SUGGESTION_PREFIX}{1:016d}"},
            "kind": {"S": "time_suggestion"},
            "suggested_time": {"S": "not a time"},
        },
    )
    detail = get(client, f"/events/{event.id}", owner.token)
    assert detail.status_code == 200 and "time_suggestions" not in body(detail)
    assert get(client, "/events", owner.token).status_code == 200


# --------------------------------------------------------------------------- extreme values


# Values at the edges of what JSON, the calendar and DynamoDB take, each once a 500 or a wrong answer that the
# Schemathesis run (tests/contract/test_schemathesis.py) found.


# Years before 1000 came out unpadded ("817-08-07T15:49:12Z"), no ISO 8601, and sorted after "2030-..." in the
# by_user index's date keys: timeutil.format_datetime pads them, and dates in are held to 1970-2100 anyway.
def test_years_before_1000_are_four_digits_out_and_refused_in(client):
    assert format_datetime(parse_datetime("0817-08-07T07:42:12-08:00")) == "0817-08-07T15:42:12Z"
    alice = make_person("Alice")
    early = post_event(client, alice, event_date="0817-08-07T07:42:12-08:00")
    assert early.status_code == 400
    assert body(early) == {"event_date": ["Ensure the date is between 1970 and 2100."]}
    assert body(get(client, "/events", alice.token))["results"] == []


# A date/time whose UTC conversion leaves the calendar raised OverflowError (timeutil.parse_datetime).
def test_a_date_outside_the_calendar_in_utc_is_a_400(client):
    alice = make_person("Alice")
    response = post_event(client, alice, event_date="0001-01-01T00:00:00+01:00")
    assert response.status_code == 400 and list(body(response)) == ["event_date"]
    response = get(client, "/events?event_after=" + quote("9999-12-31T23:59:59-01:00"), alice.token)
    assert response.status_code == 400 and list(body(response)) == ["event_after"]


# event_before/cursor with a fraction in the last second of 9999 overflowed adding a second; query bounds are
# not held to the years of stored dates.
def test_a_bound_in_the_last_second_of_9999_is_served(client):
    alice = make_person("Alice")
    event_id = body(post_event(client, alice, event_date="2100-12-31T23:59:59Z"))["id"]
    listed = get(client, "/events?event_before=" + quote("9999-12-31T23:59:59.5Z"), alice.token)
    assert listed.status_code == 200, listed.body
    assert [event["id"] for event in body(listed)["results"]] == [event_id]
    timeline = get(client, "/events/timeline?type=sent&cursor=" + quote("9999-12-31T23:59:59.5Z"), alice.token)
    assert timeline.status_code == 200 and [event["id"] for event in body(timeline)] == [event_id]


# A coordinate nearer to 0 than 1e-130 is valid JSON and a valid latitude, but a number DynamoDB refuses
# (models.events.CoordinateAttribute stores it as 0).
def test_a_coordinate_too_small_for_dynamodb_is_stored_as_0(client):
    alice = make_person("Alice")
    response = post_event(client, alice, location={"latitude": -9.487646983475579e-133, "longitude": 1e-300})
    assert response.status_code == 201, response.body
    detail = body(get(client, f"/events/{body(response)['id']}", alice.token))
    assert detail["location"] == {"latitude": 0, "longitude": 0}


# Integers past DynamoDB's 38 digits were a 500 (validation.Fields.integer: at most 2^53-1 unless a field says
# less: ids, and total_spots/spot_filled at 100,000).
def test_integers_stop_at_2_53_minus_1(client):
    alice = make_person("Alice")
    too_big = post_event(client, alice, total_spots=1e300)
    assert too_big.status_code == 400
    assert body(too_big) == {"total_spots": ["Ensure this value is less than or equal to 100000."]}
    assert post_event(client, alice, total_spots=100_000).status_code == 201
    event_id = body(post_event(client, alice))["id"]
    suggestion = {"suggested_time": "2030-06-02T10:00:00Z", "like_count": 10**40}
    response = post_json(client, f"/events/{event_id}/time_suggestions", suggestion, alice.token)
    assert response.status_code == 400 and list(body(response)) == ["like_count"]
    response = post_json(client, f"/events/{event_id}", {"spot_filled": SAFE + 1}, alice.token, method="PATCH")
    assert response.status_code == 400 and list(body(response)) == ["spot_filled"]
