"""An event's place on the pages: its name and address as a map link, for the people allowed to see it.

The name and address are one ``geo:`` link (RFC 5870: a phone opens its own maps app), followed by the
same place in Apple Maps and in Google Maps (their documented URL forms). The point is the event's
``location`` when it has one, else its name and address are searched. Callers show the place only where
domain/visibility.py lets the reader see it; this module only draws it.
"""

from __future__ import annotations

from html import escape
from urllib.parse import quote, urlencode

from chalicelib.languages.catalogues import N_, Words, words

OPEN_IN_MAPS = N_("Open in maps")
WEB_LINK = ' rel="nofollow noopener"'


def _coordinate(value) -> str:
    return f"{float(value):.6f}".rstrip("0").rstrip(".")


def _point(event) -> str | None:
    """``lat,lng`` of the event's location, or None."""
    location = getattr(event, "location", None)
    if location is None or location.latitude is None or location.longitude is None:
        return None
    return f"{_coordinate(location.latitude)},{_coordinate(location.longitude)}"


def _lines(event) -> list[str]:
    return [line for line in (event.venue_name or "", event.address or "") if line]


def map_urls(event) -> dict[str, str] | None:
    """The place's ``geo``, ``apple`` and ``google`` URLs, or None when the event has no place."""
    point = _point(event)
    words = ", ".join(_lines(event))
    if point is None and not words:
        return None
    apple = {"q": words or point, **({"ll": point} if point else {})}
    google = {"api": "1", "query": point or words}
    return {
        "geo": f"geo:{point}?q={point}" if point else f"geo:0,0?q={quote(words, safe='')}",
        "apple": "https://maps.apple.com/?" + urlencode(apple, quote_via=quote),
        "google": "https://www.google.com/maps/search/?" + urlencode(google, quote_via=quote),
    }


def online_link(url: str) -> str:
    """An online event's link: opened in a new tab, shared with no referrer."""
    link = escape(url)
    return f'<a class="online" href="{link}" target="_blank" rel="noopener noreferrer" dir="ltr">{link}</a>'


def place(event, online_url: str | None = None, said: Words | None = None) -> str:
    """The place as HTML: its lines (each ``dir="auto"``) as one ``geo:`` link, then the Apple and Google
    Maps links, then an online event's link; "" when the event has neither. A place known only by its point
    is "Open in maps" in the language of ``said``."""
    online = f"<br>{online_link(online_url)}" if online_url else ""
    urls = map_urls(event)
    if urls is None:
        return online[len("<br>"):]
    shown = "<br>".join(f'<span dir="auto">{escape(line)}</span>' for line in _lines(event)) or escape(
        (said or words(None))._(OPEN_IN_MAPS)
    )
    return (
        f'<a class="place" href="{escape(urls["geo"])}">{shown}</a>\n'
        f'<span class="maps"><a href="{escape(urls["apple"])}"{WEB_LINK}>Apple Maps</a>'
        f' <a href="{escape(urls["google"])}"{WEB_LINK}>Google Maps</a></span>{online}'
    )
