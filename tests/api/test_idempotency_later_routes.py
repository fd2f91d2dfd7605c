"""Idempotency-Key on the POSTs the later extensions added: maybe, "still coming?", check-in at the door, a
new calendar link, declining a join request. A repeat with the key answers the first answer again
(Idempotent-Replayed: true) and does nothing else, even when something changed in between; the same key with
another body is 422 and changes nothing."""

from __future__ import annotations

import re

from chalicelib.services.replies import replies
from chalicelib.store import join_links as stored_join_links
from chalicelib.store.invitations import find_invitation
from chalicelib.timeutil import utcnow
from tests.utils.api import body, get, post_json
from tests.utils.factories import future, make_event, make_person, stored_event
from tests.utils.idempotency import assert_replayed as _replayed
from tests.utils.idempotency import send_with_key

REUSED = {"detail": "This Idempotency-Key was used with another request."}


def _post(client, path, person, key, payload=None):
    return send_with_key(client, "POST", path, person, key, payload)


def test_a_repeated_maybe_does_not_undo_the_accept_that_came_after_it(client):
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest, total_spots=5)
    path = f"/events/{event.id}/maybe"
    first = _post(client, path, guest, "maybe-1", {"rsvp_message": "Perhaps"})
    assert body(first)["answer"] == "maybe"
    assert post_json(client, f"/events/{event.id}/accept", {}, guest.token).status_code == 200
    again = _post(client, path, guest, "maybe-1", {"rsvp_message": "Perhaps"})
    _replayed(first, again, 200)
    assert find_invitation(event.id, guest.user.id).has_accepted is True
    assert stored_event(event.id).spots_filled == 1
    other = _post(client, path, guest, "maybe-1", {"rsvp_message": "Probably not"})
    assert (other.status_code, body(other)) == (422, REUSED)
    assert find_invitation(event.id, guest.user.id).has_accepted is True


def test_a_repeated_decline_of_attendance_does_not_undo_the_guests_new_accept(client):
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest, when=future(days=30), total_spots=5, confirm_attendance=True)
    replies.rsvp(guest.user, event.id, accept=True, message=None)
    path = f"/events/{event.id}/attendance"
    first = _post(client, path, guest, "still-1", {"confirmed": False})
    assert body(first)["has_accepted_invite"] is False
    assert post_json(client, f"/events/{event.id}/accept", {}, guest.token).status_code == 200
    again = _post(client, path, guest, "still-1", {"confirmed": False})
    _replayed(first, again, 200)
    assert find_invitation(event.id, guest.user.id).has_accepted is True
    assert stored_event(event.id).spots_filled == 1
    other = _post(client, path, guest, "still-1", {"confirmed": True})
    assert (other.status_code, body(other)) == (422, REUSED)
    assert find_invitation(event.id, guest.user.id).attendance_confirmed is not True


def test_a_repeated_check_in_does_not_check_in_again_after_an_undo(client):
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest, total_spots=5)
    replies.rsvp(guest.user, event.id, accept=True, message=None)
    path = f"/events/{event.id}/check_ins"
    first = _post(client, path, owner, "door-1", {"user_id": guest.user.id})
    assert body(first)["checked_in_at"] is not None
    undone = client.http.delete(f"{path}?user_id={guest.user.id}", headers={"Authorization": f"Bearer {owner.token}"})
    assert undone.status_code == 200 and body(undone)["checked_in_at"] is None
    again = _post(client, path, owner, "door-1", {"user_id": guest.user.id})
    _replayed(first, again, 200)
    assert find_invitation(event.id, guest.user.id).checked_in_at is None
    assert body(get(client, f"/events/{event.id}", owner.token))["checked_in_count"] == 0
    other = _post(client, path, owner, "door-1", {"code": "1.aaaaaaaaaaaaaaaaaaaaaa"})
    assert (other.status_code, body(other)) == (422, REUSED)


def test_a_repeated_calendar_link_request_answers_the_first_link_and_makes_no_second(client):
    person = make_person("Cal Endar")
    first = _post(client, "/users/me/calendar_feed", person, "feed-1")
    again = _post(client, "/users/me/calendar_feed", person, "feed-1")
    _replayed(first, again, 200)
    url = body(first)["url"]
    path = re.sub(r"^https?://[^/]+", "", url)
    assert client.http.get(path).status_code == 200  # the first link was not replaced by the repeat
    newer = _post(client, "/users/me/calendar_feed", person, "feed-2")
    assert body(newer)["url"] != url and client.http.get(path).status_code == 404


def test_a_repeated_decline_of_a_join_request_answers_again_and_removes_a_new_request_never(client):
    owner, asker = make_person("Owner"), make_person("Asker")
    event = make_event(owner, join_mode="approval")
    stored_join_links.save_request(event.id, asker.user.id, utcnow(), most_pending=10)
    path = f"/events/{event.id}/join_requests/{asker.user.id}/decline"
    first = _post(client, path, owner, "decline-1")
    stored_join_links.save_request(event.id, asker.user.id, utcnow(), most_pending=10)  # they ask again
    again = _post(client, path, owner, "decline-1")
    _replayed(first, again, 204)
    pending = body(get(client, f"/events/{event.id}/join_requests", owner.token))
    assert [row["user_id"] for row in pending] == [asker.user.id]
