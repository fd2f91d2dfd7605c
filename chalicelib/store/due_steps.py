"""The steps due before an event's start (domain/attendance_steps.py), found by time without a Scan.

Each step of an event is one ``~DUE#<step>`` item in its partition. While it waits, it sits in the sparse
``upcoming`` index (the reminder push's, models/events.py) under the hash key ``DUE#<UTC day of its due
time>`` with the range key ``<due time>#<event id>``, so the hourly schedule finds what is due with one
Query per day. The items are written with the event (its create's transaction, and each edit of the date,
the zone or a step's setting, in the edit's transaction); a step is taken out of the index once it is done.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from chalicelib.domain import attendance_steps
from chalicelib.models.auth import SentNotification
from chalicelib.models.events import DUE_PREFIX, DueStep, EventsTable, date_key, event_id_of, event_pk
from chalicelib.store import Refused, refusals
from chalicelib.store.batch import batch_get, index_keys
from chalicelib.store.claims import SENDING
from chalicelib.timeutil import format_datetime, utcnow

BUCKET_PREFIX = "DUE#"
# Edited fields that move a step or turn one on or off.
SCHEDULE_FIELDS = (
    "event_date",
    "time_zone",
    "utc_offset_minutes",
    "reminder_hours",
    "confirm_attendance",
    "confirm_hours",
    "release_unconfirmed",
)


def bucket(due: datetime) -> str:
    return f"{BUCKET_PREFIX}{format_datetime(due)[:10]}"


def due_key(due: datetime, event_id: int) -> str:
    return date_key(due, event_id)


def _item(event_id: int, step: str, due: datetime | None, now: datetime) -> DueStep:
    """The step's item; in the index only when it is due from now on (a step whose time had passed when the event
    was written is skipped: its guests were just invited or told of the change)."""
    item = DueStep(event_pk(event_id), f"{DUE_PREFIX}{step}", step=step)
    if due is not None and due >= now:
        item.remind_day, item.date_key = bucket(due), due_key(due, event_id)
    return item


def new_steps(event) -> list[DueStep]:
    """The items of a new event's steps (those it takes), to be saved with it."""
    now = utcnow()
    steps = attendance_steps.due_times(event).items()
    return [_item(event.id, step, due, now) for step, due in steps if due is not None and due >= now]


def every_step(event_id: int) -> list[DueStep]:
    """Each step's item key of the event, whether stored or not (to delete them with it)."""
    return [DueStep(event_pk(event_id), f"{DUE_PREFIX}{step}") for step in attendance_steps.STEPS]


def rescheduled(event, edit) -> list[DueStep]:
    """Every step's item as ``edit`` leaves ``event`` (one that is off leaves the index), or [] when the edit
    changes nothing they depend on."""
    changed = {name: getattr(edit, name) for name in SCHEDULE_FIELDS if getattr(edit, name) is not None}
    if not changed:
        return []
    after = _EditedEvent(event, changed)
    now = utcnow()
    return [_item(event.id, step, due, now) for step, due in attendance_steps.due_times(after).items()]


class _EditedEvent:
    """``event`` with the edit's values over its own (an edit's "" clears a zone)."""

    def __init__(self, event, changed: dict) -> None:
        self._event, self._changed = event, changed

    def __getattr__(self, name: str):
        if name in self._changed:
            value = self._changed[name]
            return None if value == "" else value
        return getattr(self._event, name)


def due_until(day: str, now: datetime) -> list[tuple[int, str, str]]:
    """``(event id, step, due key)`` of the steps waiting under UTC ``day`` that are due by ``now``: one Query."""
    window = DueStep.date_key <= f"{format_datetime(now)}#~"
    found = index_keys(EventsTable, "upcoming", f"{BUCKET_PREFIX}{day}", window)
    return [
        (event_id_of(item["pk"]), item["sk"].removeprefix(DUE_PREFIX), item["date_key"])
        for item in found
        if item["sk"].startswith(DUE_PREFIX)
    ]


def days_back(now: datetime, days: int) -> list[str]:
    """The UTC days from ``days`` before ``now`` to its own, oldest first."""
    return [format_datetime(now - timedelta(days=back))[:10] for back in range(days, -1, -1)]


def done(event_id: int, step: str, key: str) -> bool:
    """Take the step out of the index, unless it was moved meanwhile (then False)."""
    item = DueStep(event_pk(event_id), f"{DUE_PREFIX}{step}")
    try:
        with refusals():
            item.update(actions=[DueStep.remind_day.remove()], condition=DueStep.date_key == key)
    except Refused:
        return False
    return True


def still_sending(keys: list[str]) -> int:
    """How many of the delivery claims at ``keys`` are held unsent: a worker is sending them, or died doing so
    (its lease then runs out and a later run takes them over). One BatchGetItem per 100 keys."""
    if not keys:
        return 0
    return sum(1 for claim in batch_get(SentNotification, keys, consistent_read=True) if claim.state == SENDING)
