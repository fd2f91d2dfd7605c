"""Promotion from an event's waitlist when spots open. No chalice imports.

Whoever opens spots (a guest declining or bringing fewer people, the owner raising ``total_spots``, a
waiting guest leaving the head of the line) calls :func:`promote_waiting` after their own write. It
reads META and the head of the line side by side (a GetItem and a Query with Limit), seats the parties
at the head that fit, in order, and stops at the first that does not: nobody is passed over. The seats
are one transaction with the spot counters, conditional on each party still waiting at its place and
on the total read, so two promoters racing each other never seat anyone twice nor overfill; the loser
reads again. Each round costs 3 calls (2 rounds) and seats up to ``PROMOTE_BATCH`` parties, whatever
the length of the line.

The promoted are told by one ``waitlist_promoted`` message: a push to those with an account, a text
with a fresh link to their page to those invited by text.
"""

from __future__ import annotations

from chalicelib import invite_links, store
from chalicelib.config import get_settings
from chalicelib.domain import capacity
from chalicelib.domain import waitlist as line_rules
from chalicelib.messaging import notifications
from chalicelib.messaging.notifications.kinds import kind_named
from chalicelib.retry import AttemptsSpent, TryAgain, jittered, retry
from chalicelib.store import waitlist as waitlist_store
from chalicelib.store.records import Event
from chalicelib.timeutil import utcnow

# The queue kinds sent from here (each declared with its handler)
WAITLIST_DROPPED = kind_named("waitlist_dropped")
WAITLIST_PROMOTED = kind_named("waitlist_promoted")

PROMOTE_BATCH = 25  # parties per transaction: 2 items each + META, within DynamoDB's 100
PROMOTE_ROUNDS = 20  # reads of the head before leaving the rest to the next spot that opens
RACE_PAUSE_SECONDS = 0.01  # times the round's number, at random: promoters racing many replies take turns


def spots_left(event: Event) -> int:
    """Spots still open under the total (or, without one, the service's cap)."""
    return capacity.spots_left(event.total_spots, event.spots_filled, get_settings().max_spots_filled)


def fits(event: Event, spots: int) -> bool:
    return capacity.fits(spots, event.total_spots, event.spots_filled, get_settings().max_spots_filled)


def fit_line_to_event(event_id: int, actor_id: int) -> None:
    """After the owner lowered ``total_spots`` or ``max_extra_guests``: parties that can no longer fit the
    whole event leave the line (their reply a decline; told by push, or by text without an account),
    waiting parties above the new maximum are cut to it, then the head is seated while it fits. A party
    that moved meanwhile (declined, seated, changed its number) is left as it now is."""
    event, _ = waitlist_store.head(event_id, 1)
    if event is None or event.cancelled or not event.waiting_count:
        return
    line = waitlist_store.whole_line(event_id)
    change = line_rules.after_edit(
        line,
        ceiling=capacity.ceiling(event.total_spots, get_settings().max_spots_filled),
        max_extra_guests=int(event.max_extra_guests or 0),
    )
    codes = {party.user_id: invite_links.new_code(event_id) for party in change.leaving if party.texted}
    if not get_settings().public_base_url:
        codes = {}
    now, dropped = utcnow(), []
    for party in change.leaving:
        code = codes.get(party.user_id)
        try:
            waitlist_store.drop(event_id, party, now=now, notice_hash=invite_links.hash_code(code) if code else None)
            dropped.append(party.user_id)
        except (store.Refused, store.Contended):
            continue  # it left, was seated or changed meanwhile
    for party in line:
        if party.wait_key in change.cut:
            try:
                waitlist_store.cut(event_id, party, change.cut[party.wait_key])
            except (store.Refused, store.Contended):
                continue  # its own reply moved it meanwhile, within the new maximum
    if dropped:
        links = {uid: invite_links.link_url(code) for uid, code in codes.items() if uid in dropped}
        notifications.enqueue(
            WAITLIST_DROPPED, event_id=event_id, actor_id=actor_id, user_ids=dropped, links=links
        )
    promote_waiting(event_id, actor_id)


def promote_waiting(event_id: int, actor_id: int) -> list[int]:
    """Seat the parties at the head of the line while they fit; returns the user ids seated.

    Each round reads the head and seats what fits, or (the line moved: another promoter or a reply
    got there first) reads again after a random pause. Why rounds rather than a condition that cannot
    lose: who is seated depends on the order of the line and the spots left, both read, so a seat can
    only be written conditional on them; racing promoters take turns. A full batch seated goes on
    to the next at once."""
    promoted: list[int] = []
    links: dict[int, str] = {}

    def seat_round(_number: int) -> None:
        event, line = waitlist_store.head(event_id, PROMOTE_BATCH)
        if event is None or event.cancelled or not line:
            return
        chosen = line_rules.to_seat(line, spots_left(event))
        if not chosen:
            return
        codes = {party.user_id: invite_links.new_code(event_id) for party in chosen if party.texted}
        if not get_settings().public_base_url:
            codes = {}
        try:
            waitlist_store.promote(
                event,
                chosen,
                now=utcnow(),
                max_spots_filled=get_settings().max_spots_filled,
                notice_hashes={uid: invite_links.hash_code(code) for uid, code in codes.items()},
            )
        except (store.Refused, store.Contended):
            raise TryAgain() from None  # the line moved: read it again
        promoted.extend(party.user_id for party in chosen)
        links.update({uid: invite_links.link_url(code) for uid, code in codes.items()})
        if len(chosen) == len(line) == PROMOTE_BATCH:
            raise TryAgain(pause=0)  # the whole batch was seated: the next may fit too

    try:
        retry(seat_round, attempts=PROMOTE_ROUNDS, pause=jittered(RACE_PAUSE_SECONDS))
    except AttemptsSpent:
        pass  # the rest is left to the next spot that opens
    if promoted:
        notifications.enqueue(
            WAITLIST_PROMOTED, event_id=event_id, actor_id=actor_id, user_ids=promoted, links=links
        )
    return promoted
