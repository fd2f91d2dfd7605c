"""Races the earlier race tests left out: accept against cancel, and one guest's accept against reject."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

from chalicelib.errors import Conflict
from chalicelib.services import event_reads, events, replies
from tests.utils.factories import make_event, make_person, stored_event


def _together(*actions):
    barrier = Barrier(len(actions))

    def run(action):
        barrier.wait()
        try:
            action()
            return "ok"
        except Conflict as exc:
            return exc.body["detail"]

    with ThreadPoolExecutor(max_workers=len(actions)) as pool:
        return list(pool.map(run, actions))


def _accepted(event_id: int) -> int:
    view = event_reads.load_partition(event_id)
    return sum(1 for inv in view.invitations if inv.role == events.GUEST and inv.has_accepted is True)


def test_accepts_racing_a_cancel_never_land_after_it(aws):
    for _ in range(5):
        owner = make_person("Owner")
        guests = [make_person(f"Guest {n}") for n in range(4)]
        event = make_event(owner, *guests, total_spots=3)
        outcomes = _together(
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
                assert exc.body == {"detail": event_reads.EVENT_CANCELLED}


def test_one_guests_accepts_and_rejects_in_parallel_leave_the_count_true_to_the_last_reply(aws):
    owner, guest = make_person("Owner"), make_person("Guest")
    event = make_event(owner, guest, total_spots=1)
    for round_ in range(10):
        answers = [n % 2 == round_ % 2 for n in range(8)]
        outcomes = _together(*[lambda a=a: replies.rsvp(guest.user, event.id, accept=a, message="") for a in answers])
        assert outcomes == ["ok"] * 8
        reply = event_reads.load_partition(event.id).invitation_of(guest.id).has_accepted
        stored = stored_event(event.id)
        assert stored.spots_filled == stored.accepted_count == (1 if reply is True else 0)
