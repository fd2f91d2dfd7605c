"""The hourly schedule: one ``upcoming_event`` message per live event starting soon."""

from __future__ import annotations

from datetime import datetime, timedelta

from chalicelib.config import get_settings
from chalicelib.ids import new_id
from chalicelib.messaging.notifications import queueing
from chalicelib.services.notifications.notification_jobs import UPCOMING_EVENT
from chalicelib.store import events as event_store
from chalicelib.timeutil import format_datetime, utcnow


def enqueue_reminders(now: datetime | None = None) -> int:
    """Queue one ``upcoming_event`` message per live event starting within the reminder window,
    found through the sparse ``upcoming`` index (one Query per UTC day in the window, never a Scan).
    Returns how many. A reminded event leaves the index, so the hourly run finds each one once."""
    now = now or utcnow()
    end = now + timedelta(hours=get_settings().reminder_hours_ahead)
    start, stop = format_datetime(now), f"{format_datetime(end)}#~"
    messages = []
    day = now.date()
    while day <= end.date():
        for event_id, date_key in event_store.upcoming_on(day.isoformat(), start, stop):
            messages.append(
                {"type": UPCOMING_EVENT, "id": new_id(), "event_id": event_id, "date_key": date_key}
            )
        day += timedelta(days=1)
    queueing.send_many(messages)
    return len(messages)
