"""A guest's reply (accept or reject) and marking an invitation seen. No chalice imports.

An accept is a transaction of the invitation (its previous reply as condition, so a repeated accept
never counts twice) and the META counters (condition ``total_spots = 0 OR spots_filled < total_spots``).
"""

from __future__ import annotations

import random
import time
from datetime import datetime

from pynamodb.exceptions import TransactGetError, TransactWriteError

from chalicelib.aws_errors import condition_failed, conflicted
from chalicelib.config import get_settings
from chalicelib.errors import Conflict, NotFound, PermissionDenied
from chalicelib.models.base import transact_get, transact_write
from chalicelib.models.events import (
    INVITATION_PREFIX,
    META_SK,
    OWNER,
    Event,
    Invitation,
    event_pk,
    invitation_sk,
)
from chalicelib.models.users import User
from chalicelib.services import notifications
from chalicelib.services.event_reads import require_live
from chalicelib.timeutil import utcnow

EVENT_FULL = "This event is full."
# Replies of one guest racing each other (two phones, a double tap, the web page and the app) each
# lose only to a reply that landed; a short random pause before trying again lets them take turns.
_ATTEMPTS = 10
_BACKOFF_SECONDS = 0.01


# --------------------------------------------------------------------------- RSVP


def rsvp(caller: User, event_id: int, *, accept: bool, message: str | None) -> Invitation:
    """Accept or reject; the last reply counts. Counts a guest once however often they accept.

    One transaction writes the reply on the condition that the previous one is still there, and moves
    the event's counters when the reply changes whether the guest comes; a refused transaction is read
    again to tell "cancelled" or "full" from "the reply moved meanwhile" (then tried again)."""
    for attempt in range(_ATTEMPTS):
        invitation = _guest_invitation(caller, event_id)
        previous_reply = invitation.has_accepted
        now = utcnow()
        try:
            _write_reply(invitation, event_id, accept=accept, message=message or "", now=now)
        except TransactWriteError as exc:
            _raise_unless_worth_retrying(exc, event_id, caller.id, joining=accept and previous_reply is not True)
            time.sleep(random.uniform(0, _BACKOFF_SECONDS * (attempt + 1)))
            continue
        invitation.has_accepted, invitation.rsvp_message, invitation.rsvp_time = accept, message or "", now
        if previous_reply is not accept:  # a repeated reply tells the owner nothing new
            notifications.enqueue(
                notifications.INVITE_RSVP, event_id=event_id, actor_id=caller.id, accepted=accept, message=message or ""
            )
        return invitation
    raise Conflict("The reply changed meanwhile, try again.")


def _guest_invitation(caller: User, event_id: int) -> Invitation:
    """The caller's invitation, read consistently: 404 when not invited, 403 for the owner."""
    try:
        invitation = Invitation.get(event_pk(event_id), invitation_sk(caller.id), consistent_read=True)
    except Invitation.DoesNotExist:
        raise NotFound() from None
    if invitation.role == OWNER:
        raise PermissionDenied()
    return invitation


def _write_reply(invitation: Invitation, event_id: int, *, accept: bool, message: str, now: datetime) -> None:
    """The reply and the counters in one transaction, on condition the reply read is unchanged and the
    event live (and, joining, not full)."""
    was_accepted = invitation.has_accepted is True
    if was_accepted:
        unchanged = Invitation.has_accepted == True  # noqa: E712
    else:
        unchanged = Invitation.has_accepted.does_not_exist() | (Invitation.has_accepted == False)  # noqa: E712
    live = Event.cancelled == False  # noqa: E712
    actions = [Invitation.has_accepted.set(accept), Invitation.rsvp_message.set(message), Invitation.rsvp_time.set(now)]
    event_key = Event(event_pk(event_id), META_SK)
    with transact_write() as transaction:
        transaction.update(invitation, actions=actions, condition=unchanged)
        if accept and not was_accepted:
            room = (Event.total_spots == 0) | (Event.spots_filled < Event.total_spots)
            room &= Event.spots_filled < get_settings().max_spots_filled
            transaction.update(event_key, actions=_counter_actions(1, now), condition=live & room)
        elif was_accepted and not accept:
            transaction.update(event_key, actions=_counter_actions(-1, now), condition=live)
        else:
            transaction.condition_check(Event, event_pk(event_id), META_SK, condition=live)


def _raise_unless_worth_retrying(exc: TransactWriteError, event_id: int, user_id: int, *, joining: bool) -> None:
    """After a refused reply: 409 when the event is cancelled, or full for a guest joining it; returns when
    the reply moved meanwhile or another transaction held an item (try again); re-raises anything else.

    Which condition failed is decided by reading again, not by the reasons' positions (emulators do not
    always report them per item)."""
    if conflicted(exc):
        return
    if not condition_failed(exc):
        raise exc
    snapshot = _event_and_reply(event_id, user_id)
    if snapshot is None:
        return
    event, reply = snapshot
    require_live(event)
    if joining and _is_full(event) and reply is not True:
        raise Conflict(EVENT_FULL) from None


def _is_full(event: Event) -> bool:
    full = bool(event.total_spots) and event.spots_filled >= event.total_spots
    return full or event.spots_filled >= get_settings().max_spots_filled


def _event_and_reply(event_id: int, user_id: int) -> tuple[Event, bool | None] | None:
    """META and the caller's reply at one instant (TransactGetItems), so "full" means full of others' spots:
    two reads could straddle a parallel reply of the caller's own. None when a write held them (try again)."""
    try:
        with transact_get() as transaction:
            event = transaction.get(Event, event_pk(event_id), META_SK)
            invitation = transaction.get(Invitation, event_pk(event_id), invitation_sk(user_id))
    except TransactGetError as exc:
        if conflicted(exc):
            return None
        raise
    return event.get(), invitation.get().has_accepted


def _counter_actions(delta: int, now: datetime) -> list:
    return [Event.accepted_count.add(delta), Event.spots_filled.add(delta), Event.modified.set(now)]


def mark_seen(caller: User, event_id: int, invitation_id: int) -> Invitation:
    """Only the invited person marks their invitation seen; one Query and one UpdateItem."""
    invitations = list(
        Invitation.query(event_pk(event_id), Invitation.sk.startswith(INVITATION_PREFIX), consistent_read=True)
    )
    if not any(inv.user_id == caller.id for inv in invitations):
        raise NotFound()
    target = next((inv for inv in invitations if inv.id == invitation_id), None)
    if target is None:
        raise NotFound()
    if target.user_id != caller.id:
        raise PermissionDenied()
    if not target.has_seen:
        target.update(actions=[Invitation.has_seen.set(True)], condition=Invitation.pk.exists())
    return target
