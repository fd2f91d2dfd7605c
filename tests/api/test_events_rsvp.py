"""Accept, reject, capacity, spots filled by hand, and mark_seen."""

from __future__ import annotations

import pytest

from tests.utils.api import body, get, post_json
from tests.utils.factories import make_event, make_person, put, stored_event, table_items


def accept(client, person, event_id, message=None):
    payload = {} if message is None else {"rsvp_message": message}
    return post_json(client, f"/events/{event_id}/accept", payload, token=person.token)


def reject(client, person, event_id, message=None):
    payload = {} if message is None else {"rsvp_message": message}
    return post_json(client, f"/events/{event_id}/reject", payload, token=person.token)


def detail(client, person, event_id):
    return body(get(client, f"/events/{event_id}", token=person.token))


def test_accept_answers_the_invitation_and_counts_once(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob, total_spots=3)
    response = accept(client, bob, event.id, "Can't wait")
    assert response.status_code == 200
    invitation = body(response)
    assert invitation["user_id"] == bob.id and invitation["user_full_name"] == "Bob"
    assert invitation["has_accepted_invite"] is True and invitation["rsvp_message"] == "Can't wait"
    assert invitation["rsvp_time"].endswith("Z") and invitation["has_seen"] is False
    # accepting again changes the message, not the count
    assert body(accept(client, bob, event.id, "Still coming"))["rsvp_message"] == "Still coming"
    shown = detail(client, alice, event.id)
    assert shown["spots_filled"] == 1 and shown["attendees_count"] == 2
    assert shown["invitees"][1]["is_attending"] is True and shown["invitees"][1]["rsvp_message"] == "Still coming"
    assert detail(client, bob, event.id)["my_rsvp_message"] == "Still coming"


def test_reject_after_accept_frees_the_spot(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob, total_spots=1)
    accept(client, bob, event.id)
    response = reject(client, bob, event.id, "Sorry")
    assert response.status_code == 200
    assert body(response)["has_accepted_invite"] is False and body(response)["rsvp_message"] == "Sorry"
    assert stored_event(event.id).spots_filled == 0
    assert reject(client, bob, event.id).status_code == 200  # rejecting twice frees nothing more
    assert stored_event(event.id).spots_filled == 0
    shown = detail(client, bob, event.id)
    assert shown["i_am_attending"] is False and shown["attendees_count"] == 1
    assert accept(client, bob, event.id).status_code == 200
    assert stored_event(event.id).spots_filled == 1


def test_a_full_event_refuses_another_accept(client):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    event = make_event(alice, bob, carol, total_spots=1)
    assert accept(client, bob, event.id).status_code == 200
    response = accept(client, carol, event.id)
    assert response.status_code == 409
    assert body(response) == {"detail": "This event is full."}
    assert detail(client, carol, event.id)["i_am_attending"] is False
    assert stored_event(event.id).spots_filled == 1
    # bob re-accepting a full event is fine: he already holds his spot
    assert accept(client, bob, event.id).status_code == 200
    # carol may still reject
    assert reject(client, carol, event.id).status_code == 200


def test_unlimited_spots(client):
    alice = make_person("Alice")
    guests = [make_person(f"G{n}") for n in range(3)]
    event = make_event(alice, *guests)
    assert all(accept(client, guest, event.id).status_code == 200 for guest in guests)
    assert stored_event(event.id).spots_filled == 3


def test_the_owner_may_not_rsvp(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob)
    for answer in (accept, reject):
        response = answer(client, alice, event.id)
        assert response.status_code == 403
        assert body(response) == {"detail": "You do not have permission to perform this action."}


def test_rsvp_message_over_60_is_400_and_stores_nothing(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob)
    before = table_items()
    response = accept(client, bob, event.id, "x" * 61)
    assert response.status_code == 400
    assert body(response) == {"rsvp_message": ["Ensure this field has no more than 60 characters."]}
    assert table_items() == before
    assert accept(client, bob, event.id, "x" * 60).status_code == 200


def test_rsvp_after_cancel_is_409(client):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    event = make_event(alice, bob, carol)
    accept(client, carol, event.id)
    put(client, f"/events/{event.id}/cancel_event", alice.token)
    for person, answer in ((bob, accept), (bob, reject), (carol, accept), (carol, reject)):
        response = answer(client, person, event.id)
        assert response.status_code == 409
        assert body(response) == {"detail": "This event has been cancelled."}


def test_filling_spots_by_hand(client):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    event = make_event(alice, bob, carol, total_spots=3)
    accept(client, bob, event.id)
    response = post_json(client, f"/events/{event.id}", {"spot_filled": 1}, token=alice.token, method="PATCH")
    assert response.status_code == 200
    assert body(response)["spots_filled"] == 2 and body(response)["attendees_count"] == 2
    # past the total: 400, nothing changes
    before = table_items()
    response = post_json(client, f"/events/{event.id}", {"spot_filled": 2}, token=alice.token, method="PATCH")
    assert response.status_code == 400 and list(body(response)) == ["spot_filled"]
    assert table_items() == before
    # the last spot
    assert post_json(client, f"/events/{event.id}", {"spot_filled": 1}, token=alice.token).status_code == 200
    assert accept(client, carol, event.id).status_code == 409
    # a guest leaving frees a spot
    reject(client, bob, event.id)
    assert accept(client, carol, event.id).status_code == 200


@pytest.mark.parametrize("value", [0, -2, "two", None])
def test_spot_filled_must_be_a_positive_integer(client, value):
    alice = make_person("Alice")
    event = make_event(alice)
    response = post_json(client, f"/events/{event.id}", {"spot_filled": value}, token=alice.token, method="PATCH")
    assert response.status_code == 400 and list(body(response)) == ["spot_filled"]


def test_mark_seen(client):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    event = make_event(alice, bob, carol)
    shown = detail(client, bob, event.id)
    bobs = next(i for i in shown["invitees"] if i["user_id"] == bob.id)
    carols = next(i for i in shown["invitees"] if i["user_id"] == carol.id)
    assert bobs["has_seen"] is False
    response = put(client, f"/events/{event.id}/invitations/{bobs['id']}/mark_seen", bob.token)
    assert response.status_code == 200
    assert body(response)["id"] == bobs["id"] and body(response)["has_seen"] is True
    assert body(response)["user_id"] == bob.id
    assert next(i for i in detail(client, alice, event.id)["invitees"] if i["user_id"] == bob.id)["has_seen"] is True
    # again: still 200
    assert put(client, f"/events/{event.id}/invitations/{bobs['id']}/mark_seen", bob.token).status_code == 200
    # someone else's invitation: 403, for a guest and for the owner
    assert put(client, f"/events/{event.id}/invitations/{carols['id']}/mark_seen", bob.token).status_code == 403
    assert put(client, f"/events/{event.id}/invitations/{carols['id']}/mark_seen", alice.token).status_code == 403
    # an invitation of another event: 404
    other = make_event(alice, bob)
    other_inv = next(i for i in detail(client, bob, other.id)["invitees"] if i["user_id"] == bob.id)
    assert put(client, f"/events/{event.id}/invitations/{other_inv['id']}/mark_seen", bob.token).status_code == 404
    assert put(client, f"/events/{event.id}/invitations/12345/mark_seen", bob.token).status_code == 404
    assert put(client, f"/events/{event.id}/invitations/abc/mark_seen", bob.token).status_code == 404


def test_rsvp_call_counts(client, aws, override_settings):
    from tests.utils.notifications import use_queue

    use_queue(override_settings)  # the owner's push is sent by the queue handler, not counted here
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob)
    aws.reset()
    assert accept(client, bob, event.id).status_code == 200
    # auth + one BatchGetItem of the invitation and META + one TransactWriteItems
    assert aws.of("dynamodb") == {"BatchGetItem": 2, "TransactWriteItems": 1}
