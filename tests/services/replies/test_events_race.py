"""Parallel RSVPs at the service layer, against each other, a cancel and spots filled by hand
(chalice.test.Client shares current_request between threads)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

from chalicelib.api.error_responses import body_of
from chalicelib.errors import Conflict, ValidationError
from chalicelib.services.hosting import events
from chalicelib.services.participants import event_reads
from chalicelib.services.replies import replies
from tests.utils.factories import make_event, make_person, stored_event
from tests.utils.races import race


def _race(people, function):
    barrier = Barrier(len(people))

    def run(person):
        barrier.wait()
        try:
            function(person)
            return "ok"
        except Conflict as exc:
            return body_of(exc)["detail"]
        except ValidationError as exc:
            return body_of(exc)

    with ThreadPoolExecutor(max_workers=len(people)) as pool:
        return list(pool.map(run, people))


def _race_actions(*actions):
    """Run ``actions`` at once; each one's outcome as ``_race`` reports it."""
    return _race(actions, lambda action: action())


def test_20_parallel_accepts_on_5_spots_fill_exactly_5(aws):
    # GIVEN an event with 5 spots and 20 invitees
    owner = make_person("Owner")
    guests = [make_person(f"Guest {n}") for n in range(20)]
    event = make_event(owner, *guests, total_spots=5)
    # WHEN all 20 accept at once
    outcomes = _race(guests, lambda guest: replies.rsvp(guest.user, event.id, accept=True, message="me!"))
    # THEN exactly 5 succeed, the others are told the event is full, and 5 spots are filled
    assert outcomes.count("ok") == 5
    assert outcomes.count("This event is full.") == 15
    stored = stored_event(event.id)
    assert stored.spots_filled == 5 and stored.accepted_count == 5
    view = event_reads.get_event(owner.user, event.id)
    assert sum(1 for inv in view.invitations if inv.role == "guest" and inv.has_accepted) == 5


def test_one_guest_accepting_in_parallel_counts_once(aws):
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest, total_spots=5)
    outcomes = _race([guest] * 8, lambda person: replies.rsvp(person.user, event.id, accept=True, message=""))
    assert outcomes == ["ok"] * 8
    assert stored_event(event.id).spots_filled == 1


def test_accepts_racing_spots_filled_by_hand_never_overfill(aws):
    owner = make_person("Owner")
    guests = [make_person(f"Guest {n}") for n in range(6)]
    event = make_event(owner, *guests, total_spots=4)

    def act(person):
        if person is owner:
            events.update_event(owner.user, event.id, events.EventInput(spot_filled=2))
        else:
            replies.rsvp(person.user, event.id, accept=True, message="")

    outcomes = _race([owner, *guests], act)
    stored = stored_event(event.id)
    assert stored.spots_filled == stored.accepted_count + stored.spots_filled_by_hand <= 4
    assert outcomes.count("ok") == stored.accepted_count + (1 if stored.spots_filled_by_hand else 0)


def _accepted(event_id: int) -> int:
    view = event_reads.load_partition(event_id)
    return sum(1 for inv in view.invitations if inv.role == events.GUEST and inv.has_accepted is True)


def test_accepts_racing_a_cancel_never_land_after_it(aws):
    for _ in range(5):
        owner = make_person("Owner")
        guests = [make_person(f"Guest {n}") for n in range(4)]
        event = make_event(owner, *guests, total_spots=3)
        outcomes = _race_actions(
            lambda owner=owner, event_id=event.id: events.cancel_event(owner.user, event_id),
            *[lambda g=g, event_id=event.id: replies.rsvp(g.user, event_id, accept=True, message="") for g in guests],
        )
        assert outcomes[0] == "ok"
        assert set(outcomes[1:]) <= {"ok", event_reads.EVENT_CANCELLED, replies.EVENT_FULL}
        stored = stored_event(event.id)
        # every accept told "ok" is stored and counted, every refused one is not, and nothing overfills
        assert stored.cancelled is True
        assert outcomes[1:].count("ok") == _accepted(event.id) == stored.accepted_count == stored.spots_filled <= 3
        # after the cancel, any reply is 409
        for guest in guests:
            try:
                replies.rsvp(guest.user, event.id, accept=False, message="")
                raise AssertionError("a reply after the cancel was taken")
            except Conflict as exc:
                assert body_of(exc) == {"detail": event_reads.EVENT_CANCELLED}


def test_one_guests_accepts_and_rejects_in_parallel_leave_the_count_true_to_the_last_reply(aws):
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest, total_spots=1)
    for round_ in range(10):
        answers = [n % 2 == round_ % 2 for n in range(8)]
        replying = [lambda a=a: replies.rsvp(guest.user, event.id, accept=a, message="") for a in answers]
        outcomes = _race_actions(*replying)
        assert outcomes == ["ok"] * 8
        reply = event_reads.load_partition(event.id).invitation_of(guest.id).has_accepted
        stored = stored_event(event.id)
        assert stored.spots_filled == stored.accepted_count == (1 if reply is True else 0)


def test_parallel_edits_each_grow_the_calendar_sequence_once(aws):
    owner = make_person("Owner")
    event = make_event(owner, title="Start")
    results = race(
        lambda n: events.update_event(owner.user, event.id, events.EventInput(title=f"Title {n}")), 8, refused=Conflict
    )
    assert results == ["ok"] * 8
    stored = stored_event(event.id)
    assert stored.calendar_sequence == 8 and stored.title.startswith("Title ")
