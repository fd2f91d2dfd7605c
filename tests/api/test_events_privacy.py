"""guest_list and place_visibility over the API: what a guest (not a host) sees of an event in the detail,
the list, the timeline, the create and edit answers, the export, who_has_invited_me and the time
suggestions; hosts see everything; the defaults show what every guest saw before.

The party: Alice owns the event, Cora is her co-host, Dan accepted, Eve waits on the waitlist (the event's
two spots are Dan's and Cora's) and Bob has not answered."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from chalicelib.services.replies import replies
from tests.utils.api import body, get, post_json
from tests.utils.exports import exported_file
from tests.utils.factories import Person, future, make_cohost, make_event, make_person

PLACE = {"venue_name": "The Loft", "address": "5 Elm St", "location": {"latitude": 40.7, "longitude": -74.0}}
HIDDEN_PLACE = {"venue_name": None, "address": None, "location": None}


@dataclass
class Hosting:
    event_id: int
    alice: Person  # the owner
    cora: Person  # a co-host
    bob: Person  # no answer yet
    dan: Person  # accepted
    eve: Person  # waiting, first in line

    def ids(self, *people: Person) -> list[int]:
        return [person.id for person in people]


def _hosting(**settings) -> Hosting:
    alice, cora, bob, dan, eve = (make_person(name) for name in ("Alice", "Cora", "Bob", "Dan", "Eve"))
    event = make_event(alice, cora, bob, dan, eve, when=future(6), total_spots=2, waitlist=True, **PLACE, **settings)
    make_cohost(event.id, cora)
    for person in (dan, cora, eve):
        replies.rsvp(person.user, event.id, accept=True, message="")
    return Hosting(event.id, alice, cora, bob, dan, eve)


def _detail(client, event_id: int, person: Person) -> dict:
    response = get(client, f"/events/{event_id}", person.token)
    assert response.status_code == 200, response.body
    return body(response)


def _place(shown: dict) -> dict:
    return {name: shown[name] for name in HIDDEN_PLACE}


def _rows(shown: dict, key: str = "invitees") -> list[int]:
    return [row["user_id"] for row in shown[key]]


def test_by_default_a_guest_sees_every_row_the_counts_and_the_place(client):
    party = _hosting()
    shown = _detail(client, party.event_id, party.bob)
    assert _rows(shown) == party.ids(party.alice, party.cora, party.bob, party.dan, party.eve)
    assert (shown["attendees_count"], shown["spots_filled"]) == (3, 2)
    assert [row["waitlist_position"] for row in shown["invitees"]] == [None, None, None, None, 1]
    assert _place(shown) == PLACE


def test_count_only_shows_a_guest_the_hosts_and_themself_with_the_counts(client):
    party = _hosting(guest_list="count_only")
    shown = _detail(client, party.event_id, party.bob)
    assert _rows(shown) == party.ids(party.alice, party.cora, party.bob)
    assert (shown["attendees_count"], shown["spots_filled"]) == (3, 2)
    names = json.dumps(shown)
    assert "Dan" not in names and "Eve" not in names and party.dan.phone not in names


def test_hosts_only_also_answers_the_counts_null_but_a_waiting_guest_keeps_their_place(client):
    party = _hosting(guest_list="hosts_only")
    shown = _detail(client, party.event_id, party.eve)
    assert _rows(shown) == party.ids(party.alice, party.cora, party.eve)
    assert (shown["attendees_count"], shown["spots_filled"]) == (None, None)
    assert shown["invitees"][-1]["waitlist_position"] == 1
    assert shown["total_spots"] == 2  # a setting of the event, not a count of people


@pytest.mark.parametrize("guest_list", ["count_only", "hosts_only"])
def test_the_list_and_the_timeline_show_a_guest_what_the_detail_shows(client, guest_list):
    party = _hosting(guest_list=guest_list, place_visibility="accepted")
    counts = (3, 2) if guest_list == "count_only" else (None, None)
    listed = body(get(client, "/events", party.bob.token))["results"]
    assert [event["id"] for event in listed] == [party.event_id]
    assert _rows(listed[0], "invitations") == party.ids(party.cora, party.bob)  # the list leaves the owner out
    assert (listed[0]["attendees_count"], listed[0]["spots_filled"]) == counts
    assert _place(listed[0]) == HIDDEN_PLACE
    [received] = body(get(client, "/events/timeline?type=received", party.bob.token))
    assert _rows(received) == party.ids(party.alice, party.cora, party.bob)
    assert (received["attendees_count"], received["spots_filled"]) == counts
    assert _place(received) == HIDDEN_PLACE


@pytest.mark.parametrize("host", ["alice", "cora"])
def test_hosts_see_every_row_the_counts_and_the_place(client, host):
    party = _hosting(guest_list="hosts_only", place_visibility="accepted")
    viewer = getattr(party, host)
    everyone = party.ids(party.alice, party.cora, party.bob, party.dan, party.eve)
    shown = _detail(client, party.event_id, viewer)
    assert _rows(shown) == everyone
    assert (shown["attendees_count"], shown["spots_filled"]) == (3, 2)
    assert shown["invitees"][-1]["waitlist_position"] == 1
    assert _place(shown) == PLACE


def test_the_edit_answer_shows_the_owner_everything(client):
    party = _hosting(guest_list="hosts_only", place_visibility="accepted")
    everyone = party.ids(party.alice, party.cora, party.bob, party.dan, party.eve)
    edited = post_json(client, f"/events/{party.event_id}", {"title": "Loft party"}, party.alice.token, method="PATCH")
    assert edited.status_code == 200, edited.body
    assert _rows(body(edited)) == everyone and _place(body(edited)) == PLACE
    assert body(edited)["attendees_count"] == 3


def test_the_create_answer_shows_the_owner_everything(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    created = post_json(
        client,
        "/events",
        {"title": "Picnic", "event_date": "2030-06-01T18:30:00Z", "invite_phone_numbers": [bob.phone],
         "guest_list": "hosts_only", "place_visibility": "accepted", **PLACE},
        alice.token,
    )  # fmt: skip
    assert created.status_code == 201, created.body
    assert _rows(body(created)) == [alice.id, bob.id]
    assert body(created)["attendees_count"] == 1 and _place(body(created)) == PLACE


def test_an_accepted_only_place_is_null_until_the_guest_accepts(client):
    party = _hosting(place_visibility="accepted")
    assert _place(_detail(client, party.event_id, party.bob)) == HIDDEN_PLACE  # no answer yet
    assert _place(_detail(client, party.event_id, party.eve)) == HIDDEN_PLACE  # waiting is not accepted
    assert _place(_detail(client, party.event_id, party.dan)) == PLACE
    # the rows and counts are not affected by the place setting
    assert _rows(_detail(client, party.event_id, party.bob)) == party.ids(
        party.alice, party.cora, party.bob, party.dan, party.eve
    )
    refused = post_json(client, f"/events/{party.event_id}/reject", {}, party.bob.token)
    assert refused.status_code == 200
    assert _place(_detail(client, party.event_id, party.bob)) == HIDDEN_PLACE  # declined
    # Dan makes room: Eve is seated from the waitlist and sees the place
    assert post_json(client, f"/events/{party.event_id}/reject", {}, party.dan.token).status_code == 200
    assert _place(_detail(client, party.event_id, party.eve)) == PLACE
    assert _place(_detail(client, party.event_id, party.dan)) == HIDDEN_PLACE  # no longer accepted


def test_a_place_without_coordinates_still_shows_an_empty_location_to_those_who_see_it(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob, venue_name="Home", place_visibility="accepted")
    assert _detail(client, event.id, bob)["location"] is None
    replies.rsvp(bob.user, event.id, accept=True, message="")
    shown = _detail(client, event.id, bob)
    assert (shown["location"], shown["venue_name"], shown["address"]) == ({}, "Home", "")


def test_messages_and_time_suggestions_stay_visible_to_a_guest_whatever_the_list_hides(client):
    party = _hosting(guest_list="hosts_only")
    said = post_json(client, f"/events/{party.event_id}/messages", {"body": "Bringing cake"}, party.dan.token)
    assert said.status_code == 201
    suggestion = {"suggested_time": "2030-06-02T18:00:00Z"}
    suggested = post_json(client, f"/events/{party.event_id}/time_suggestions", suggestion, party.dan.token)
    assert suggested.status_code == 204
    shown = _detail(client, party.event_id, party.bob)
    assert [(m["user_full_name"], m["body"]) for m in shown["messages"]] == [("Dan", "Bringing cake")]
    suggestions = body(get(client, f"/events/{party.event_id}/time_suggestions", party.bob.token))
    assert [s["user_id"] for s in suggestions] == [party.dan.id]


def test_who_has_invited_me_names_only_the_host_of_a_hidden_list(client):
    party = _hosting(guest_list="hosts_only")
    invited_me = body(get(client, "/users/who_has_invited_me", party.bob.token))
    assert [person["id"] for person in invited_me] == [party.alice.id]


def _exported(client, person: Person) -> dict:
    assert client.http.post("/users/me/export", headers={"Authorization": f"Bearer {person.token}"}).status_code == 202
    ready = body(get(client, "/users/me/export", person.token))
    return exported_file(client, ready["url"])


def test_a_guests_export_carries_no_other_guests_row_nor_a_hidden_place(client):
    party = _hosting(guest_list="hosts_only", place_visibility="accepted")
    exported = _exported(client, party.eve)
    [received] = exported["invitations_received"]
    assert received["event_id"] == party.event_id and received["waitlist_position"] == 1
    text = json.dumps(exported)
    for other in (party.bob, party.dan, party.cora):
        assert other.user.full_name not in text and other.phone not in text and str(other.id) not in text
    assert "The Loft" not in text and "5 Elm St" not in text
    # the owner's export of the same event holds every row
    [owned] = _exported(client, party.alice)["events_owned"]
    assert _rows(owned) == party.ids(party.alice, party.cora, party.bob, party.dan, party.eve)
    assert owned["attendees_count"] == 3 and _place(owned) == PLACE
