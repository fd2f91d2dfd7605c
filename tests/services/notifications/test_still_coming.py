""" "Still coming?" before an event's start, run as deployed (conftest's ``hours``): the ask by push or text, the
answer by the app's route, and the release of unconfirmed spots to those waiting, raced against confirms."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

from chalicelib.errors import Conflict
from chalicelib.models.events import META_SK, Event, Invitation, WaitlistEntry, event_pk, invitation_sk
from chalicelib.services.notifications import attendance_steps
from chalicelib.services.replies import attendance, replies
from chalicelib.store import waitlist as waitlist_store
from tests.utils.api import body, get, post_json, texts_to
from tests.utils.factories import make_event, make_person
from tests.utils.inbound_sms import reply
from tests.utils.notifications import add_device, pushes
from tests.utils.races import race, waiting_after_first_call

ZONE = "America/New_York"
START = datetime(2030, 1, 12, 23, 0, tzinfo=UTC)  # Sat, Jan 12 at 6:00 PM EST
ASK = START - timedelta(hours=24)
RELEASE = START - timedelta(hours=3)


def _asks(person) -> list[str]:
    return [text for text in texts_to(person.phone) if "Still coming" in text]


def _released(person) -> list[str]:
    return [text for text in texts_to(person.phone) if "We gave your spot" in text]


def _invitation(event_id: int, person) -> Invitation:
    return Invitation.get(event_pk(event_id), invitation_sk(person.id), consistent_read=True)


def _answer(client, event, person, confirmed):
    return post_json(client, f"/events/{event.id}/attendance", {"confirmed": confirmed}, person.token)


def test_going_parties_are_asked_once_by_text_or_push_and_hosts_see_the_answers(aws, hours, client):
    alice = make_person("Alice")
    texted, app_user, silent = make_person("", active=False), make_person("Dan"), make_person("", active=False)
    event = make_event(
        alice, texted, app_user, silent, title="Gala", when=START, time_zone=ZONE, confirm_attendance=True
    )
    endpoint = add_device(app_user, "a" * 64)
    for person in (texted, app_user):
        replies.rsvp(person.user, event.id, accept=True, message=None)
    hours.now = ASK
    hours.run()
    [text] = _asks(texted)
    assert text.startswith('Invites: Still coming to "Gala", Sat, Jan 12 at 6:00 PM EST? https://')
    assert text.endswith(" Reply STOP to opt out.")
    assert _asks(silent) == []
    [push] = pushes(endpoint)
    assert "Still coming?" in push["aps"]["alert"]["body"]
    hours.now += timedelta(hours=1)
    hours.run()
    assert len(_asks(texted)) == 1 and len(pushes(endpoint)) == 1
    # the app user confirms: the hosts see it, the guests do not
    confirmed = _answer(client, event, app_user, True)
    assert confirmed.status_code == 200
    assert body(confirmed) == {"attendance_confirmed": True, "has_accepted_invite": True, "answer": "going"}
    assert body(_answer(client, event, app_user, True)) == body(confirmed)  # again: unchanged
    hosted = body(get(client, f"/events/{event.id}", alice.token))
    assert hosted["confirmed_count"] == 1 and hosted["confirm_attendance"] is True and hosted["confirm_hours"] == 24
    rows = {row["user_id"]: row["attendance_confirmed"] for row in hosted["invitees"] if row["user_id"] != alice.id}
    assert rows == {app_user.id: True, texted.id: None, silent.id: None}
    seen = body(get(client, f"/events/{event.id}", app_user.token))
    assert seen["confirmed_count"] is None and all("attendance_confirmed" not in row for row in seen["invitees"])


def _release_party():
    """Alice's 2-spot event: Bob confirmed, Carol (texted) did not, Dave waits."""
    alice, bob, dave = make_person("Alice"), make_person("Bob"), make_person("Dave")
    carol = make_person("", active=False)
    event = make_event(
        alice, bob, carol, dave, title="Supper", when=START, time_zone=ZONE, total_spots=2, waitlist=True,
        confirm_attendance=True, release_unconfirmed=True,
    )  # fmt: skip
    for person in (bob, carol, dave):
        replies.rsvp(person.user, event.id, accept=True, message=None)
    attendance.confirm_attendance(event, _invitation(event.id, bob))
    return alice, bob, carol, dave, event


def test_unconfirmed_parties_give_their_spots_to_those_waiting_and_wait_first_in_line(aws, hours):
    _alice, bob, carol, dave, event = _release_party()
    hours.now = ASK
    hours.run()
    hours.now = RELEASE - timedelta(hours=1)
    hours.run()
    assert _invitation(event.id, carol).has_accepted is True
    hours.now = RELEASE
    hours.run()
    assert _invitation(event.id, dave).has_accepted is True  # seated from the line
    released = _invitation(event.id, carol)
    assert (released.has_accepted, released.attendance_confirmed) == (None, False)
    assert _invitation(event.id, bob).has_accepted is True
    [text] = _released(carol)
    assert text.startswith('Invites: "Supper": We gave your spot to someone waiting, since we didn\'t hear back.')
    stored = Event.get(event_pk(event.id), META_SK, consistent_read=True)
    assert (stored.spots_filled, stored.accepted_count, stored.waiting_count) == (2, 2, 1)
    assert [party.user_id for party in waitlist_store.whole_line(event.id)] == [carol.id]
    # again (the next run, a redelivery): nobody moved or told twice
    hours.now += timedelta(hours=1)
    hours.run()
    assert len(_released(carol)) == 1


def test_a_released_party_waits_ahead_of_everyone_already_in_line(aws, hours):
    alice, bob, dave, frank = make_person("Alice"), make_person("Bob"), make_person("Dave"), make_person("Frank")
    carol = make_person("", active=False)
    event = make_event(
        alice, bob, carol, dave, frank, title="Supper", when=START, time_zone=ZONE, total_spots=3, waitlist=True,
        confirm_attendance=True, release_unconfirmed=True, max_extra_guests=2,
    )  # fmt: skip
    for person in (bob, carol):
        replies.rsvp(person.user, event.id, accept=True, message=None)
    replies.rsvp(dave.user, event.id, accept=True, message=None, extra_guests=2)  # a party of 3 waits first
    replies.rsvp(frank.user, event.id, accept=True, message=None)
    attendance.confirm_attendance(event, _invitation(event.id, bob))
    hours.now = RELEASE
    hours.run()
    # Carol's spot and the one left do not seat Dave's party of 3, first in line, and the line does not skip
    # him: Carol waits ahead of both
    assert [party.user_id for party in waitlist_store.whole_line(event.id)] == [carol.id, dave.id, frank.id]
    assert len(_released(carol)) == 1
    entries = WaitlistEntry.query(event_pk(event.id), WaitlistEntry.sk.startswith("WAIT#"), consistent_read=True)
    assert len(list(entries)) == 3


def test_nobody_is_released_when_nobody_waits(aws, hours):
    alice, carol = make_person("Alice"), make_person("", active=False)
    event = make_event(
        alice, carol, when=START, time_zone=ZONE, confirm_attendance=True, release_unconfirmed=True, waitlist=True
    )
    replies.rsvp(carol.user, event.id, accept=True, message=None)
    hours.now = RELEASE
    hours.run()
    assert _invitation(event.id, carol).has_accepted is True and _released(carol) == []


def test_a_confirm_racing_the_release_either_keeps_the_seat_or_loses_it_with_exact_counters(aws, hours, monkeypatch):
    loaded = attendance_steps.load_partition
    for _round in range(3):
        _alice, _bob, carol, dave, event = _release_party()
        barrier = threading.Barrier(2, timeout=10)  # both read before either writes
        monkeypatch.setattr(attendance_steps, "load_partition", waiting_after_first_call(loaded, barrier))
        read_carol = waiting_after_first_call(_invitation, barrier)
        outcomes: list[str] = []

        def act(n: int, event=event, carol=carol, read_carol=read_carol, outcomes=outcomes) -> None:
            if n == 0:
                hours.now = RELEASE
                hours.run()
                return
            try:
                attendance.confirm_attendance(event, read_carol(event.id, carol))
                outcomes.append("confirmed")
            except Conflict:
                outcomes.append("late")

        assert race(act, 2, refused=()) == ["ok", "ok"]
        stored = Event.get(event_pk(event.id), META_SK, consistent_read=True)
        kept = _invitation(event.id, carol)
        assert (stored.spots_filled, stored.waiting_count) == (2, 1)
        if kept.has_accepted is True:  # the confirm landed first: nobody moved
            assert outcomes == ["confirmed"] and kept.attendance_confirmed is True and _released(carol) == []
            assert _invitation(event.id, dave).wait_key
        else:  # the release landed first: the confirm was refused, Dave has the spot
            assert outcomes == ["late"] and kept.attendance_confirmed is False and len(_released(carol)) == 1
            assert _invitation(event.id, dave).has_accepted is True


def test_a_texted_guest_confirms_by_replying_1_and_frees_the_spot_by_replying_2(aws, hours, override_settings):
    override_settings(sms_two_way="true")
    alice = make_person("Alice")
    keeps, leaves = make_person("", active=False), make_person("", active=False)
    event = make_event(alice, keeps, leaves, title="Gala", when=START, time_zone=ZONE, confirm_attendance=True)
    for person in (keeps, leaves):
        replies.rsvp(person.user, event.id, accept=True, message=None)
    hours.now = ASK
    hours.run()
    for person in (keeps, leaves):
        [ask] = _asks(person)
        assert ask.endswith(" Reply 1 to confirm, 2 to free your spot. Reply STOP to opt out.")
    # the reminder went out in the same hour, after the ask: a reply to it answers the ask as well
    reply(keeps.phone, "1")
    reply(leaves.phone, "2")
    assert _invitation(event.id, keeps).attendance_confirmed is True
    assert _invitation(event.id, leaves).has_accepted is False
    assert texts_to(keeps.phone)[-1].startswith('Invites: You\'re going to "Gala"')
    assert texts_to(leaves.phone)[-1] == 'Invites: You\'re not going to "Gala". Reply 1 if that changes.'
