"""Offline guests: people without a phone (a grandparent, a child's friend) a host counts in by name. They
hold spots like an accepted party but never wait in line: a party that does not fit is refused (409), so
nobody waiting is passed over. Removing one gives the spots back and seats the waiting parties, as a
decline would. No chalice imports."""

from __future__ import annotations

from chalicelib import ids, store
from chalicelib.config import get_settings
from chalicelib.domain.roles import Action, require, role_of
from chalicelib.errors import Conflict, NotFound, OutOfRange
from chalicelib.retry import AttemptsSpent, TryAgain, jittered, retry
from chalicelib.services.participants.event_reads import require_live
from chalicelib.services.replies.replies import EVENT_FULL, REPLY_ATTEMPTS, REPLY_BACKOFF_SECONDS
from chalicelib.services.replies.waitlist import fits, promote_waiting
from chalicelib.store import invitations as invitation_store
from chalicelib.store import offline_guests as offline_store
from chalicelib.store.records import Event, OfflineGuest
from chalicelib.timeutil import utcnow

MAX_OFFLINE_GUESTS = 100  # per event, beside the invitees
TOO_MANY = f"This event already has {MAX_OFFLINE_GUESTS} offline guests."


def _host_state(caller, event_id: int) -> Event:
    """META, once the caller's invitation shows a host (404 for a stranger, 403 for a guest)."""
    invitation, event = invitation_store.reply_state(event_id, caller.id)
    require(role_of(invitation), Action.MANAGE_OFFLINE_GUESTS)
    if event is None:
        raise NotFound()
    return event


def add(caller, event_id: int, *, name: str, extra_guests: int) -> OfflineGuest:
    """Count ``name`` and the ``extra_guests`` they bring in: 409 when the party does not fit now."""
    guest_id = ids.new_id()

    def attempt(_number: int) -> OfflineGuest:
        event = _host_state(caller, event_id)
        require_live(event)
        if extra_guests > int(event.max_extra_guests or 0):
            raise OutOfRange("extra_guests", most=int(event.max_extra_guests or 0))
        if int(event.offline_count or 0) >= MAX_OFFLINE_GUESTS:
            raise Conflict(TOO_MANY)
        if event.waiting_count or not fits(event, 1 + extra_guests):
            raise Conflict(EVENT_FULL)
        try:
            return offline_store.add(
                event,
                guest_id,
                name=name,
                extra_guests=extra_guests,
                now=utcnow(),
                max_spots_filled=get_settings().max_spots_filled,
                most=MAX_OFFLINE_GUESTS,
            )
        except (store.Contended, store.Refused):
            raise TryAgain() from None  # the counters moved: read again and decide again

    try:
        return retry(attempt, attempts=REPLY_ATTEMPTS, pause=jittered(REPLY_BACKOFF_SECONDS))
    except AttemptsSpent:
        raise Conflict("The event changed meanwhile, try again.") from None


def remove(caller, event_id: int, guest_id: int) -> None:
    """Take the offline guest out and give their spots back; the waiting parties that now fit are seated."""
    event = _host_state(caller, event_id)
    guest = offline_store.find(event_id, guest_id)
    if guest is None:
        raise NotFound()

    def attempt(_number: int) -> None:
        try:
            offline_store.remove(event_id, guest, now=utcnow())
        except store.Refused:
            raise NotFound() from None  # removed meanwhile
        except store.Contended:
            raise TryAgain() from None

    try:
        retry(attempt, attempts=REPLY_ATTEMPTS, pause=jittered(REPLY_BACKOFF_SECONDS))
    except AttemptsSpent:
        raise Conflict("The event changed meanwhile, try again.") from None
    if event.waiting_count:
        promote_waiting(event_id, caller.id)
