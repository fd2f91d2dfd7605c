"""An event's time fields and its calendar entry's revision, as edits change them. No chalice imports.

The guest's ``event.ics`` carries ``SEQUENCE`` and ``LAST-MODIFIED``; calendars replace an entry they
hold only when its SEQUENCE grew. So every edit of what the entry shows (date, time, title, place)
and the cancel count one more revision, written in the same UpdateItem as the change itself.
"""

from __future__ import annotations

from datetime import datetime

from chalicelib.models.events import Event

# Edits that change what a guest's calendar entry shows.
CALENDAR_FIELDS = (
    "title", "event_date", "is_time_specified", "time_zone", "duration_minutes", "location", "address", "venue_name"
)  # fmt: skip


def revised(now: datetime) -> list:
    return [Event.calendar_sequence.add(1), Event.calendar_modified.set(now)]


def edit_actions(data, now: datetime) -> list:
    """The update actions of an edit's time fields (``data`` an EventInput), and its calendar revision."""
    actions = []
    if data.utc_offset_minutes is not None:
        actions.append(Event.utc_offset_minutes.set(data.utc_offset_minutes))
    if data.time_zone is not None:
        actions.append(Event.time_zone.set(data.time_zone) if data.time_zone else Event.time_zone.remove())
    if data.duration_minutes is not None:
        actions.append(Event.duration_minutes.set(data.duration_minutes))
    if any(getattr(data, name) is not None for name in CALENDAR_FIELDS):
        actions += revised(now)
    return actions
