"""An event's waitlist: parties waiting for spots, in arrival order, in the event's own partition.

Each waiting party is one ``WAIT#<arrival>#<user id>`` item next to its invitation (which names the item
in ``wait_key``), and META counts them in ``waiting_count``. The line is read from its head with a
Query of ``begins_with WAIT#`` and a Limit, never the whole partition; a place in line is one COUNT
Query up to the party's own key (the same place domain/waitlist.py gives from the whole line). Joining,
leaving, changing a party, promoting and dropping a party that can no longer fit are each one
transaction with META, so the spot counters and the line move together.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from chalicelib.models.base import transact_write
from chalicelib.models.events import (
    META_SK,
    WAIT_PREFIX,
    Event,
    Invitation,
    WaitlistEntry,
    event_pk,
    invitation_sk,
    wait_sk,
    wait_time_of,
)
from chalicelib.parallel import parallel_map
from chalicelib.store import refusals
from chalicelib.store.events import nobody_waiting
from chalicelib.store.invitations import answer_actions, replier_action, room_for, unchanged_reply

LIVE = Event.cancelled == False  # noqa: E712 - a PynamoDB condition


@dataclass(frozen=True)
class Waiting:
    """A party in line: who, how many they bring, where they stand (the item's sort key)."""

    user_id: int
    extra_guests: int
    wait_key: str
    texted: bool  # invited by text (no account then): told of a promotion by text

    @property
    def spots(self) -> int:
        return 1 + self.extra_guests


def join(
    invitation: Invitation,
    event: Event,
    *,
    extra_guests: int,
    message: str,
    now: datetime,
    max_spots_filled: int,
    by_host: bool = False,
    answers: dict | None = None,
) -> str:
    """Put the guest at the end of the line, on condition their reply is as read, the event live, the
    party still does not go in directly (no room for it, or others waiting), and its key sorts after
    every key already in line (a join written meanwhile with a later clock refuses this one, which
    is then tried again with a fresh key). Returns the wait key. Raises Refused or Contended."""
    key = wait_sk(now, invitation.user_id)
    if event.last_wait_key and key <= event.last_wait_key:  # clocks of two servers need not agree
        key = wait_sk(wait_time_of(event.last_wait_key) + timedelta(microseconds=1), invitation.user_id)
    behind_everyone = Event.last_wait_key.does_not_exist() | (Event.last_wait_key < key)
    entry = WaitlistEntry(
        event_pk(event.id),
        key,
        user_id=invitation.user_id,
        extra_guests=extra_guests,
        texted=bool(invitation.link_hash),
    )
    cannot_enter = ~room_for(event, 1 + extra_guests, max_spots_filled) | ~nobody_waiting()
    actions = [
        Invitation.has_accepted.remove(),
        Invitation.maybe.remove(),
        Invitation.wait_key.set(key),
        Invitation.extra_guests.set(extra_guests),
        Invitation.rsvp_message.set(message),
        Invitation.rsvp_time.set(now),
        replier_action(by_host),
    ]
    if answers is not None:
        actions.append(Invitation.answers.set(answers))
    with refusals(), transact_write() as transaction:
        transaction.update(invitation, actions=actions, condition=unchanged_reply(invitation))
        transaction.save(entry, condition=WaitlistEntry.pk.does_not_exist())
        transaction.update(
            Event(event_pk(event.id), META_SK),
            actions=[Event.waiting_count.add(1), Event.last_wait_key.set(key), Event.modified.set(now)],
            condition=LIVE & (Event.total_spots == int(event.total_spots or 0)) & cannot_enter & behind_everyone,
        )
    return key


def change(
    invitation: Invitation,
    *,
    extra_guests: int,
    message: str,
    now: datetime,
    by_host: bool = False,
    answers: dict | None = None,
) -> None:
    """A waiting guest's new party size, message and answers; the place in line stays."""
    key = invitation.wait_key
    more = [Invitation.answers.set(answers)] if answers is not None else []
    with refusals(), transact_write() as transaction:
        transaction.update(
            invitation,
            actions=[
                Invitation.extra_guests.set(extra_guests),
                Invitation.rsvp_message.set(message),
                Invitation.rsvp_time.set(now),
                replier_action(by_host),
                *more,
            ],
            condition=Invitation.wait_key == key,
        )
        transaction.update(
            WaitlistEntry(event_pk(invitation.event_id), key),
            actions=[WaitlistEntry.extra_guests.set(extra_guests)],
            condition=WaitlistEntry.pk.exists(),
        )
        transaction.condition_check(Event, event_pk(invitation.event_id), META_SK, condition=LIVE)


def leave(invitation: Invitation, *, message: str, now: datetime, by_host: bool = False, maybe: bool = False) -> None:
    """A waiting guest declines (or says maybe): out of the line, the reply a decline (or a maybe)."""
    key = invitation.wait_key
    actions = [
        *answer_actions(False, maybe),
        Invitation.wait_key.remove(),
        Invitation.extra_guests.set(0),
        Invitation.rsvp_message.set(message),
        Invitation.rsvp_time.set(now),
        replier_action(by_host),
    ]
    with refusals(), transact_write() as transaction:
        transaction.update(invitation, actions=actions, condition=Invitation.wait_key == key)
        transaction.delete(WaitlistEntry(event_pk(invitation.event_id), key))
        transaction.update(
            Event(event_pk(invitation.event_id), META_SK),
            actions=[Event.waiting_count.add(-1), Event.modified.set(now)],
            condition=LIVE,
        )


def head(event_id: int, limit: int) -> tuple[Event | None, list[Waiting]]:
    """META and the first ``limit`` parties in line, read consistently side by side: a GetItem and a
    Query with Limit (one round, two calls, whatever the length of the line)."""

    def meta() -> Event | None:
        try:
            return Event.get(event_pk(event_id), META_SK, consistent_read=True)
        except Event.DoesNotExist:
            return None

    def first() -> list[Waiting]:
        items = WaitlistEntry.query(
            event_pk(event_id), WaitlistEntry.sk.startswith(WAIT_PREFIX), consistent_read=True, limit=limit
        )
        return [Waiting(item.user_id, int(item.extra_guests or 0), item.sk, bool(item.texted)) for item in items]

    event, line = parallel_map(lambda read: read(), [meta, first])
    return event, line


def promote(
    event: Event, parties: list[Waiting], *, now: datetime, max_spots_filled: int, notice_hashes: dict[int, str]
) -> None:
    """Seat ``parties`` (the head of the line, in order) in one transaction: each invitation accepted on
    condition it still waits at the same place with the same party, its WAIT# item gone, and META's
    counters moved on condition the spots fit the total read. ``notice_hashes`` are the hashes of the
    page links texted to those without an account. Raises Refused or Contended."""
    spots = sum(party.spots for party in parties)
    with refusals(), transact_write() as transaction:
        transaction.update(
            Event(event_pk(event.id), META_SK),
            actions=[
                Event.spots_filled.add(spots),
                Event.accepted_count.add(spots),
                Event.waiting_count.add(-len(parties)),
                Event.modified.set(now),
            ],
            condition=LIVE & room_for(event, spots, max_spots_filled),
        )
        for party in parties:
            actions = [
                Invitation.has_accepted.set(True),
                Invitation.wait_key.remove(),
                Invitation.extra_guests.set(party.extra_guests),
            ]
            if party.user_id in notice_hashes:
                actions.append(Invitation.notice_link_hash.set(notice_hashes[party.user_id]))
            invitation = Invitation(event_pk(event.id), invitation_sk(party.user_id))
            transaction.update(invitation, actions=actions, condition=_waiting_as_read(party))
            transaction.delete(WaitlistEntry(event_pk(event.id), party.wait_key))


def whole_line(event_id: int) -> list[Waiting]:
    """Every party in line, in order: a Query of ``begins_with WAIT#`` (pages of it on a long line), read
    only when the owner changes what parties may be (the total, the maximum of extra guests)."""
    items = WaitlistEntry.query(event_pk(event_id), WaitlistEntry.sk.startswith(WAIT_PREFIX), consistent_read=True)
    return [Waiting(item.user_id, int(item.extra_guests or 0), item.sk, bool(item.texted)) for item in items]


def drop(event_id: int, party: Waiting, *, now: datetime, notice_hash: str | None) -> None:
    """Take ``party`` out of the line because it can no longer fit the event: its reply becomes a decline,
    on condition it still waits at the same place with the same party. ``notice_hash``: the hash of the
    page link texted to a guest without an account. Raises Refused or Conflict."""
    invitation = Invitation(event_pk(event_id), invitation_sk(party.user_id))
    actions = [
        Invitation.has_accepted.set(False),
        Invitation.wait_key.remove(),
        Invitation.extra_guests.set(0),
        Invitation.rsvp_time.set(now),
    ]
    if notice_hash:
        actions.append(Invitation.notice_link_hash.set(notice_hash))
    with refusals(), transact_write() as transaction:
        transaction.update(invitation, actions=actions, condition=_waiting_as_read(party))
        transaction.delete(WaitlistEntry(event_pk(event_id), party.wait_key))
        transaction.update(
            Event(event_pk(event_id), META_SK),
            actions=[Event.waiting_count.add(-1), Event.modified.set(now)],
            condition=LIVE,
        )


def cut(event_id: int, party: Waiting, extra_guests: int) -> None:
    """Bring a waiting party down to ``extra_guests`` (a lowered maximum), keeping its place, on condition
    it still waits there with the party read. Raises Refused or Conflict."""
    invitation = Invitation(event_pk(event_id), invitation_sk(party.user_id))
    with refusals(), transact_write() as transaction:
        transaction.update(
            invitation, actions=[Invitation.extra_guests.set(extra_guests)], condition=_waiting_as_read(party)
        )
        transaction.update(
            WaitlistEntry(event_pk(event_id), party.wait_key),
            actions=[WaitlistEntry.extra_guests.set(extra_guests)],
            condition=WaitlistEntry.pk.exists(),
        )


def _waiting_as_read(party: Waiting):
    same_party = (
        (Invitation.extra_guests == party.extra_guests)
        if party.extra_guests
        else (Invitation.extra_guests.does_not_exist() | (Invitation.extra_guests == 0))
    )
    return (Invitation.wait_key == party.wait_key) & same_party


def position(event_id: int, wait_key: str) -> int:
    """The place in line of the party at ``wait_key`` (1 = next): one COUNT Query up to its key."""
    return WaitlistEntry.count(
        event_pk(event_id), WaitlistEntry.sk.between(WAIT_PREFIX, wait_key), consistent_read=True
    )
