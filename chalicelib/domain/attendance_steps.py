"""When an event's scheduled steps before its start fall due: the reminder text, the "still coming?" ask and
the release of the parties that did not answer it (services/notifications/attendance_steps.py runs them).

A text step that would fall in the quiet hours of the event's zone (21:00 to 08:00) is moved to the last time
before them that the hourly schedule surely reaches: 20:00 local on the evening they began (the schedule runs
every hour, so it finds the step before 21:00 whatever the zone's offset). Local wall times follow the zone's
daylight-saving rules. The release is no text asked for: it is due 3 hours before the start, and only when
the ask came before it.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta, tzinfo

from chalicelib import localtime
from chalicelib.domain import event_fields

REMINDER, CONFIRM, RELEASE = "reminder", "confirm", "release"
STEPS = (REMINDER, CONFIRM, RELEASE)
RELEASE_BEFORE = timedelta(hours=3)
QUIET_FROM, QUIET_UNTIL = 21, 8  # local hours
LAST_HOUR_BEFORE_QUIET = 20


def _setting(event, name: str):
    return event_fields.shown_value(event_fields.BY_NAME[name], getattr(event, name, None))


def is_quiet(moment: datetime, zone: tzinfo) -> bool:
    """Whether ``moment`` falls in the quiet hours of ``zone``."""
    hour = moment.astimezone(zone).hour
    return hour >= QUIET_FROM or hour < QUIET_UNTIL


def before_quiet_hours(moment: datetime, zone: tzinfo) -> datetime:
    """``moment`` (UTC), or, when it falls in the quiet hours of ``zone``, 20:00 local on the evening they began."""
    if not is_quiet(moment, zone):
        return moment
    local = moment.astimezone(zone)
    evening = local.date() if local.hour >= QUIET_FROM else local.date() - timedelta(days=1)
    return datetime.combine(evening, time(LAST_HOUR_BEFORE_QUIET), tzinfo=zone).astimezone(UTC)


def due_times(event) -> dict[str, datetime | None]:
    """Each step's due time (UTC) for the event as it is now; None for a step it does not take."""
    start, zone = event.event_date, localtime.zone_of(event)
    reminder_hours = _setting(event, "reminder_hours")
    asking = _setting(event, "confirm_attendance")
    ask = before_quiet_hours(start - timedelta(hours=_setting(event, "confirm_hours")), zone) if asking else None
    release = start - RELEASE_BEFORE
    releasing = ask is not None and _setting(event, "release_unconfirmed") and ask < release
    return {
        REMINDER: before_quiet_hours(start - timedelta(hours=reminder_hours), zone) if reminder_hours else None,
        CONFIRM: ask,
        RELEASE: release if releasing else None,
    }
