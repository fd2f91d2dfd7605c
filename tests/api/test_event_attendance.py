"""POST /events/{id}/attendance and the event fields of reminders and "still coming?" over HTTP: answers,
field errors, what is stored, and the fields carried by a clone."""

from __future__ import annotations

from chalicelib.models.events import META_SK, Event, Invitation, event_pk, invitation_sk
from chalicelib.services.replies import replies
from tests.utils.api import body, post_json
from tests.utils.factories import future, make_event, make_person

START = future(days=30)


def _invitation(event_id: int, person) -> Invitation:
    return Invitation.get(event_pk(event_id), invitation_sk(person.id), consistent_read=True)


def _answer(client, event, person, confirmed):
    return post_json(client, f"/events/{event.id}/attendance", {"confirmed": confirmed}, person.token)


def test_confirming_needs_a_seat_and_declining_frees_it_for_the_line(aws, client):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    event = make_event(alice, bob, carol, when=START, total_spots=1, waitlist=True, confirm_attendance=True)
    replies.rsvp(bob.user, event.id, accept=True, message=None)
    replies.rsvp(carol.user, event.id, accept=True, message=None)  # full: Carol waits
    waiting = _answer(client, event, carol, True)
    assert (waiting.status_code, body(waiting)) == (409, {"detail": "Only a guest who is going can confirm."})
    owner = _answer(client, event, alice, True)
    assert owner.status_code == 403
    declined = _answer(client, event, bob, False)
    assert (declined.status_code, body(declined)) == (
        200, {"attendance_confirmed": None, "has_accepted_invite": False, "answer": "declined"}
    )  # fmt: skip
    assert _invitation(event.id, carol).has_accepted is True  # the line moved
    confirmed = _answer(client, event, carol, True)
    assert body(confirmed) == {"attendance_confirmed": True, "has_accepted_invite": True, "answer": "going"}
    stored = Event.get(event_pk(event.id), META_SK, consistent_read=True)
    assert (stored.spots_filled, stored.waiting_count) == (1, 0)


def test_bad_answers_and_settings_are_field_errors(aws, client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob, when=START)
    for sent in ({}, {"confirmed": "yes"}):
        refused = post_json(client, f"/events/{event.id}/attendance", sent, bob.token)
        assert refused.status_code == 400 and list(body(refused)) == ["confirmed"]
    bad = {"reminder_hours": 169, "confirm_hours": 0, "confirm_attendance": "on", "release_unconfirmed": 1}
    edited = post_json(client, f"/events/{event.id}", bad, alice.token, method="PATCH")
    assert edited.status_code == 400
    assert set(body(edited)) == set(bad)
    stored = Event.get(event_pk(event.id), META_SK, consistent_read=True)
    assert stored.reminder_hours == 24 and not stored.confirm_attendance
    fine = post_json(
        client, f"/events/{event.id}", {"reminder_hours": 0, "confirm_hours": 72}, alice.token, method="PATCH"
    )
    assert (body(fine)["reminder_hours"], body(fine)["confirm_hours"]) == (0, 72)


def test_the_settings_are_stored_shown_and_carried_by_a_clone(aws, client):
    alice = make_person("Alice")
    settings = {"reminder_hours": 0, "confirm_attendance": True, "confirm_hours": 48, "release_unconfirmed": True}
    created = post_json(
        client, "/events", {"title": "Gala", "event_date": "2031-05-01T18:00:00Z", **settings}, alice.token
    )
    assert created.status_code == 201 and {name: body(created)[name] for name in settings} == settings
    cloned = post_json(
        client, f"/events/{body(created)['id']}/clone", {"event_date": "2031-06-01T18:00:00Z"}, alice.token
    )
    assert cloned.status_code == 201 and {name: body(cloned)[name] for name in settings} == settings
    plain = post_json(client, "/events", {"title": "Tea", "event_date": "2031-05-01T18:00:00Z"}, alice.token)
    assert {name: body(plain)[name] for name in settings} == {
        "reminder_hours": 24, "confirm_attendance": False, "confirm_hours": 24, "release_unconfirmed": False
    }  # fmt: skip
