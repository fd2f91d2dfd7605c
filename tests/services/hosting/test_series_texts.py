"""The texts of a series to guests without the app: one invitation, one change text per burst for the dates a
change reaches, one cancellation for the dates still to come."""

from __future__ import annotations

from datetime import UTC, datetime

from chalicelib.domain.recurrence import Repeat
from chalicelib.jobs import queue_handler
from chalicelib.services.hosting import events, series
from tests.utils.api import post_json, texts_to
from tests.utils.factories import make_person

ZONE = "America/New_York"
WHEN = datetime(2030, 1, 12, 1, 30, tzinfo=UTC)  # Fri, Jan 11 at 8:30 PM EST


def _series(owner, *guests, count=4):
    data = events.EventInput(
        title="Board games", event_date=WHEN, is_time_specified=True, time_zone=ZONE,
        invite_phone_numbers=[guest.phone for guest in guests],
    )  # fmt: skip
    return [view.event for view in series.create_series(owner.user, data, Repeat("weekly", count=count))]


def _texts(person, words: str) -> list[str]:
    return [text for text in texts_to(person.phone) if words in text]


def test_a_change_of_all_dates_is_one_text_per_guest_with_the_final_state(client, clock, due):
    alice, guest = make_person("Alice"), make_person("", active=False)
    dates = _series(alice, guest)
    assert len(_texts(guest, "invited you to")) == 1
    for venue in ("Cafe Nord", "Cafe Sud"):
        body = {"venue_name": venue, "scope": "all"}
        response = post_json(client, f"/events/{dates[1].id}", body, alice.token, method="PATCH")
        assert response.status_code == 200, response.body
    assert len(due) == 1  # one burst for the series, not one a date
    queue_handler.process(due[0])
    [text] = _texts(guest, " is now ")
    assert text.startswith('Invites: "Board games" is now Fri, Jan 18 at 8:30 PM EST, Cafe Sud. https://')


def test_cancelling_a_series_is_one_text_naming_the_series(client):
    alice, guest = make_person("Alice"), make_person("", active=False)
    dates = _series(alice, guest)
    response = client.http.request("DELETE", f"/series/{dates[0].series_id}",
                                   headers={"Authorization": f"Bearer {alice.token}"})  # fmt: skip
    assert response.status_code == 204
    assert _texts(guest, " cancelled ") == [
        'Invites: Alice cancelled "Board games" (every Friday from Fri, Jan 11 at 8:30 PM EST). Reply STOP to opt out.'
    ]
    again = client.http.request("DELETE", f"/series/{dates[0].series_id}",
                                headers={"Authorization": f"Bearer {alice.token}"})  # fmt: skip
    assert again.status_code == 204 and len(_texts(guest, " cancelled ")) == 1
