"""HTML of the guest's event page and of its error pages, with the headers they share.

Server-rendered and usable without script: the time is shown in the event's own zone (its
``time_zone``, else its creator's offset) with the zone's abbreviation or offset; the one inline
script only adds the phone's own time when that differs, and the Content-Security-Policy allows
exactly it (and the inline style) by hash. Every value shown is escaped. No phone number and no
other guest's name is ever shown; the counts and the place only as far as the event's settings let this
guest see them (domain/visibility.py).
"""

from __future__ import annotations

import base64
import hashlib
from datetime import datetime
from functools import cache
from html import escape
from pathlib import Path
from urllib.parse import urlsplit

from chalicelib import localtime
from chalicelib.config import get_settings
from chalicelib.guest_page import series_pages
from chalicelib.guest_page.answer_form import ANSWER_FIELD as ANSWER_FIELD  # the field names, for the routes
from chalicelib.guest_page.answer_form import Entered, answer_form
from chalicelib.services.media.images import CARD_SIZE, JPEG_CONTENT_TYPE
from chalicelib.services.participants.representations import media_url
from chalicelib.timeutil import format_datetime

HERE = Path(__file__).resolve().parent
HTML = "text/html; charset=utf-8"


@cache
def _asset(name: str) -> str:
    return (HERE / name).read_text(encoding="utf-8")


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def security_headers() -> dict[str, str]:
    """Headers of every response under /i/: not indexed, no referrer, only the page's own inline code and
    images from where the service keeps them (an event's cover)."""
    policy = "; ".join([*_fixed_policy(), f"img-src {_media_origin()}"])
    return {
        "Content-Security-Policy": policy,
        "X-Robots-Tag": "noindex",
        "Referrer-Policy": "no-referrer",
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "no-store",
    }


@cache
def _fixed_policy() -> tuple[str, ...]:
    return (
        "default-src 'none'",
        f"script-src {_csp_hash(_asset('page.js'))}",
        f"style-src {_csp_hash(_asset('page.css'))}",
        "form-action 'self'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    )


def _media_origin() -> str:
    """The scheme and host the stored images are served from (services.representations.media_url)."""
    parts = urlsplit(media_url("x"))
    return f"{parts.scheme}://{parts.netloc}"


def _media_url(key: str | None) -> str | None:
    return media_url(key)


def open_graph(page, page_url: str) -> str:
    """Link-preview tags (Open Graph): the title, when, and an invitation to answer. Never the place, a phone
    number or anyone's name: a forwarded link previews in chats the guest does not control."""
    tags = {
        "og:type": "website",
        "og:site_name": _service(),
        "og:title": page.event.title,
        "og:description": _preview_line(page.event),
        "og:url": page_url,
    }
    card = _media_url(getattr(page.event, "cover_card_key", None))
    if card:  # the cover's card: the size and shape large link previews draw (services/media/images.py CARD_SIZE)
        tags.update(
            {
                "og:image": card,
                "og:image:type": JPEG_CONTENT_TYPE,
                "og:image:width": str(CARD_SIZE[0]),
                "og:image:height": str(CARD_SIZE[1]),
                "og:image:alt": page.event.title,
            }
        )
    return "\n".join(f'<meta property="{name}" content="{escape(value)}">' for name, value in tags.items())


def _preview_line(event) -> str:
    """The preview's line: when, and an invitation to answer (a cancelled event says so instead)."""
    if event.cancelled:
        return f"{localtime.long_when(event)}. This event was cancelled."
    return f"{localtime.long_when(event)}. RSVP on this page."


def _document(title: str, body: str, *, script: bool, head: str = "") -> str:
    parts = [
        "<!doctype html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="robots" content="noindex">',
        f"<title>{escape(title)}</title>",
        *([head] if head else []),
        f"<style>{_asset('page.css')}</style>",
        "</head>",
        "<body>",
        f"<main>\n{body}\n</main>",
    ]
    if script:
        parts.append(f"<script>{_asset('page.js')}</script>")
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)


def document(title: str, body: str) -> str:
    """A page of these pages' look, without script (the account pages)."""
    return _document(title, body, script=False)


def _service() -> str:
    return get_settings().service_name


# --------------------------------------------------------------------------- the event page


def _when(event) -> str:
    """``<time>`` in the event's own zone; a timed event carries its UTC instant and offset for the script."""
    if not event.is_time_specified:
        return f'<time datetime="{localtime.event_day(event).isoformat()}">{escape(localtime.long_when(event))}</time>'
    offset = int(localtime.local_start(event).utcoffset().total_seconds() // 60)
    return (
        f'<time datetime="{format_datetime(event.event_date)}" data-offset="{offset}">'
        f"{escape(localtime.long_when(event))}</time>"
    )


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def _where(venue: str, address: str, online_url: str = "") -> str:
    """The place's lines; an online event's link opens in a new tab, shared with no referrer."""
    lines = [f'<span dir="auto">{escape(line)}</span>' for line in (venue, address) if line]
    if online_url:
        link = escape(online_url)
        lines.append(f'<a class="online" href="{link}" target="_blank" rel="noopener noreferrer" dir="ltr">{link}</a>')
    return "<br>".join(lines)


def _answer_text(has_accepted: bool | None, extra_guests: int, waitlist_position: int | None) -> str:
    bringing = f" You bring {_count(extra_guests, 'guest', 'guests')}." if extra_guests else ""
    if waitlist_position is not None:
        return f"You're on the waitlist: number {waitlist_position} in line.{bringing}"
    if has_accepted is True:
        return "You're going." + bringing
    if has_accepted is False:
        return "You're not going."
    return "You haven't answered yet."


PLACE_AFTER_ACCEPTING = "The host shares the place with the guests who accept."


def _stop_form(page, token: str, stopped: bool, up: str = "") -> str:
    """The "Stop texting me" button: a form of its own, with the answer form's token; right after it was
    used, "Text me again", which undoes it."""
    if stopped:
        return f"""<form method="post" action="{up}{escape(page.code)}/start" class="stop">
<input type="hidden" name="csrf" value="{escape(token)}">
<p class="hint">Texts from {escape(_service())} to this number are stopped.</p>
<button type="submit" class="stop">Text me again</button>
</form>"""
    return f"""<form method="post" action="{up}{escape(page.code)}/stop" class="stop">
<input type="hidden" name="csrf" value="{escape(token)}">
<p class="hint">Not expecting texts from {escape(_service())}?</p>
<button type="submit" class="stop">Stop texting me</button>
</form>"""


def event_page(
    page,
    *,
    page_url: str,
    now: datetime,
    token: str,
    notice: str | None = None,
    problem: str | None = None,
    entered: Entered | None = None,
    stopped: bool = False,
    at_action: bool = False,
    series_dates: list | None = None,
    day: str = "",
) -> str:
    """The guest's page: the event, counts, their answer, and the form or why there is none. ``entered``: what a
    refused submission carried, shown again as entered. ``at_action``: shown again at a form's own address
    (``/i/<code>/rsvp``), one level deeper, so its links climb one more. ``series_dates``: a series' upcoming
    dates, each with its own answer buttons. ``day``: the going guest's pass and the album (guest_page/the_day.py)."""
    up = "../" if at_action else ""
    event, invitation, sight = page.event, page.invitation, page.sight
    rows = [("When", _when(event))]
    where = _where(event.venue_name or "", event.address or "", event.online_url or "")
    if sight.place and where:
        rows.append(("Where", where))
    elif not sight.place and (where or event.location is not None):
        rows.append(("Where", f'<span class="hint">{escape(PLACE_AFTER_ACCEPTING)}</span>'))
    rows.append(("Host", f'<span dir="auto">{escape(page.host_name)}</span>'))
    if sight.counts:
        going = _count(page.going, "person going", "people going")
        if page.spots_left is not None:
            going += f", {_count(page.spots_left, 'spot', 'spots')} left"
            if page.spots_left == 0 and event.waitlist:
                going += " (accepting puts you on the waitlist)"
        rows.append(("Going", going))
    details = "\n".join(f"<dt>{name}</dt><dd>{value}</dd>" for name, value in rows)
    replied = invitation.has_accepted is not None or page.waitlist_position is not None
    own_message = invitation.rsvp_message if replied else ""
    extra = int(invitation.extra_guests or 0)
    answer = f'<p id="answer">{_answer_text(invitation.has_accepted, extra, page.waitlist_position)}'
    if own_message:
        answer += f' Your message: \u201c<span dir="auto">{escape(own_message)}</span>\u201d'
    answer += "</p>"
    closed = page.closed_reason(now)
    shown_message = own_message if entered is None else entered.message  # a refused answer shows what was typed
    form = answer_form(page, token, shown_message, entered, now, up) if not closed else ""
    action = f'<p class="closed">{escape(closed)}</p>' if closed else form
    banners = ""
    if notice:
        banners += f'<p class="notice" role="status">{escape(notice)}</p>\n'
    if problem:
        banners += f'<p class="problem" role="alert">{escape(problem)}</p>\n'
    cover = _media_url(getattr(event, "cover_key", None))
    picture = f'<img class="cover" src="{escape(cover)}" alt="">\n' if cover else ""
    body = f"""{picture}<p class="kicker"><span dir="auto">{escape(page.host_name)}</span> invited you</p>
<h1 dir="auto">{escape(event.title)}</h1>
{banners}<dl>
{details}
</dl>
{_announcements(page)}<h2>Your answer</h2>
{answer}
{action}
{series_pages.dates_section(series_dates or [], page.code, token, up)}\
{day}<p><a href="{up}{escape(page.code)}/event.ics" download>Add to calendar</a></p>
{series_pages.subscribe_link(page_url, page.code, up)}
{_stop_form(page, token, stopped, up)}
<p class="hint"><a href="{up}../account/delete">Delete my account and data</a></p>"""
    return _document(f"{event.title} \u00b7 {_service()}", body, script=True, head=open_graph(page, page_url))


def _posted(event, moment: datetime) -> str:
    """When an announcement was made, in the event's zone: ``Jun 1, 6:30 PM EDT``."""
    local = moment.astimezone(localtime.zone_of(event))
    return f"{local.strftime('%b')} {local.day}, {localtime.clock(local)} {localtime.zone_label(local)}"


def _announcements(page) -> str:
    """The host's latest announcements, newest first, each in its own writing direction; nothing when none."""
    if not page.announcements:
        return ""
    items = "\n".join(
        f'<li><p dir="auto">{escape(item.text)}</p>'
        f'<time datetime="{format_datetime(item.created)}">{escape(_posted(page.event, item.created))}</time></li>'
        for item in page.announcements
    )
    return f'<h2>From the host</h2>\n<ul class="announcements">\n{items}\n</ul>\n'


# --------------------------------------------------------------------------- error pages


def message_page(heading: str, text: str) -> str:
    body = f"<h1>{escape(heading)}</h1>\n<p>{escape(text)}</p>"
    return _document(f"{heading} \u00b7 {_service()}", body, script=False)


def gone_page(title: str) -> str:
    """The link of an event deleted with its host's account."""
    body = (
        f'<h1>This event was cancelled</h1>\n<p><span dir="auto">{escape(title)}</span> was cancelled by its host.</p>'
    )
    return _document(f"This event was cancelled \u00b7 {_service()}", body, script=False)


def error_page(status: int, retry_after: str | None = None) -> str:
    """The page of an error status. Every 404 (unknown, malformed or expired code) is this same page."""
    if status == 404:
        days = get_settings().web_link_days_after_event
        text = f"Check that it was copied whole. Links stop working {days} days after the event."
        return message_page("This link doesn't work", text)
    if status == 429:
        wait = f" Try again in {retry_after} seconds." if retry_after else " Try again later."
        return message_page("Too many requests", "Too many pages were opened from your network." + wait)
    if status == 503:
        return message_page("Please try again", "The service is busy right now. Try again in a moment.")
    if status == 403:
        return message_page("Answer not accepted", "Open the link from your invitation text and answer on that page.")
    if status in (400, 413, 415):
        return message_page("Answer not understood", "Open the link from your invitation text and answer there.")
    return message_page("Something went wrong", "Try again in a moment.")
