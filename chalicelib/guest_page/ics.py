"""An event as an RFC 5545 calendar with one VEVENT, for "Add to calendar" on the guest's page.

UID is stable per event (``event-<id>@<public host>``) and SEQUENCE grows with each edit of what the
entry shows (and with the cancel), so adding it again updates the entry; LAST-MODIFIED is that edit's
time, DTSTAMP the download's. A timed event starts and ends in its own zone (TZID, with the VTIMEZONE
the standard asks for, holding the offsets around the event), or in UTC when it has neither zone nor
offset; it lasts ``duration_minutes``. A day's event (no time) is that day, DTEND the next (exclusive).
DESCRIPTION and URL link back to the guest's page. LOCATION is the place, left out where the guest may not
see it yet (``place_visibility`` ``accepted``: until they accept); the entry that shows it so is one
revision later (SEQUENCE + 1), so adding it again after accepting puts the place in. Text values are
escaped and lines folded at 75 octets, with CRLF endings.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone, tzinfo
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from chalicelib import download_names, localtime
from chalicelib.config import get_settings
from chalicelib.domain import visibility
from chalicelib.messaging.sms_segments import one_line
from chalicelib.store.records import Event

CONTENT_TYPE = "text/calendar; charset=utf-8"
LINE_OCTETS = 75


def _utc(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%Y%m%dT%H%M%SZ}"


def _local(moment: datetime) -> str:
    return f"{moment:%Y%m%dT%H%M%S}"


def escape_text(value: str) -> str:
    """RFC 5545 3.3.11 TEXT: backslash, semicolon and comma escaped; one line (no control characters)."""
    return one_line(value).replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")


def fold(line: str) -> str:
    """RFC 5545 3.1: lines of at most 75 octets, continued with CRLF and a space; never inside a character."""
    out, current = [], b""
    for char in line:
        encoded = char.encode("utf-8")
        limit = LINE_OCTETS if not out else LINE_OCTETS - 1  # continuation lines start with a space
        if len(current) + len(encoded) > limit:
            out.append(current.decode("utf-8"))
            current = b""
        current += encoded
    out.append(current.decode("utf-8"))
    return "\r\n ".join(out)


def uid_domain() -> str:
    host = urlsplit(get_settings().public_base_url).hostname
    return host or "invites.invalid"


# --------------------------------------------------------------------------- zones


def _utc_offset(offset: timedelta) -> str:
    """RFC 5545 UTC-OFFSET: ``-0800``, ``+0530``."""
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    return f"{sign}{abs(minutes) // 60:02d}{abs(minutes) % 60:02d}"


def zone_id(zone: tzinfo, moment: datetime) -> str:
    """The TZID: the IANA name, or ``UTC-0800`` for a bare offset."""
    if isinstance(zone, ZoneInfo):
        return zone.key
    return "UTC" + _utc_offset(moment.utcoffset())


def _changes(zone: tzinfo, start: datetime, end: datetime) -> list[datetime]:
    """The instants (to the minute) between ``start`` and ``end`` at which ``zone``'s offset changes."""
    found, step = [], timedelta(hours=1)
    at = start
    while at < end:
        following = min(at + step, end)
        if at.astimezone(zone).utcoffset() != following.astimezone(zone).utcoffset():
            low, high = at, following
            while high - low > timedelta(minutes=1):
                middle = low + (high - low) / 2
                same = low.astimezone(zone).utcoffset() == middle.astimezone(zone).utcoffset()
                low, high = (middle, high) if same else (low, middle)
            found.append(high.replace(second=0, microsecond=0))
        at = following
    return found


def vtimezone(zone: tzinfo, start: datetime, end: datetime) -> list[str]:
    """A VTIMEZONE with one observance per offset the zone has from a day before ``start`` to a day after ``end``."""
    first = start - timedelta(days=1)
    onsets = [first, *_changes(zone, first, end + timedelta(days=1))]
    lines = ["BEGIN:VTIMEZONE", f"TZID:{zone_id(zone, start.astimezone(zone))}"]
    before = first.astimezone(zone).utcoffset()
    for onset in onsets:
        local = onset.astimezone(zone)
        kind = "DAYLIGHT" if local.dst() else "STANDARD"
        lines += [
            f"BEGIN:{kind}",
            f"DTSTART:{_local((onset + before).replace(tzinfo=None))}",  # the onset in the offset it leaves
            f"TZOFFSETFROM:{_utc_offset(before)}",
            f"TZOFFSETTO:{_utc_offset(local.utcoffset())}",
            f"TZNAME:{escape_text(localtime.zone_label(local))}",
            f"END:{kind}",
        ]
        before = local.utcoffset()
    return [*lines, "END:VTIMEZONE"]


def _dates(event: Event) -> tuple[list[str], list[str]]:
    """(the VTIMEZONE lines, the DTSTART and DTEND lines)."""
    if not event.is_time_specified:
        day = localtime.event_day(event)
        return [], [f"DTSTART;VALUE=DATE:{day:%Y%m%d}", f"DTEND;VALUE=DATE:{day + timedelta(days=1):%Y%m%d}"]
    start = event.event_date
    end = start + timedelta(minutes=localtime.duration_minutes(event))
    zone = localtime.zone_of(event)
    if zone is UTC or (isinstance(zone, timezone) and zone.utcoffset(None) == timedelta(0)):
        return [], [f"DTSTART:{_utc(start)}", f"DTEND:{_utc(end)}"]
    tzid = zone_id(zone, start.astimezone(zone))
    dates = [
        f"DTSTART;TZID={tzid}:{_local(start.astimezone(zone))}",
        f"DTEND;TZID={tzid}:{_local(end.astimezone(zone))}",
    ]
    return vtimezone(zone, start, end), dates


# --------------------------------------------------------------------------- the calendar


def calendar(event: Event, page_url: str, now: datetime, *, with_place: bool = True) -> str:
    """The calendar of ``event`` as a guest downloads it from ``page_url`` (their page) at ``now``; without
    LOCATION unless ``with_place``."""
    zones, dates = _dates(event)
    parts = (event.venue_name, event.address) if with_place else ()
    location = ", ".join(part for part in parts if part)
    revised = event.calendar_modified or event.modified
    revealed = with_place and event.place_visibility == visibility.PLACE_TO_ACCEPTED
    sequence = int(event.calendar_sequence or 0) + (1 if revealed else 0)
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:-//{escape_text(get_settings().service_name)}//Event page//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        *zones,
        "BEGIN:VEVENT",
        f"UID:event-{event.id}@{uid_domain()}",
        f"DTSTAMP:{_utc(now)}",
        f"LAST-MODIFIED:{_utc(revised)}",
        f"SEQUENCE:{sequence}",
        *dates,
        f"SUMMARY:{escape_text(event.title)}",
        *([f"LOCATION:{escape_text(location)}"] if location else []),
        f"DESCRIPTION:{escape_text(f'Answer and see the details on your invitation page: {page_url}')}",
        f"URL:{page_url}",
        f"STATUS:{'CANCELLED' if event.cancelled else 'CONFIRMED'}",
        "END:VEVENT",
        "END:VCALENDAR",
    ]
    return "".join(fold(line) + "\r\n" for line in lines)


def content_disposition(title: str) -> str:
    """``attachment`` named after the title (an ASCII name, and the UTF-8 one for browsers that read it)."""
    return download_names.content_disposition(title, ".ics")
