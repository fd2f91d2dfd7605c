"""POST and DELETE /events/{id}/offline_guests: people without a phone a host counts in."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import pytest

from chalicelib.models.events import Invitation
from chalicelib.store.invitations import find_invitation
from tests.utils.api import body, get, post_json
from tests.utils.factories import make_event, make_person, stored_event, table_items


def add(client, host, event_id, payload):
    return post_json(client, f"/events/{event_id}/offline_guests", payload, token=host.token)


def remove(client, host, event_id, guest_id):
    path = f"/events/{event_id}/offline_guests/{guest_id}"
    return client.http.delete(path, headers={"Authorization": f"Bearer {host.token}"})


def detail(client, person, event_id) -> dict:
    return body(get(client, f"/events/{event_id}", token=person.token))


def offline_items() -> list[dict]:
    return [item for item in table_items() if item["sk"]["S"].startswith("OFF#")]


def test_a_host_counts_in_a_guest_without_a_phone(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob, total_spots=5, max_extra_guests=2)
    response = add(client, alice, event.id, {"name": "Grandma Rose", "extra_guests": 1})
    assert response.status_code == 201
    added = body(response)
    assert added["name"] == "Grandma Rose" and added["extra_guests"] == 1 and isinstance(added["id"], int)
    shown = detail(client, alice, event.id)
    assert shown["offline_guests"] == [added]
    assert shown["spots_filled"] == 2 and shown["attendees_count"] == 3  # Alice, Rose and her one
    listed = body(get(client, "/events", token=alice.token))["results"][0]
    assert listed["offline_guests"] == [added]
    # a guest counts them but does not see their names
    seen_by_bob = detail(client, bob, event.id)
    assert seen_by_bob["offline_guests"] == [] and seen_by_bob["attendees_count"] == 3


def test_a_cohost_adds_one_and_removing_it_frees_the_spots(client):
    alice, carol = make_person("Alice"), make_person("Carol")
    event = make_event(alice, carol, total_spots=2)
    find_invitation(event.id, carol.id).update(actions=[Invitation.cohost.set(True)])
    added = body(add(client, carol, event.id, {"name": "Sam"}))
    assert added["extra_guests"] == 0 and stored_event(event.id).spots_filled == 1
    assert remove(client, carol, event.id, added["id"]).status_code == 204
    assert stored_event(event.id).spots_filled == 0 and offline_items() == []
    assert detail(client, alice, event.id)["offline_guests"] == []
    assert remove(client, carol, event.id, added["id"]).status_code == 404


def test_a_full_event_refuses_an_offline_guest_even_with_a_waitlist(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob, total_spots=1, waitlist=True)
    assert post_json(client, f"/events/{event.id}/accept", {}, token=bob.token).status_code == 200
    response = add(client, alice, event.id, {"name": "Sam"})
    assert response.status_code == 409 and body(response) == {"detail": "This event is full."}
    assert offline_items() == [] and stored_event(event.id).spots_filled == 1


def test_removing_an_offline_guest_seats_the_waiting_party(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob, total_spots=1, waitlist=True)
    sam = body(add(client, alice, event.id, {"name": "Sam"}))
    waiting = body(post_json(client, f"/events/{event.id}/accept", {}, token=bob.token))
    assert waiting["waitlist_position"] == 1
    assert remove(client, alice, event.id, sam["id"]).status_code == 204
    row = next(row for row in detail(client, alice, event.id)["invitees"] if row["user_id"] == bob.id)
    assert row["is_attending"] is True and row["waitlist_position"] is None
    assert stored_event(event.id).spots_filled == 1


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({}, "name"),
        ({"name": ""}, "name"),
        ({"name": "x" * 101}, "name"),
        ({"name": "Sam\u202e"}, "name"),
        ({"name": 5}, "name"),
        ({"name": "Sam", "extra_guests": -1}, "extra_guests"),
        ({"name": "Sam", "extra_guests": 3}, "extra_guests"),  # above the event's max_extra_guests
    ],
)
def test_bad_input_is_400_by_field_and_stores_nothing(client, payload, field):
    alice = make_person("Alice")
    event = make_event(alice, total_spots=5, max_extra_guests=2)
    response = add(client, alice, event.id, payload)
    assert response.status_code == 400 and list(body(response)) == [field]
    assert offline_items() == [] and stored_event(event.id).spots_filled == 0


def test_guests_may_not_and_strangers_see_no_event(client):
    alice, bob, mallory = make_person("Alice"), make_person("Bob"), make_person("Mal")
    event = make_event(alice, bob, total_spots=5)
    assert add(client, bob, event.id, {"name": "Sam"}).status_code == 403
    assert add(client, mallory, event.id, {"name": "Sam"}).status_code == 404
    sam = body(add(client, alice, event.id, {"name": "Sam"}))
    assert remove(client, bob, event.id, sam["id"]).status_code == 403
    assert remove(client, mallory, event.id, sam["id"]).status_code == 404
    assert len(offline_items()) == 1 and stored_event(event.id).spots_filled == 1


def test_the_number_of_offline_guests_is_limited(client, monkeypatch):
    from chalicelib.services.hosting import offline_guests

    monkeypatch.setattr(offline_guests, "MAX_OFFLINE_GUESTS", 2)
    alice = make_person("Alice")
    event = make_event(alice, total_spots=10)
    assert add(client, alice, event.id, {"name": "One"}).status_code == 201
    assert add(client, alice, event.id, {"name": "Two"}).status_code == 201
    response = add(client, alice, event.id, {"name": "Three"})
    assert response.status_code == 409 and len(offline_items()) == 2


def test_parallel_offline_guests_and_accepts_never_overfill(client):
    alice = make_person("Alice")
    guests = [make_person(f"Guest {n}") for n in range(3)]
    event = make_event(alice, *guests, total_spots=3)
    barrier = Barrier(6)

    def offline(n):
        barrier.wait()
        return add(client, alice, event.id, {"name": f"Offline {n}"}).status_code

    def accept(person):
        barrier.wait()
        return post_json(client, f"/events/{event.id}/accept", {}, token=person.token).status_code

    with ThreadPoolExecutor(max_workers=6) as pool:
        futures = [pool.submit(offline, n) for n in range(3)] + [pool.submit(accept, p) for p in guests]
        codes = [future.result() for future in futures]
    assert codes.count(200) + codes.count(201) == 3 and codes.count(409) == 3
    stored = stored_event(event.id)
    assert stored.spots_filled == 3 == stored.accepted_count + int(stored.offline_spots or 0)
    assert len(offline_items()) == codes.count(201)
