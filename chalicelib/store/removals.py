"""Guests a host removed: the invitation goes with its spots, its place in line and its co-host role, in one
transaction with META's counters, and a ``REMOVED#<user id>`` item stays behind, read with the event
(store/events.py ``load_partition``). It holds the hashes of the person's page links (an old link then says "no
longer invited" rather than "broken") and keeps them from joining by the event's link until invited again."""

from __future__ import annotations

from datetime import datetime

from chalicelib.models.base import transact_write
from chalicelib.models.events import (
    META_SK,
    Event,
    Invitation,
    Removal,
    WaitlistEntry,
    event_pk,
    removal_sk,
)
from chalicelib.models.users import REMOVED_FROM_PREFIX, RemovedFrom, removed_from_sk, user_pk
from chalicelib.store import refusals
from chalicelib.store.events import EventView, nobody_waiting
from chalicelib.store.invitations import party_of, same_cohost, unchanged_reply

LIVE = Event.cancelled == False  # noqa: E712 - a PynamoDB condition


def _as_read(invitation: Invitation):
    """A condition on the invitation: its reply, party, place in line and co-host role as read."""
    if invitation.wait_key:
        return (Invitation.wait_key == invitation.wait_key) & same_cohost(invitation)
    return unchanged_reply(invitation) & same_cohost(invitation)


def remove_invitee(event: Event, invitation: Invitation, *, now: datetime) -> int:
    """Delete ``invitation`` (as read), give back its spots, its place in line and its co-host place on META,
    and leave its Removal item, in one transaction. While nobody waited when read, nobody may wait when
    written (the caller then knows no one is to be seated). Returns the change of ``spots_filled``. Raises
    Refused or Contended."""
    party = party_of(invitation)
    actions = [Event.modified.set(now)]
    if party:
        actions += [Event.accepted_count.add(-party), Event.spots_filled.add(-party)]
    if invitation.wait_key:
        actions.append(Event.waiting_count.add(-1))
    if invitation.cohost:
        actions.append(Event.cohost_count.add(-1))
    condition = LIVE if event.waiting_count else LIVE & nobody_waiting()
    hashes = [digest for digest in (invitation.link_hash, invitation.notice_link_hash) if digest]
    removal = Removal(
        event_pk(event.id), removal_sk(invitation.user_id), user_id=invitation.user_id, link_hashes=hashes, removed=now
    )
    with refusals(), transact_write() as transaction:
        transaction.delete(invitation, condition=_as_read(invitation))
        transaction.save(removal)
        transaction.save(RemovedFrom(user_pk(invitation.user_id), removed_from_sk(event.id), event_id=event.id))
        transaction.update(Event(event_pk(event.id), META_SK), actions=actions, condition=condition)
        if invitation.wait_key:
            transaction.delete(WaitlistEntry(event_pk(event.id), invitation.wait_key))
    return -party


def was_removed(event_id: int, user_id: int) -> bool:
    """Whether a host removed this person from the event: one GetItem."""
    return removed_at(event_id, user_id) is not None


def removed_at(event_id: int, user_id: int) -> datetime | None:
    """When a host removed this person from the event (None when nobody did): one GetItem."""
    try:
        return Removal.get(event_pk(event_id), removal_sk(user_id), consistent_read=True).removed
    except Removal.DoesNotExist:
        return None


def is_removed(view: EventView, user_id: int) -> bool:
    """Whether a host removed this person from the event read (and nobody invited them again since: an
    invitation makes the question moot)."""
    return any(removal.user_id == user_id for removal in view.removals)


def removed_link_hashes(view: EventView) -> list[str]:
    """The page-link hashes of everyone removed from the event read."""
    return [digest for removal in view.removals for digest in removal.link_hashes or []]


def events_removed_from(user_id: int) -> list[int]:
    """The ids of the events hosts removed this person from: one consistent Query of their partition."""
    items = RemovedFrom.query(user_pk(user_id), RemovedFrom.sk.startswith(REMOVED_FROM_PREFIX), consistent_read=True)
    return [item.event_id for item in items]
