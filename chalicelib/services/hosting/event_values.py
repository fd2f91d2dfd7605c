"""An event's values as a create or an edit sends them, and the checks of dates and spots every write of an
event makes (services/hosting/events.py, and each date of a series: series.py). No chalice imports."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from chalicelib.config import get_settings
from chalicelib.domain import event_fields
from chalicelib.errors import OutOfRange, ValidationError
from chalicelib.store.events import EventEdit
from chalicelib.timeutil import format_datetime


@dataclass
class EventInput:
    """Validated fields of a create or an edit; None means "not sent"."""

    title: str | None = None
    event_date: datetime | None = None
    is_time_specified: bool | None = None
    total_spots: int | None = None
    invite_phone_numbers: list[str] | None = None
    location: dict | None = None  # {"latitude", "longitude"}; {} to clear
    address: str | None = None
    venue_name: str | None = None
    online_url: str | None = None  # "" to clear
    max_extra_guests: int | None = None
    waitlist: bool | None = None
    spot_filled: int | None = None
    time_zone: str | None = None  # an IANA name; "" to clear
    utc_offset_minutes: int | None = None  # the offset event_date was sent with (0 for Z or none)
    duration_minutes: int | None = None
    rsvp_deadline: datetime | str | None = None  # "" to clear
    replies_paused: bool | None = None
    join_mode: str | None = None
    guest_invites: int | None = None
    guest_list: str | None = None
    place_visibility: str | None = None
    album: str | None = None
    questions: list[dict] | None = None  # as sent (ids not yet the service's); [] to remove them all


# Edits that change what a guest's calendar entry shows: each one grows its SEQUENCE (store.events.EventEdit).
CALENDAR_FIELDS = event_fields.CALENDAR_FIELDS


def whole_seconds(value: datetime) -> datetime:
    return value.replace(microsecond=0)


def remind_day(event_date: datetime) -> str:
    return format_datetime(event_date)[:10]


DEADLINE_AFTER_EVENT = "The reply deadline must be at or before the event's date."


def check_deadline(deadline: datetime | None, event_date: datetime) -> None:
    """400 when replies would close after the event starts."""
    if deadline is not None and deadline > event_date:
        raise ValidationError.field("rsvp_deadline", DEADLINE_AFTER_EVENT)


def deadline_edit(data: EventInput) -> datetime | str | None:
    """The deadline as the edit writes it: "" removes it, None leaves it."""
    if data.rsvp_deadline == "":
        return ""
    return whole_seconds(data.rsvp_deadline) if data.rsvp_deadline else None


def check_spots(event, new_total: int, filling: int) -> None:
    """400 when filling by hand, or lowering total_spots, would put spots_filled past the total, or
    filling would put it past ``MAX_SPOTS_FILLED`` (beyond what every client's numbers hold exactly)."""
    room = get_settings().max_spots_filled - event.spots_filled
    if filling > room:
        raise OutOfRange("spot_filled", most=max(0, room))
    if new_total and event.spots_filled + filling > new_total:
        if filling:
            left = max(0, new_total - event.spots_filled)
            raise ValidationError.field("spot_filled", f"Only {left} spots are left.")
        raise OutOfRange("total_spots", least=event.spots_filled)


def edit_of(data: EventInput) -> EventEdit:
    event_date = whole_seconds(data.event_date) if data.event_date is not None else None
    return EventEdit(
        **{field.name: getattr(data, field.name) for field in event_fields.STORED},  # written as sent
        event_date=event_date,
        remind_day=remind_day(event_date) if event_date is not None else None,
        location=data.location,
        spots_filled_by_hand=data.spot_filled or 0,
        time_zone=data.time_zone,
        utc_offset_minutes=data.utc_offset_minutes,
        duration_minutes=data.duration_minutes,
        rsvp_deadline=deadline_edit(data),
        calendar_revised=any(getattr(data, name) is not None for name in CALENDAR_FIELDS),
    )
