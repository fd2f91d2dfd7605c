"""The dates of a series: RFC 5545 recurrence rules (python-dateutil's ``rrule``) in the event's own zone.

The rule runs on the local wall clock of the first date, so 19:00 stays 19:00 across daylight-saving changes;
each local date is then placed in the zone. A wall time that a spring-forward change skips (02:30 on that
night) is read with the offset before the change, which moves it forward by the gap, as calendars do; a wall
time that happens twice is the first of the two. Monthly on the 29th to 31st falls on the month's last day
when the month is shorter (BYMONTHDAY 28..d with BYSETPOS -1), never skipping a month.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from itertools import islice

from dateutil import rrule

from chalicelib.localtime import WEEKDAYS

WEEKLY, MONTHLY = "weekly", "monthly"
FREQUENCIES = (WEEKLY, MONTHLY)
MIN_INTERVAL, MAX_INTERVAL = 1, 4
MIN_DATES, MAX_DATES = 2, 26
MAX_SPAN_DAYS = 366  # "until" at most a year after the first date (a leap year's day included)
_RULE_FREQ = {WEEKLY: rrule.WEEKLY, MONTHLY: rrule.MONTHLY}
SHORTEST_MONTH = 28


@dataclass(frozen=True)
class Repeat:
    """How a series repeats: ``count`` dates, or every date up to ``until`` (a local day, inclusive)."""

    freq: str
    interval: int = 1
    count: int | None = None
    until: date | None = None


def _rule(repeat: Repeat, wall: datetime) -> rrule.rrule:
    options: dict = {"dtstart": wall, "interval": repeat.interval}
    if repeat.freq == MONTHLY and wall.day > SHORTEST_MONTH:
        options.update(bymonthday=tuple(range(SHORTEST_MONTH, wall.day + 1)), bysetpos=-1)
    if repeat.until is not None:
        options["until"] = datetime.combine(repeat.until, time.max)
    return rrule.rrule(_RULE_FREQ[repeat.freq], **options)


def local_walls(first: datetime, zone: tzinfo, repeat: Repeat, most: int = MAX_DATES + 1) -> list[datetime]:
    """The local (naive) wall times of the series starting at ``first`` (aware), at most ``most`` of them."""
    wall = first.astimezone(zone).replace(tzinfo=None)
    wanted = min(repeat.count, most) if repeat.count is not None else most
    return list(islice(_rule(repeat, wall), wanted))


def placed(wall: datetime, zone: tzinfo) -> datetime:
    """The UTC instant of a local wall time in ``zone`` (a skipped time moves forward by the gap)."""
    return wall.replace(tzinfo=zone, fold=0).astimezone(UTC)


def occurrences(first: datetime, zone: tzinfo, repeat: Repeat) -> list[datetime]:
    """The UTC instants of the series' dates, the first one being ``first`` itself (to the second)."""
    return [placed(wall, zone) for wall in local_walls(first, zone, repeat)]


def last_allowed_until(first: datetime, zone: tzinfo) -> date:
    """The latest ``until`` a series starting at ``first`` may name."""
    return first.astimezone(zone).date() + timedelta(days=MAX_SPAN_DAYS - 1)


TOO_MANY_DATES = f"A series has at most {MAX_DATES} dates."
TOO_FEW_DATES = f"A series has at least {MIN_DATES} dates."
UNTIL_TOO_LATE = "Ensure the series ends within a year of its first date."
UNTIL_TOO_EARLY = "Ensure the series ends after its first date."


def span_problem(repeat: Repeat, first: datetime, zone: tzinfo) -> tuple[str, str] | None:
    """``(field, message)`` when the series would end too early or too late or hold too many dates."""
    if repeat.until is not None:
        if repeat.until > last_allowed_until(first, zone):
            return "until", UNTIL_TOO_LATE
        dates = len(local_walls(first, zone, repeat))
        if dates > MAX_DATES:
            return "until", TOO_MANY_DATES
        if dates < MIN_DATES:
            return "until", UNTIL_TOO_EARLY
    return None


_ORDINAL_INTERVAL = {1: "", 2: "other ", 3: "third ", 4: "fourth "}


def in_words(repeat: Repeat, first: datetime, zone: tzinfo) -> str:
    """The repeat as a text says it: ``every Tuesday``, ``every other Tuesday``, ``monthly on the 31st``,
    ``every 3 months on the 5th``."""
    local = first.astimezone(zone)
    if repeat.freq == WEEKLY:
        return f"every {_ORDINAL_INTERVAL[repeat.interval]}{WEEKDAYS[local.weekday()]}"
    day = _ordinal(local.day)
    if repeat.interval == 1:
        return f"monthly on the {day}"
    if repeat.interval == 2:
        return f"every other month on the {day}"
    return f"every {repeat.interval} months on the {day}"


def _ordinal(number: int) -> str:
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"
