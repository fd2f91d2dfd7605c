"""Writes of "still coming?": a going party confirms, or, unconfirmed when the event releases such spots, moves
from its seat to the head of the waitlist. A confirm and a release of the same party race on the invitation's
condition, so exactly one of them lands.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from chalicelib.models.base import transact_write
from chalicelib.models.events import META_SK, Event, Invitation, WaitlistEntry, event_pk, wait_sk, wait_time_of
from chalicelib.store import refusals
from chalicelib.store.invitations import party_of

LIVE = Event.cancelled == False  # noqa: E712 - a PynamoDB condition
SEATED = (Invitation.has_accepted == True) & Invitation.wait_key.does_not_exist()  # noqa: E712
NOT_CONFIRMED = Invitation.attendance_confirmed.does_not_exist() | (Invitation.attendance_confirmed == False)  # noqa: E712


def confirm(invitation: Invitation) -> None:
    """The going party says it is still coming, on condition it is still seated and the event live. Raises Refused."""
    with refusals(), transact_write() as transaction:
        transaction.update(invitation, actions=[Invitation.attendance_confirmed.set(True)], condition=SEATED)
        transaction.condition_check(Event, event_pk(invitation.event_id), META_SK, condition=LIVE)


def release(invitation: Invitation, *, now: datetime, key: str) -> None:
    """Unseat an unconfirmed party into the line under ``key`` (its WAIT# item), the spot counters and the line
    moving together with it; ``attendance_confirmed`` false marks it released. Raises Refused when it
    confirmed, declined or left meanwhile."""
    spots = party_of(invitation)
    actions = [
        Invitation.has_accepted.remove(),
        Invitation.wait_key.set(key),
        Invitation.attendance_confirmed.set(False),
    ]
    entry = WaitlistEntry(
        event_pk(invitation.event_id),
        key,
        user_id=invitation.user_id,
        extra_guests=int(invitation.extra_guests or 0),
        texted=bool(invitation.link_hash),
    )
    counters = [
        Event.accepted_count.add(-spots),
        Event.spots_filled.add(-spots),
        Event.waiting_count.add(1),
        Event.modified.set(now),
    ]
    with refusals(), transact_write() as transaction:
        transaction.update(invitation, actions=actions, condition=SEATED & NOT_CONFIRMED)
        transaction.save(entry, condition=WaitlistEntry.pk.does_not_exist())
        transaction.update(Event(event_pk(invitation.event_id), META_SK), actions=counters, condition=LIVE)


def move_to_head(invitation: Invitation, head_key: str, place: int) -> str:
    """Move a waiting party's WAIT# item before ``head_key`` (the line's head), ``place`` microseconds apart for
    several moved at once (0 first); returns its new key. Raises Refused when it left the line meanwhile."""
    old = invitation.wait_key
    key = wait_sk(wait_time_of(head_key) - timedelta(microseconds=1000 - place), invitation.user_id)
    extra = int(invitation.extra_guests or 0)
    with refusals(), transact_write() as transaction:
        transaction.update(invitation, actions=[Invitation.wait_key.set(key)], condition=Invitation.wait_key == old)
        transaction.delete(WaitlistEntry(event_pk(invitation.event_id), old), condition=WaitlistEntry.pk.exists())
        transaction.save(
            WaitlistEntry(
                event_pk(invitation.event_id),
                key,
                user_id=invitation.user_id,
                extra_guests=extra,
                texted=bool(invitation.link_hash),
            ),
            condition=WaitlistEntry.pk.does_not_exist(),
        )
    return key
