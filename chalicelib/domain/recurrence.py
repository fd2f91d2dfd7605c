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


@dataclass(frozen=True)
class Cadence:
    """How a series' dates follow one another, for its texts to say in each reader's words: ``freq``,
    ``interval`` and ``day``: the weekday (Monday 0) of a weekly series, the day of the month of a monthly one,
    both in the event's zone. Carried in a queued message as :meth:`as_message` gives it."""

    freq: str
    interval: int
    day: int

    def as_message(self) -> dict:
        return {"freq": self.freq, "interval": self.interval, "day": self.day}

    @classmethod
    def from_message(cls, carried: object) -> Cadence | None:
        """The cadence a message carries; None for anything else (a malformed or foreign value)."""
        if not isinstance(carried, dict):
            return None
        freq, interval, day = carried.get("freq"), carried.get("interval"), carried.get("day")
        if freq not in FREQUENCIES or not isinstance(interval, int) or not isinstance(day, int):
            return None
        if not MIN_INTERVAL <= interval <= MAX_INTERVAL or not 0 <= day <= (6 if freq == WEEKLY else 31):
            return None
        return cls(freq, interval, day)


def cadence(repeat: Repeat, first: datetime, zone: tzinfo) -> Cadence:
    """The cadence of a series whose first date is ``first``, read in ``zone``."""
    local = first.astimezone(zone)
    return Cadence(repeat.freq, repeat.interval, local.weekday() if repeat.freq == WEEKLY else local.day)
