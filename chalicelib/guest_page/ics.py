"""An event as an RFC 5545 calendar with one VEVENT, for "Add to calendar" on the guest's page.

UID is stable per event (``event-<id>@<public host>``), so adding it again updates the entry;
DTSTART is UTC (a day, VALUE=DATE, when the event has no time); STATUS is CANCELLED once the
owner cancels. Text values are escaped and lines folded at 75 octets, with CRLF endings.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from urllib.parse import urlsplit

from chalicelib.config import get_settings
from chalicelib.messaging.sms_segments import one_line
from chalicelib.store.records import Event

CONTENT_TYPE = "text/calendar; charset=utf-8"
LINE_OCTETS = 75


def _utc(moment: datetime) -> str:
    return f"{moment:%Y%m%dT%H%M%SZ}"


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


def calendar(event: Event) -> str:
    start = event.event_date
    if event.is_time_specified:
        dates = [f"DTSTART:{_utc(start)}"]
    else:
        dates = [f"DTSTART;VALUE=DATE:{start:%Y%m%d}", f"DTEND;VALUE=DATE:{start + timedelta(days=1):%Y%m%d}"]
    location = ", ".join(part for part in (event.venue_name, event.address) if part)
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:-//{escape_text(get_settings().service_name)}//Event page//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        "BEGIN:VEVENT",
        f"UID:event-{event.id}@{uid_domain()}",
        f"DTSTAMP:{_utc(event.modified)}",
        f"LAST-MODIFIED:{_utc(event.modified)}",
        *dates,
        f"SUMMARY:{escape_text(event.title)}",
        *([f"LOCATION:{escape_text(location)}"] if location else []),
        f"STATUS:{'CANCELLED' if event.cancelled else 'CONFIRMED'}",
        "END:VEVENT",
        "END:VCALENDAR",
    ]
    return "".join(fold(line) + "\r\n" for line in lines)
