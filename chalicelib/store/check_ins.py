"""Check-in at the door: a party's check-in token (made once, on the invitation) and checking a party (an
invitation or an offline guest) in or out, each with META's ``checked_in_count`` in one transaction."""

from __future__ import annotations

from datetime import datetime

from chalicelib.models.base import transact_write
from chalicelib.models.events import META_SK, Event, Invitation, OfflineGuest, event_pk
from chalicelib.store import Refused, refusals


def give_token(invitation: Invitation, token: str) -> str:
    """Store ``token`` on the invitation unless it has one; the token it holds afterwards."""
    try:
        with refusals():
            invitation.update(
                actions=[Invitation.checkin_token.set(token)],
                condition=Invitation.pk.exists() & Invitation.checkin_token.does_not_exist(),
            )
    except Refused:
        invitation.refresh(consistent_read=True)
    return invitation.checkin_token


def _going():
    return (Invitation.has_accepted == True) & Invitation.wait_key.does_not_exist()  # noqa: E712


def check_in(party: Invitation | OfflineGuest, event_id: int, now: datetime) -> bool:
    """Set the party's ``checked_in_at`` and count it, on condition it is not checked in (and an invitee is
    still going, or is the owner). False when refused: checked in already, or no longer going."""
    attribute = type(party).checked_in_at
    condition = type(party).pk.exists() & attribute.does_not_exist()
    if isinstance(party, Invitation) and party.role != "owner":
        condition = condition & _going()
    try:
        with refusals(), transact_write() as transaction:
            transaction.update(party, actions=[attribute.set(now)], condition=condition)
            transaction.update(Event(event_pk(event_id), META_SK), actions=[Event.checked_in_count.add(1)])
    except Refused:
        return False
    return True


def undo(party: Invitation | OfflineGuest, event_id: int) -> bool:
    """Clear the party's ``checked_in_at`` and uncount it, on condition it is set. False when it was not."""
    attribute = type(party).checked_in_at
    try:
        with refusals(), transact_write() as transaction:
            transaction.update(party, actions=[attribute.remove()], condition=attribute.exists())
            transaction.update(Event(event_pk(event_id), META_SK), actions=[Event.checked_in_count.add(-1)])
    except Refused:
        return False
    return True
