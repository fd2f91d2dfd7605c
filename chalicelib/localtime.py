"""An event's own local time: its IANA zone (``time_zone``), else the UTC offset its creator sent.

Stored dates stay UTC; this module only says how a person reads them: ``Sat, Dec 12 at 8:30 PM PST``
(texts), ``Saturday, December 12, 2026 at 8:30 PM PST`` (the guest's page). A zone whose tz database
entry has no letters for its abbreviation (``+04``), and a bare offset, read as ``UTC+4``/``UTC+5:30``.
A day's event (no time) is the day as its creator sent it, in the offset sent with it.

Zone data: the system's tz database where there is one, else the ``tzdata`` package (requirements.txt),
so Lambda images without ``/usr/share/zoneinfo`` resolve the same names.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zoneinfo import ZoneInfo

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")  # fmt: skip
_ZONE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+)*")
_LETTERS = re.compile(r"[A-Za-z]{2,6}")
MAX_ZONE_NAME = 64
DEFAULT_DURATION_MINUTES = 120
MAX_DURATION_MINUTES = 7 * 24 * 60


@lru_cache(maxsize=1)
def zone_names() -> frozenset[str]:
    """Every zone name of the tz database, as the ``tzdata`` package lists them: the same on every host,
    where the system's directory may also hold ``localtime``, ``posixrules`` or ``posix/...`` files."""
    from importlib import resources  # the zone data and its reader load only when a zone is named

    listing = resources.files("tzdata").joinpath("zones").read_text(encoding="utf-8")
    return frozenset(listing.split())


@lru_cache(maxsize=512)
def zone(name: str) -> ZoneInfo | None:
    """The IANA zone of ``name`` (case as the database spells it), or None when there is none."""
    if not isinstance(name, str) or len(name) > MAX_ZONE_NAME or not _ZONE_NAME.fullmatch(name):
        return None
    if name not in zone_names():
        return None
    from zoneinfo import ZoneInfo  # off the cold start of an answer that names no zone (tests/test_app.py)

    try:
        return ZoneInfo(name)
    except (ValueError, OSError, LookupError):  # ZoneInfoNotFoundError is a KeyError
        return None


def offset_minutes(sent: datetime | None) -> int | None:
    """The UTC offset a date was sent with, in minutes (0 for ``Z`` or none), or None for no date."""
    if sent is None:
        return None
    offset = sent.utcoffset()
    return 0 if offset is None else int(offset.total_seconds() // 60)


def event_zone(time_zone: str | None, utc_offset_minutes: int | None) -> tzinfo:
    """The zone an event is shown in: its named zone, else its creator's offset, else UTC."""
    named = zone(time_zone) if time_zone else None
    if named is not None:
        return named
    if utc_offset_minutes:
        return timezone(timedelta(minutes=int(utc_offset_minutes)))
    return UTC


def zone_of(event) -> tzinfo:
    """``event_zone`` of a stored event; items stored before these fields read as UTC."""
    return event_zone(getattr(event, "time_zone", None), getattr(event, "utc_offset_minutes", None))


def duration_minutes(event) -> int:
    return int(getattr(event, "duration_minutes", None) or DEFAULT_DURATION_MINUTES)


def local_start(event) -> datetime:
    return event.event_date.astimezone(zone_of(event))


def event_day(event) -> date:
    """The day of a day's event (no time): in the offset its date was sent with, not the named zone."""
    sent_offset = getattr(event, "utc_offset_minutes", None) or 0
    return event.event_date.astimezone(timezone(timedelta(minutes=int(sent_offset)))).date()


def offset_label(offset: timedelta | None) -> str:
    """``UTC``, ``UTC-8``, ``UTC+5:30``."""
    minutes = int((offset or timedelta()).total_seconds() // 60)
    if minutes == 0:
        return "UTC"
    sign = "+" if minutes > 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def zone_label(moment: datetime) -> str:
    """The abbreviation the tz database gives (``PST``, ``CET``), else the offset (``UTC+4``)."""
    from zoneinfo import ZoneInfo

    name = moment.tzname() or ""
    if isinstance(moment.tzinfo, ZoneInfo) and _LETTERS.fullmatch(name):
        return name
    return offset_label(moment.utcoffset())


def clock(moment: datetime) -> str:
    """``8:30 PM``."""
    hour = moment.hour % 12 or 12
    return f"{hour}:{moment.minute:02d} {'AM' if moment.hour < 12 else 'PM'}"


def short_when(event, *, weekday: bool = True) -> str:
    """``Sat, Dec 12 at 8:30 PM PST``; a day's event ``Sat, Dec 12``; without ``weekday``: ``Dec 12 at ...``."""
    if event.is_time_specified:
        moment = local_start(event)
        day = f"{MONTHS[moment.month - 1][:3]} {moment.day}"
        if weekday:
            day = f"{WEEKDAYS[moment.weekday()][:3]}, {day}"
        return f"{day} at {clock(moment)} {zone_label(moment)}"
    day_of = event_day(event)
    day = f"{MONTHS[day_of.month - 1][:3]} {day_of.day}"
    return f"{WEEKDAYS[day_of.weekday()][:3]}, {day}" if weekday else day


def long_when(event) -> str:
    """``Saturday, December 12, 2026 at 8:30 PM PST``; a day's event without the time."""
    if not event.is_time_specified:
        day_of = event_day(event)
        return f"{WEEKDAYS[day_of.weekday()]}, {MONTHS[day_of.month - 1]} {day_of.day}, {day_of.year}"
    moment = local_start(event)
    day = f"{WEEKDAYS[moment.weekday()]}, {MONTHS[moment.month - 1]} {moment.day}, {moment.year}"
    return f"{day} at {clock(moment)} {zone_label(moment)}"
