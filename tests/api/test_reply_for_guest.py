"""PUT /events/{id}/invitees/{user_id}/reply: a host records a guest's reply under the guest's own rules."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import pytest

from chalicelib.models.events import Invitation
from chalicelib.services.notifications.notification_jobs import INVITE_RSVP
from chalicelib.store.invitations import find_invitation
from tests.utils.api import body, get, post_json
from tests.utils.factories import make_event, make_person, stored_event


def reply_for(client, host, event_id, user_id, payload):
    path = f"/events/{event_id}/invitees/{user_id}/reply"
    return post_json(client, path, payload, token=host.token, method="PUT")


def rows(client, person, event_id) -> dict[int, dict]:
    shown = body(get(client, f"/events/{event_id}", token=person.token))
    return {row["user_id"]: row for row in shown["invitees"]}


def make_cohost(event_id: int, person) -> None:
    find_invitation(event_id, person.id).update(actions=[Invitation.cohost.set(True)])


def test_the_owner_marks_a_guest_going_and_the_row_says_a_host_replied(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob, total_spots=5, max_extra_guests=2)
    response = reply_for(client, alice, event.id, bob.id, {"accept": True, "extra_guests": 2})
    assert response.status_code == 200
    shown = body(response)
    assert shown["user_id"] == bob.id and shown["user_full_name"] == "Bob"
    assert shown["has_accepted_invite"] is True and shown["extra_guests"] == 2 and shown["replied_by_host"] is True
    assert stored_event(event.id).spots_filled == 3
    row = rows(client, alice, event.id)[bob.id]
    assert row["is_attending"] is True and row["replied_by_host"] is True
    # the guest answering themself clears the mark
    again = post_json(client, f"/events/{event.id}/accept", {}, token=bob.token)
    assert body(again)["replied_by_host"] is False and body(again)["extra_guests"] == 2
    assert rows(client, alice, event.id)[bob.id]["replied_by_host"] is False
    assert stored_event(event.id).spots_filled == 3


def test_a_cohost_marks_a_guest_declined_and_the_spots_come_back(client):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    event = make_event(alice, bob, carol, total_spots=5)
    make_cohost(event.id, carol)
    post_json(client, f"/events/{event.id}/accept", {"rsvp_message": "yes"}, token=bob.token)
    response = reply_for(client, carol, event.id, bob.id, {"accept": False})
    assert response.status_code == 200
    assert body(response)["has_accepted_invite"] is False and body(response)["replied_by_host"] is True
    assert body(response)["rsvp_message"] == "yes"  # the guest's own words stay
    assert stored_event(event.id).spots_filled == 0


def test_a_full_event_refuses_a_hosts_reply_as_it_would_the_guests(client):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    event = make_event(alice, bob, carol, total_spots=1)
    assert reply_for(client, alice, event.id, bob.id, {"accept": True}).status_code == 200
    response = reply_for(client, alice, event.id, carol.id, {"accept": True})
    assert response.status_code == 409 and body(response) == {"detail": "This event is full."}
    assert stored_event(event.id).spots_filled == 1
    assert find_invitation(event.id, carol.id).has_accepted is None


def test_a_full_event_with_a_waitlist_puts_the_party_in_line(client):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    event = make_event(alice, bob, carol, total_spots=1, waitlist=True)
    reply_for(client, alice, event.id, bob.id, {"accept": True})
    response = reply_for(client, alice, event.id, carol.id, {"accept": True})
    assert response.status_code == 200 and body(response)["waitlist_position"] == 1
    # declining Bob on his behalf seats Carol, as his own decline would
    reply_for(client, alice, event.id, bob.id, {"accept": False})
    row = rows(client, alice, event.id)[carol.id]
    assert row["is_attending"] is True and row["waitlist_position"] is None and row["replied_by_host"] is True


def test_extra_guests_above_the_maximum_and_a_missing_accept_are_400(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob, total_spots=5, max_extra_guests=1)
    response = reply_for(client, alice, event.id, bob.id, {"accept": True, "extra_guests": 2})
    assert response.status_code == 400 and "extra_guests" in body(response)
    response = reply_for(client, alice, event.id, bob.id, {"extra_guests": 1})
    assert response.status_code == 400 and body(response) == {"accept": ["This field is required."]}
    response = reply_for(client, alice, event.id, bob.id, {"accept": "yes"})
    assert response.status_code == 400 and list(body(response)) == ["accept"]
    assert stored_event(event.id).spots_filled == 0 and find_invitation(event.id, bob.id).has_accepted is None


def test_guests_may_not_and_strangers_see_no_event(client):
    alice, bob, carol, mallory = make_person("Alice"), make_person("Bob"), make_person("Carol"), make_person("Mal")
    event = make_event(alice, bob, carol, total_spots=5)
    assert reply_for(client, bob, event.id, carol.id, {"accept": True}).status_code == 403
    assert reply_for(client, mallory, event.id, carol.id, {"accept": True}).status_code == 404
    assert reply_for(client, alice, event.id, mallory.id, {"accept": True}).status_code == 404
    assert reply_for(client, alice, event.id, alice.id, {"accept": True}).status_code == 403  # the owner's own row
    assert find_invitation(event.id, carol.id).has_accepted is None and stored_event(event.id).spots_filled == 0


def test_the_owner_is_not_pushed_about_a_reply_a_host_made(client, monkeypatch):
    from chalicelib.messaging import notifications

    sent = []
    monkeypatch.setattr(notifications, "enqueue", lambda kind, **fields: sent.append(kind))
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob, total_spots=5)
    sent.clear()
    assert reply_for(client, alice, event.id, bob.id, {"accept": True}).status_code == 200
    assert INVITE_RSVP not in sent


@pytest.mark.parametrize("round_", range(3))
def test_a_hosts_reply_and_a_guests_own_accept_never_overfill(client, round_):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    event = make_event(alice, bob, carol, total_spots=1)
    barrier = Barrier(2)

    def host_marks_bob():
        barrier.wait()
        return reply_for(client, alice, event.id, bob.id, {"accept": True}).status_code

    def carol_accepts():
        barrier.wait()
        return post_json(client, f"/events/{event.id}/accept", {}, token=carol.token).status_code

    with ThreadPoolExecutor(max_workers=2) as pool:
        codes = sorted(f.result() for f in [pool.submit(host_marks_bob), pool.submit(carol_accepts)])
    assert codes == [200, 409]
    assert stored_event(event.id).spots_filled == 1
