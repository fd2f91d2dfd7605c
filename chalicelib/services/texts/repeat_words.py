"""A series' repeat as a text says it, in the reader's language: ``every other Tuesday``, ``cada martes``,
``un mardi sur deux``, ``monthly on the 31st``, ``كل شهرين في اليوم 31``.

The series carries its :class:`~chalicelib.domain.recurrence.Cadence` (a weekday or a day of the month, and
the interval), never finished words, so each guest reads it in their own. The weekday's name is CLDR's
(languages/dates.py); English keeps the service's own words and ordinals (``1st``, ``22nd``). A message queued
before the cadence was carried holds the English words instead: they are said as they came.
"""

from __future__ import annotations

from datetime import date, timedelta

from chalicelib import localtime
from chalicelib.domain.recurrence import WEEKLY, Cadence
from chalicelib.languages import dates
from chalicelib.languages.catalogues import ENGLISH, N_, Words

# Translators: {repeat} says how often a series meets ("every Tuesday"), {when} its first date.
SERIES_FROM = N_("{repeat} from {when}")
# Translators: the tight form of a series' text: how often it meets and its clock time ("every Tuesday at 19:00
# CET"), the first date left to the page.
SERIES_AT = N_("{repeat} at {time}")

# Translators: {weekday} is the weekday's name as the language writes it alone ("Tuesday", "martes", "יום שלישי").
WEEKLY_WORDS = {
    1: N_("every {weekday}"),
    2: N_("every other {weekday}"),
    3: N_("every third {weekday}"),
    4: N_("every fourth {weekday}"),
}
# Translators: {day} is the day of the month as a number ("31"; in English "31st").
MONTHLY_WORDS = N_("monthly on the {day}")
EVERY_OTHER_MONTH = N_("every other month on the {day}")

A_MONDAY = date(2024, 1, 1)
SERIES_KEY, OLD_SERIES_KEY = "series", "series_words"  # in an event_cancelled message: the cadence, or old words


def in_words(series: Cadence | str, said: Words) -> str:
    """How often the series meets, in the words of ``said``; old English words (a ``str``) as they came."""
    if isinstance(series, str):
        return series
    if series.freq == WEEKLY:
        weekday = dates.day_of_week(A_MONDAY + timedelta(days=series.day), said.language)
        return said._(WEEKLY_WORDS[series.interval], weekday=weekday)
    day = english_ordinal(series.day) if said.language == ENGLISH else str(series.day)
    if series.interval == 1:
        return said._(MONTHLY_WORDS, day=day)
    if series.interval == 2:
        return said._(EVERY_OTHER_MONTH, day=day)
    return said._n("every {count} month on the {day}", "every {count} months on the {day}", series.interval, day=day)


def from_when(series: Cadence | str | None, when: str, said: Words) -> str:
    """``when`` (the first date), preceded by how often the series meets when there is one."""
    return said._(SERIES_FROM, repeat=in_words(series, said), when=when) if series else when


def at_time(series: Cadence, event, said: Words) -> str:
    """How often the series meets and the event's clock time, without the first date; a day's event: the repeat."""
    repeat = in_words(series, said)
    if not event.is_time_specified:
        return repeat
    return said._(SERIES_AT, repeat=repeat, time=dates.clock(localtime.local_start(event), said.language))


def as_message(series: Cadence | None) -> dict:
    """What a queued message carries of the series (nothing outside one)."""
    return {SERIES_KEY: series.as_message()} if series else {}


def carried(message: dict) -> Cadence | str:
    """The series a message carries: its cadence, else the English words a message queued before held, else ""."""
    return Cadence.from_message(message.get(SERIES_KEY)) or message.get(OLD_SERIES_KEY) or ""


def english_ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th``, ``22nd``."""
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"
