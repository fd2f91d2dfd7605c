"""Dates and times in a language's own forms (CLDR, through Babel), in the event's own zone.

English keeps the service's own forms (``localtime``: ``Sat, Dec 12 at 8:30 PM PST``), so English pages and
texts read exactly as before. Every other language: ``sábado, 12 de diciembre de 2026, 20:30 CET`` on a page,
``sáb, 12 dic, 20:30 CET`` in a text; the zone's abbreviation or offset as ``localtime`` gives it. Babel's date
data loads with this module: pages and texts import it, the first answer's read path does not.
"""

from __future__ import annotations

from datetime import date, datetime

from babel.dates import format_date, format_skeleton, format_time, get_datetime_format

from chalicelib import localtime
from chalicelib.languages.catalogues import ENGLISH, locale_of


def clock(moment: datetime, language: str) -> str:
    """The clock time and the zone, as the language writes the time: ``8:30 PM EST``, ``20:30 CET``."""
    if language == ENGLISH:
        return f"{localtime.clock(moment)} {localtime.zone_label(moment)}"
    return f"{format_time(moment, 'short', locale=locale_of(language))} {localtime.zone_label(moment)}"


def _joined(day: str, moment: datetime, language: str) -> str:
    """The day and the clock time as the language joins them, with the zone after the time."""
    return (
        get_datetime_format("full", locale=locale_of(language))
        .replace("{1}", day)
        .replace("{0}", clock(moment, language))
    )


def day_of_week(day: date, language: str) -> str:
    """The weekday's name in the language: ``Saturday``, ``sábado``, ``שבת``."""
    if language == ENGLISH:
        return localtime.WEEKDAYS[day.weekday()]
    return format_date(day, "EEEE", locale=locale_of(language))


def day_of_year(day: date, language: str) -> str:
    """The day and month, short, in the language: ``Dec 12``, ``12 dic``."""
    if language == ENGLISH:
        return f"{localtime.MONTHS[day.month - 1][:3]} {day.day}"
    return _short_day(day, language, weekday=False)


def _short_day(day: date, language: str, weekday: bool) -> str:
    return format_skeleton("MMMEd" if weekday else "MMMd", day, locale=locale_of(language))


def short_when(event, language: str, *, weekday: bool = True) -> str:
    """When, as a text says it: ``sáb, 12 dic, 20:30 CET``; a day's event only its day."""
    if language == ENGLISH:
        return localtime.short_when(event, weekday=weekday)
    if not event.is_time_specified:
        return _short_day(localtime.event_day(event), language, weekday)
    moment = localtime.local_start(event)
    return _joined(_short_day(moment.date(), language, weekday), moment, language)


def long_when(event, language: str) -> str:
    """When, as a page says it: ``sábado, 12 de diciembre de 2026, 20:30 CET``; a day's event only its day."""
    if language == ENGLISH:
        return localtime.long_when(event)
    if not event.is_time_specified:
        return format_date(localtime.event_day(event), "full", locale=locale_of(language))
    moment = localtime.local_start(event)
    return _joined(format_date(moment.date(), "full", locale=locale_of(language)), moment, language)


def posted(moment: datetime, zone, language: str) -> str:
    """When something was posted, short, in ``zone``: ``12 dic, 18:30 CET``."""
    local = moment.astimezone(zone)
    if language == ENGLISH:
        return f"{local.strftime('%b')} {local.day}, {localtime.clock(local)} {localtime.zone_label(local)}"
    return _joined(format_skeleton("MMMd", local.date(), locale=locale_of(language)), local, language)
