"""The host speaks to the guests: announcements (by answer) and the nudge to those who have not answered.

Each request checks, counts and stores, then hands one message to the notifications queue; the pushes
and texts go from there (services/conversation/host_messages.py)."""

from __future__ import annotations

from chalicelib import limits
from chalicelib.domain.roles import Action
from chalicelib.errors import Conflict
from chalicelib.ids import new_id
from chalicelib.messaging import notifications
from chalicelib.services.conversation.host_messages import ANNOUNCEMENT, NO_REPLY, NUDGE, audience_of
from chalicelib.services.guards.ratelimit import RollingLimit, charge_together
from chalicelib.services.participants.event_reads import permitted_view
from chalicelib.store import announcements as store
from chalicelib.timeutil import utcnow

OVER = "This event is over."


def _live_hosted_view(caller, event_id: int, action: Action):
    view = permitted_view(caller, event_id, action)
    if view.event.cancelled or view.event.event_date <= utcnow():
        raise Conflict(OVER)
    return view


def announce(caller, event_id: int, text: str, audience: list[str]):
    """Store the announcement (``ANNOUNCEMENTS_PER_EVENT_PER_DAY`` in any 24 hours: 429) and queue its pushes
    and texts."""
    view = _live_hosted_view(caller, event_id, Action.ANNOUNCE)
    limit = RollingLimit.of(limits.ANNOUNCEMENTS, event_id)
    charged = charge_together([(limit, 1)])
    try:
        announcement = store.save_announcement(view.event.id, new_id(), caller.id, text, audience, utcnow())
    except Exception:
        for receipt in charged:  # nothing was announced: the day's allowance is as it was (a 503 follows)
            limit.undo(receipt)
        raise
    notifications.enqueue(ANNOUNCEMENT, event_id=view.event.id, announcement_id=announcement.id)
    return announcement


def list_announcements(caller, event_id: int) -> list:
    """The event's announcements, newest first: for the owner and the invitees."""
    permitted_view(caller, event_id, Action.READ)
    return store.announcements_of(event_id)


def nudge(caller, event_id: int) -> int:
    """Remind everyone who has not answered (``NUDGES_PER_EVENT_PER_DAY`` in any 24 hours: 429); how many they are."""
    view = _live_hosted_view(caller, event_id, Action.NUDGE)
    charge_together([(RollingLimit.of(limits.NUDGES, event_id), 1)])
    silent = audience_of(view, [NO_REPLY])
    if silent:
        notifications.enqueue(NUDGE, event_id=view.event.id, user_ids=silent)
    return len(silent)
