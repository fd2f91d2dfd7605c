"""An event as an RFC 5545 calendar with one VEVENT, for "Add to calendar" on the guest's page.

UID is stable per event (``event-<id>@<public host>``) and SEQUENCE grows with each edit of what the
entry shows (and with the cancel), so adding it again updates the entry; LAST-MODIFIED is that edit's
time, DTSTAMP the download's. A timed event starts and ends in its own zone (TZID, with the VTIMEZONE
the standard asks for, holding the offsets around the event), or in UTC when it has neither zone nor
offset; it lasts ``duration_minutes``. A day's event (no time) is that day, DTEND the next (exclusive).
DESCRIPTION and URL link back to the guest's page. LOCATION is the place and SEQUENCE the revision as the
guest sees them (``visibility.SeenEvent``: the place left out until they may see it, and the entry that
shows it one revision later, so adding it again after accepting puts the place in). Text values are
escaped and lines folded at 75 octets, with CRLF endings.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone, tzinfo
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from chalicelib import download_names, localtime
from chalicelib.config import get_settings
from chalicelib.domain.visibility import SeenEvent
from chalicelib.languages.catalogues import Words, words
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
    if len(line) * 4 <= LINE_OCTETS or len(line.encode("utf-8")) <= LINE_OCTETS:
        return line
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


def _zone_span(event: Event) -> tuple[tzinfo, datetime, datetime] | None:
    """(zone, start, end) of a timed event shown in a zone other than UTC; None for UTC and days."""
    if not event.is_time_specified:
        return None
    zone = localtime.zone_of(event)
    if zone is UTC or (isinstance(zone, timezone) and zone.utcoffset(None) == timedelta(0)):
        return None
    start = event.event_date
    return zone, start, start + timedelta(minutes=localtime.duration_minutes(event))


def _date_lines(event: Event) -> list[str]:
    """DTSTART and DTEND: a day, UTC, or the event's own zone (TZID)."""
    if not event.is_time_specified:
        day = localtime.event_day(event)
        return [f"DTSTART;VALUE=DATE:{day:%Y%m%d}", f"DTEND;VALUE=DATE:{day + timedelta(days=1):%Y%m%d}"]
    span = _zone_span(event)
    if span is None:
        start = event.event_date
        end = start + timedelta(minutes=localtime.duration_minutes(event))
        return [f"DTSTART:{_utc(start)}", f"DTEND:{_utc(end)}"]
    zone, start, end = span
    tzid = zone_id(zone, start.astimezone(zone))
    return [
        f"DTSTART;TZID={tzid}:{_local(start.astimezone(zone))}",
        f"DTEND;TZID={tzid}:{_local(end.astimezone(zone))}",
    ]


def _dates(event: Event) -> tuple[list[str], list[str]]:
    """(the VTIMEZONE lines, the DTSTART and DTEND lines)."""
    span = _zone_span(event)
    return (vtimezone(*span) if span else []), _date_lines(event)


# --------------------------------------------------------------------------- the calendar


def calendar(seen: SeenEvent, page_url: str, now: datetime, *, said: Words | None = None) -> str:
    """The calendar of an event as the guest who ``seen`` is downloads it from ``page_url`` (their page) at
    ``now``; its words in the language of ``said`` (English by default)."""
    zones, _dates_lines = _dates(seen.event)
    return _wrapped([*zones, *vevent(seen, page_url, now, said=said)], "Event page")


def _wrapped(lines: list[str], product: str, extra: tuple[str, ...] = ()) -> str:
    head = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:-//{escape_text(get_settings().service_name)}//{product}//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        *extra,
    ]
    return "".join(fold(line) + "\r\n" for line in [*head, *lines, "END:VCALENDAR"])


def vevent(seen: SeenEvent, page_url: str | None, stamp: datetime, *, said: Words | None = None) -> list[str]:
    """The VEVENT of an event as its viewer ``seen`` (its zone's VTIMEZONE apart): DTSTAMP ``stamp``;
    DESCRIPTION only with a ``page_url``; LOCATION only where the viewer sees the place; URL (one per entry) an
    online event's link for those who see the place (the page's link stays in DESCRIPTION), else the page's; its
    words in the language of ``said`` (English by default)."""
    event = seen.event
    dates = _date_lines(event)
    online_url = seen.online_url or ""
    parts = (seen.place.venue_name, seen.place.address, online_url) if seen.place else ()
    location = ", ".join(part for part in parts if part)
    revised = event.calendar_modified or event.modified
    sequence = seen.calendar_sequence
    said = said or words(None)
    described = said._("Answer and see the details on your invitation page: {url}", url=page_url) if page_url else ""
    return [
        "BEGIN:VEVENT",
        f"UID:event-{event.id}@{uid_domain()}",
        f"DTSTAMP:{_utc(stamp)}",
        f"LAST-MODIFIED:{_utc(revised)}",
        f"SEQUENCE:{sequence}",
        *dates,
        f"SUMMARY:{escape_text(event.title)}",
        *([f"LOCATION:{escape_text(location)}"] if location else []),
        *([f"DESCRIPTION:{escape_text(described)}"] if page_url else []),
        *([f"URL:{online_url or page_url}"] if online_url or page_url else []),
        f"STATUS:{'CANCELLED' if event.cancelled else 'CONFIRMED'}",
        "END:VEVENT",
    ]


def feed(entries: list[tuple[SeenEvent, str | None]], name: str, said: Words | None = None) -> str:
    """A subscribed calendar of many events (``(the event as its viewer sees it, page URL or None)``): one
    VTIMEZONE per zone spanning its events, then each VEVENT, its DTSTAMP its own last revision so the same
    events give the same bytes (an ETag of them holds until something changes); its words in the language of
    ``said`` (English by default)."""
    spans: dict[str, tuple[tzinfo, datetime, datetime]] = {}
    for seen, _url in entries:
        span = _zone_span(seen.event)
        if span is None:
            continue
        zone, start, end = span
        tzid = zone_id(zone, start.astimezone(zone))
        known = spans.get(tzid)
        spans[tzid] = (zone, min(start, known[1]), max(end, known[2])) if known else span
    lines = [line for zone, start, end in spans.values() for line in vtimezone(zone, start, end)]
    for seen, url in entries:
        lines += vevent(seen, url, seen.event.calendar_modified or seen.event.modified, said=said)
    named = (f"X-WR-CALNAME:{escape_text(name)}", "REFRESH-INTERVAL;VALUE=DURATION:PT1H")
    return _wrapped(lines, "Calendar feed", named)


def content_disposition(title: str) -> str:
    """``attachment`` named after the title (an ASCII name, and the UTF-8 one for browsers that read it)."""
    return download_names.content_disposition(title, ".ics")
