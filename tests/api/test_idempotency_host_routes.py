"""Idempotency-Key on the hosts' routes that change an event: offline guests, co-host appointments, join
links, approving a join request, replies on someone's behalf. A repeat with the key answers the first
answer again (Idempotent-Replayed: true) and does nothing else, whatever happened in between."""

from __future__ import annotations

from chalicelib.services.participants import cohosts
from chalicelib.store import join_links as stored_join_links
from chalicelib.store.invitations import find_invitation
from chalicelib.timeutil import utcnow
from tests.utils.api import body, get, post_json
from tests.utils.factories import make_event, make_person, stored_event
from tests.utils.idempotency import assert_replayed as _replayed
from tests.utils.idempotency import send_with_key as _send


def test_a_repeated_offline_guest_is_added_once(client):
    owner = make_person("Owner")
    event = make_event(owner, total_spots=10)
    path = f"/events/{event.id}/offline_guests"
    first = _send(client, "POST", path, owner, "offline-1", {"name": "Grandpa Joe", "extra_guests": 0})
    again = _send(client, "POST", path, owner, "offline-1", {"name": "Grandpa Joe", "extra_guests": 0})
    _replayed(first, again, 201)
    shown = body(get(client, f"/events/{event.id}", owner.token))
    assert [guest["name"] for guest in shown["offline_guests"]] == ["Grandpa Joe"]
    assert stored_event(event.id).offline_count == 1
    other = _send(client, "POST", path, owner, "offline-1", {"name": "Grandma Rose", "extra_guests": 0})
    assert other.status_code == 422


def test_a_repeated_appointment_after_the_role_ended_appoints_nobody(client):
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest)
    path = f"/events/{event.id}/cohosts/{guest.user.id}"
    first = _send(client, "PUT", path, owner, "appoint-1")
    cohosts.end(owner.user, event.id, guest.user.id)
    again = _send(client, "PUT", path, owner, "appoint-1")
    _replayed(first, again, 200)
    assert not find_invitation(event.id, guest.user.id).cohost and not stored_event(event.id).cohost_count


def test_a_repeated_join_link_keeps_the_link_it_answered(client):
    owner, friend = make_person("Owner"), make_person("Friend")
    event = make_event(owner, join_mode="open")
    path = f"/events/{event.id}/join_link"
    first = _send(client, "POST", path, owner, "link-1")
    again = _send(client, "POST", path, owner, "link-1")
    _replayed(first, again, 200)
    code = body(first)["url"].rsplit("/j/", 1)[1]
    joined = post_json(client, "/events/join", {"code": code}, friend.token)
    assert joined.status_code == 200 and body(joined)["id"] == event.id  # the first link still opens the event


def test_a_repeated_approval_answers_again_without_a_second_approval(client, monkeypatch):
    owner, asker = make_person("Owner"), make_person("Asker")
    event = make_event(owner, join_mode="approval")
    stored_join_links.save_request(event.id, asker.user.id, utcnow(), most_pending=10)
    path = f"/events/{event.id}/join_requests/{asker.user.id}/approve"
    first = _send(client, "POST", path, owner, "approve-1")
    again = _send(client, "POST", path, owner, "approve-1")
    _replayed(first, again, 204)
    assert find_invitation(event.id, asker.user.id) is not None
    assert stored_event(event.id).invitee_count == 1


def test_a_repeated_reply_for_a_guest_does_not_undo_the_guests_own_answer(client):
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest, total_spots=5)
    path = f"/events/{event.id}/invitees/{guest.user.id}/reply"
    first = _send(client, "PUT", path, owner, "reply-1", {"accept": True})
    assert post_json(client, f"/events/{event.id}/reject", {}, guest.token).status_code == 200
    again = _send(client, "PUT", path, owner, "reply-1", {"accept": True})
    _replayed(first, again, 200)
    stored = find_invitation(event.id, guest.user.id)
    assert stored.has_accepted is False and not stored.replied_by_host
    assert stored_event(event.id).spots_filled == 0
