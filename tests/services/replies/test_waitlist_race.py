"""The waitlist under parallel accepts, declines and edits (threads against moto in-process): never
overfilled, the line in arrival order, nobody seated twice, counters equal to the items."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import pytest

from chalicelib.api.error_responses import body_of
from chalicelib.errors import Conflict
from chalicelib.messaging import notifications
from chalicelib.models.events import WAIT_PREFIX, EventsTable, event_pk
from chalicelib.services.hosting import events
from chalicelib.services.notifications.notification_jobs import WAITLIST_PROMOTED
from chalicelib.services.replies import replies
from chalicelib.services.replies.waitlist import spots_left
from chalicelib.store.events import load_partition
from tests.utils.factories import make_event, make_person, stored_event


def _race(actions) -> list[str]:
    barrier = Barrier(len(actions))

    def run(action):
        barrier.wait()
        try:
            action()
            return "ok"
        except Conflict as exc:
            return body_of(exc)["detail"]

    with ThreadPoolExecutor(max_workers=len(actions)) as pool:
        return list(pool.map(run, actions))


@pytest.fixture
def promotions(monkeypatch) -> list[int]:
    """The user ids of every ``waitlist_promoted`` message handed over, across all threads."""
    seated: list[int] = []
    handed = notifications.enqueue

    def recording(message_type, **fields):
        if message_type == WAITLIST_PROMOTED:
            seated.extend(fields["user_ids"])
        return handed(message_type, **fields)

    monkeypatch.setattr(notifications, "enqueue", recording)
    return seated


def check_consistent(event_id: int) -> None:
    """spots_filled is what the accepted parties and the spots filled by hand hold, within the total; the
    WAIT# items, waiting_count and the invitations' places agree; the head of the line does not fit."""
    view = load_partition(event_id)
    event = view.event
    guests = [inv for inv in view.invitations if inv.role == "guest"]
    seated = sum(1 + int(inv.extra_guests or 0) for inv in guests if inv.has_accepted is True)
    assert event.spots_filled == event.accepted_count + event.spots_filled_by_hand
    assert event.accepted_count == seated
    assert event.total_spots == 0 or event.spots_filled <= event.total_spots
    line = [item for item in EventsTable.query(event_pk(event_id), EventsTable.sk.startswith(WAIT_PREFIX))]
    waiting = sorted((inv for inv in guests if inv.wait_key), key=lambda inv: inv.wait_key)
    assert [item.sk for item in line] == [inv.wait_key for inv in waiting]
    assert [item.user_id for item in line] == [inv.user_id for inv in waiting]
    assert event.waiting_count == len(line)
    assert all(inv.has_accepted is None for inv in waiting)
    if line:
        assert 1 + int(line[0].extra_guests or 0) > spots_left(event)


def test_24_parallel_accepts_on_5_spots_seat_5_and_line_up_19_in_arrival_order(aws):
    owner = make_person("Owner")
    guests = [make_person(f"Guest {n}") for n in range(24)]
    event = make_event(owner, *guests, total_spots=5, waitlist=True)
    answers: dict[int, replies.Reply] = {}

    def accept(guest):
        answers[guest.id] = replies.rsvp(guest.user, event.id, accept=True, message="")

    outcomes = _race([lambda g=g: accept(g) for g in guests])
    assert outcomes == ["ok"] * 24
    seated = [uid for uid, reply in answers.items() if reply.invitation.has_accepted is True]
    waiting = {uid: reply for uid, reply in answers.items() if reply.waitlist_position is not None}
    assert len(seated) == 5 and len(waiting) == 19
    # every place given once, and places follow the arrival keys
    assert sorted(reply.waitlist_position for reply in waiting.values()) == list(range(1, 20))
    by_arrival = sorted(waiting.values(), key=lambda reply: reply.invitation.wait_key)
    assert [reply.waitlist_position for reply in by_arrival] == list(range(1, 20))
    assert stored_event(event.id).spots_filled == 5
    check_consistent(event.id)


def test_parallel_declines_accepts_and_edits_never_overfill_nor_seat_anyone_twice(aws, promotions):
    owner = make_person("Owner")
    seated = [make_person(f"Seated {n}") for n in range(6)]
    waiting = [make_person(f"Waiting {n}") for n in range(10)]
    late = [make_person(f"Late {n}") for n in range(6)]
    event = make_event(owner, *seated, *waiting, *late, total_spots=6, waitlist=True, max_extra_guests=2)
    for guest in seated:
        replies.rsvp(guest.user, event.id, accept=True, message="")
    for n, guest in enumerate(waiting):
        replies.rsvp(guest.user, event.id, accept=True, message="", extra_guests=n % 3)
    rng = random.Random(23)

    actions = [lambda g=g: replies.rsvp(g.user, event.id, accept=False, message="") for g in seated[:4]]
    actions += [lambda g=g: replies.rsvp(g.user, event.id, accept=True, message="") for g in late]
    growing = range(len(actions), len(actions) + 6)
    actions += [
        lambda g=g: replies.rsvp(g.user, event.id, accept=True, message="", extra_guests=rng.choice([0, 1]))
        for g in waiting[:6]
    ]
    actions += [lambda g=g: replies.rsvp(g.user, event.id, accept=False, message="") for g in waiting[6:8]]
    actions += [lambda: events.update_event(owner.user, event.id, events.EventInput(total_spots=9))]
    actions += [lambda: events.update_event(owner.user, event.id, events.EventInput(max_extra_guests=1))]
    assert len(actions) >= 20
    outcomes = _race(actions)
    allowed = {"ok", "The reply changed meanwhile, try again.", "The event changed meanwhile, try again."}
    # a waiting party seated by a decline a moment before its own answer asks for one more spot: a seated party
    # never waits for its extra guests, so a full event refuses the growth (its seat stays)
    refused = {n for n, outcome in enumerate(outcomes) if outcome not in allowed}
    assert refused <= set(growing) and {outcomes[n] for n in refused} <= {replies.EVENT_FULL}, outcomes
    check_consistent(event.id)
    assert len(promotions) == len(set(promotions))  # nobody seated twice
    view = load_partition(event.id)
    assert view.event.spots_filled <= 9
    for uid in promotions:  # everyone told of a seat holds one
        assert view.invitation_of(uid).has_accepted is True


def test_parallel_promoters_seat_each_party_once(aws, promotions):
    owner = make_person("Owner")
    seated = [make_person(f"Seated {n}") for n in range(10)]
    waiting = [make_person(f"Waiting {n}") for n in range(12)]
    event = make_event(owner, *seated, *waiting, total_spots=10, waitlist=True)
    for guest in seated + waiting:
        replies.rsvp(guest.user, event.id, accept=True, message="")
    outcomes = _race([lambda g=g: replies.rsvp(g.user, event.id, accept=False, message="") for g in seated])
    assert outcomes == ["ok"] * 10
    # ten spots opened: the first ten in line are seated, each once, and two still wait
    assert sorted(promotions) == sorted(g.id for g in waiting[:10])
    view = load_partition(event.id)
    assert view.waitlist_positions() == {waiting[10].id: 1, waiting[11].id: 2}
    check_consistent(event.id)
