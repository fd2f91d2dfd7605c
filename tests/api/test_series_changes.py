"""Changing a series over the API: PATCH /events/{id} with ``scope``, and DELETE /series/{series_id}."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from chalicelib.services.hosting import series
from chalicelib.services.participants import cohosts
from tests.utils.api import body, get, post_event, post_json
from tests.utils.factories import make_person, table_items

NEW_YORK = ZoneInfo("America/New_York")
BOOK_CLUB = {"title": "Book club", "event_date": "2027-02-23T19:00:00-05:00", "time_zone": "America/New_York"}


@pytest.fixture
def club(client):
    """Olive's weekly book club of 4 dates (across the spring change of 2027-03-14), Gus invited."""
    olive, gus, sam = make_person("Olive Owner"), make_person("Gus Guest"), make_person("Sam Stranger")
    response = post_event(client, olive, **BOOK_CLUB, repeat={"freq": "weekly", "count": 4},
                          invite_phone_numbers=[gus.phone])  # fmt: skip
    created = body(response)
    return olive, gus, sam, created["series"]["id"], [date["id"] for date in created["series"]["dates"]]


def _detail(client, event_id, person):
    return body(get(client, f"/events/{event_id}", person.token))


def _local(detail) -> datetime:
    return datetime.fromisoformat(detail["event_date"].replace("Z", "+00:00")).astimezone(NEW_YORK)


def _patch(client, person, event_id, fields):
    return post_json(client, f"/events/{event_id}", fields, person.token, method="PATCH")


def test_this_and_following_dates_move_by_the_same_wall_clock_shift(client, club):
    olive, gus, _sam, _series_id, ids = club
    response = _patch(client, olive, ids[1], {"title": "Reading night", "event_date": "2027-03-02T20:30:00-05:00",
                                              "scope": "following"})  # fmt: skip
    assert response.status_code == 200, response.body
    details = [_detail(client, event_id, gus) for event_id in ids]
    assert [detail["title"] for detail in details] == ["Book club", "Reading night", "Reading night", "Reading night"]
    assert [(_local(d).month, _local(d).day, _local(d).hour, _local(d).minute) for d in details] == [
        (2, 23, 19, 0), (3, 2, 20, 30), (3, 9, 20, 30), (3, 16, 20, 30),  # 3/16 is after the change: still 20:30
    ]  # fmt: skip


def test_scope_this_is_todays_edit_of_one_date(client, club):
    olive, gus, _sam, _series_id, ids = club
    assert _patch(client, olive, ids[0], {"title": "Only this one"}).status_code == 200
    assert [_detail(client, event_id, gus)["title"] for event_id in ids] == ["Only this one"] + ["Book club"] * 3
    assert _patch(client, olive, ids[1], {"venue_name": "Library", "scope": "this"}).status_code == 200
    assert [_detail(client, event_id, gus)["venue_name"] for event_id in ids] == ["", "Library", "", ""]


def test_scope_all_reaches_every_date_but_cancelled_ones_stay_as_they_are(client, club):
    olive, gus, _sam, _series_id, ids = club
    assert client.http.put(f"/events/{ids[2]}/cancel_event", headers={"Authorization": f"Bearer {olive.token}"},
                           body=b"").status_code == 204  # fmt: skip
    assert _patch(client, olive, ids[3], {"address": "1 Main St", "scope": "all"}).status_code == 200
    assert [_detail(client, event_id, gus)["address"] for event_id in ids] == ["1 Main St", "1 Main St", "",
                                                                               "1 Main St"]  # fmt: skip


def test_a_bad_scope_or_a_scope_outside_a_series_is_400(client, club):
    olive, _gus, _sam, _series_id, ids = club
    response = _patch(client, olive, ids[0], {"title": "X", "scope": "everything"})
    assert (response.status_code, body(response)) == (400, {"scope": ['"everything" is not a valid choice.']})
    single = body(post_event(client, olive))["id"]
    response = _patch(client, olive, single, {"title": "X", "scope": "all"})
    assert (response.status_code, body(response)) == (400, {"scope": ["This event is not part of a series."]})
    assert _detail(client, single, olive)["title"] == "Picnic"


def test_a_cohost_of_one_date_cannot_change_them_all_and_nothing_changes(client, club):
    olive, gus, _sam, _series_id, ids = club
    cohosts.appoint(olive.user, ids[0], gus.id)
    before = table_items()
    response = _patch(client, gus, ids[0], {"title": "Mine now", "scope": "all"})
    assert response.status_code == 403
    assert table_items() == before
    assert _patch(client, gus, ids[0], {"title": "Mine now"}).status_code == 200  # that date is theirs to edit


def _delete(client, person, series_id):
    return client.http.request("DELETE", f"/series/{series_id}", headers={"Authorization": f"Bearer {person.token}"})


def test_cancelling_a_series_cancels_its_dates_still_to_come(client, club, monkeypatch):
    olive, gus, sam, series_id, ids = club
    monkeypatch.setattr(series, "utcnow", lambda: datetime(2027, 3, 5, tzinfo=UTC))  # after the first two dates
    assert _delete(client, gus, series_id).status_code == 403
    assert (_delete(client, sam, series_id).status_code, body(_delete(client, sam, series_id))) == (
        404, {"detail": "Not found."})  # fmt: skip
    assert _delete(client, olive, series_id + 1).status_code == 404
    assert [_detail(client, event_id, gus)["is_cancelled"] for event_id in ids] == [False] * 4
    assert _delete(client, olive, series_id).status_code == 204
    assert [_detail(client, event_id, gus)["is_cancelled"] for event_id in ids] == [False, False, True, True]
    assert _delete(client, olive, series_id).status_code == 204  # again: nothing more
    listed = body(get(client, "/events?per_page=100", gus.token))
    assert [event["id"] for event in listed["results"]] == ids[:2]


def test_a_change_one_later_date_cannot_take_is_400_and_no_date_changes(client, club):
    olive, gus, _sam, _series_id, ids = club
    assert _patch(client, olive, ids[3], {"total_spots": 5, "spot_filled": 3}).status_code == 200  # 3 spots taken
    before = table_items()
    response = _patch(client, olive, ids[0], {"total_spots": 2, "title": "Smaller", "scope": "all"})
    assert response.status_code == 400 and "total_spots" in body(response)
    assert table_items() == before
    assert [_detail(client, event_id, gus)["title"] for event_id in ids] == ["Book club"] * 4
