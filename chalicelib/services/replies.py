"""A guest's reply (accept or reject) and marking an invitation seen. No chalice imports.

An accept is a transaction of the invitation (its previous reply as condition, so a repeated accept
never counts twice) and the META counters (condition ``total_spots = 0 OR spots_filled < total_spots``).
"""

from __future__ import annotations

from chalicelib import store
from chalicelib.config import get_settings
from chalicelib.errors import Conflict, NotFound, PermissionDenied
from chalicelib.messaging import notifications
from chalicelib.retry import AttemptsSpent, TryAgain, jittered, retry
from chalicelib.services.event_reads import require_live
from chalicelib.store import events as event_store
from chalicelib.store import invitations as invitation_store
from chalicelib.timeutil import utcnow

EVENT_FULL = "This event is full."
# Replies of one guest racing each other (two phones, a double tap, the web page and the app) each
# lose only to a reply that landed; a short random pause before trying again lets them take turns.
REPLY_ATTEMPTS = 10
REPLY_BACKOFF_SECONDS = 0.01


# --------------------------------------------------------------------------- RSVP


def rsvp(caller, event_id: int, *, accept: bool, message: str | None):
    """Accept or reject; the last reply counts. Counts a guest once however often they accept.

    One transaction writes the reply on the condition that the previous one is still there, and moves
    the event's counters when the reply changes whether the guest comes; a refused transaction is read
    again to tell "cancelled" or "full" from "the reply moved meanwhile" (then tried again)."""

    def reply(_attempt: int):
        invitation = _guest_invitation(caller, event_id)
        previous_reply = invitation.has_accepted
        now = utcnow()
        try:
            invitation_store.write_reply(
                invitation,
                accept=accept,
                message=message or "",
                now=now,
                max_spots_filled=get_settings().max_spots_filled,
            )
        except store.Conflict:
            raise TryAgain() from None  # another transaction held an item
        except store.Refused:
            _raise_unless_moved(event_id, caller.id, joining=accept and previous_reply is not True)
            raise TryAgain() from None
        invitation.has_accepted, invitation.rsvp_message, invitation.rsvp_time = accept, message or "", now
        if previous_reply is not accept:  # a repeated reply tells the owner nothing new
            notifications.enqueue(
                notifications.INVITE_RSVP, event_id=event_id, actor_id=caller.id, accepted=accept, message=message or ""
            )
        return invitation

    try:
        return retry(reply, attempts=REPLY_ATTEMPTS, pause=jittered(REPLY_BACKOFF_SECONDS))
    except AttemptsSpent:
        raise Conflict("The reply changed meanwhile, try again.") from None


def _guest_invitation(caller, event_id: int):
    """The caller's invitation, read consistently: 404 when not invited, 403 for the owner."""
    invitation = invitation_store.find_invitation(event_id, caller.id)
    if invitation is None:
        raise NotFound()
    if invitation.role == event_store.OWNER:
        raise PermissionDenied()
    return invitation


def _raise_unless_moved(event_id: int, user_id: int, *, joining: bool) -> None:
    """After a refused reply: 409 when the event is cancelled, or full for a guest joining it; returns when
    the reply moved meanwhile (try again).

    Which condition failed is decided by reading again, not by the reasons' positions (emulators do not
    always report them per item)."""
    snapshot = invitation_store.event_and_reply(event_id, user_id)
    if snapshot is None:
        return
    event, reply = snapshot
    require_live(event)
    if joining and _is_full(event) and reply is not True:
        raise Conflict(EVENT_FULL) from None


def _is_full(event) -> bool:
    full = bool(event.total_spots) and event.spots_filled >= event.total_spots
    return full or event.spots_filled >= get_settings().max_spots_filled


def mark_seen(caller, event_id: int, invitation_id: int):
    """Only the invited person marks their invitation seen; one Query and one UpdateItem."""
    invitations = invitation_store.invitations_of(event_id)
    if not any(inv.user_id == caller.id for inv in invitations):
        raise NotFound()
    target = next((inv for inv in invitations if inv.id == invitation_id), None)
    if target is None:
        raise NotFound()
    if target.user_id != caller.id:
        raise PermissionDenied()
    if not target.has_seen:
        invitation_store.mark_seen(target)
    return target
