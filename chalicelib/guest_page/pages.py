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
from chalicelib.guest_page import place_links, series_pages
from chalicelib.guest_page.answer_form import ANSWER_FIELD as ANSWER_FIELD  # the field names, for the routes
from chalicelib.guest_page.answer_form import Entered, answer_form, only_decline
from chalicelib.guest_page.language_links import document_language, switcher
from chalicelib.guest_page.rich_text import linked
from chalicelib.guest_page.service_words import host_name
from chalicelib.languages import dates
from chalicelib.languages.catalogues import N_, Words, words
from chalicelib.services.media.images import CARD_SIZE, JPEG_CONTENT_TYPE
from chalicelib.services.participants.event_reads import EVENT_CANCELLED
from chalicelib.services.participants.representations import media_url
from chalicelib.services.web.guest_answers import EVENT_PAST
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


def open_graph(page, page_url: str, said: Words | None = None) -> str:
    """Link-preview tags (Open Graph): the title, when, and an invitation to answer. Never the place, a phone
    number or anyone's name: a forwarded link previews in chats the guest does not control."""
    tags = {
        "og:type": "website",
        "og:site_name": _service(),
        "og:title": page.event.title,
        "og:description": _preview_line(page.event, said or words(None)),
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


def _preview_line(event, said: Words) -> str:
    """The preview's line: when, and an invitation to answer (a cancelled event says so instead)."""
    when = dates.long_when(event, said.language)
    if event.cancelled:
        return said._("{when}. This event was cancelled.", when=when)
    return said._("{when}. RSVP on this page.", when=when)


def _document(title: str, body: str, *, script: bool, head: str = "", said: Words | None = None, here: str = "") -> str:
    """The page around ``body``, in the language of ``said`` (its ``lang`` and direction), with the language
    switcher's links to ``here`` (the page's own address, relative) in every other language."""
    said = said or words(None)
    parts = [
        "<!doctype html>",
        document_language(said.language),
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="color-scheme" content="light dark">',
        '<meta name="robots" content="noindex">',
        f"<title>{escape(title)}</title>",
        *([head] if head else []),
        f"<style>{_asset('page.css')}</style>",
        "</head>",
        "<body>",
        f"<main>\n{body}\n</main>",
        switcher(said, here),
    ]
    if script:
        parts.append(f"<script>{_asset('page.js')}</script>")
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)


def document(title: str, body: str, said: Words | None = None, here: str = "") -> str:
    """A page of these pages' look, without script (the account pages)."""
    return _document(title, body, script=False, said=said, here=here)


def _service() -> str:
    return get_settings().service_name


# --------------------------------------------------------------------------- the event page


def _when(event, said: Words | None = None) -> str:
    """``<time>`` in the event's own zone; a timed event carries its UTC instant and offset for the script."""
    shown = escape(dates.long_when(event, (said or words(None)).language))
    if not event.is_time_specified:
        return f'<time datetime="{localtime.event_day(event).isoformat()}">{shown}</time>'
    offset = int(localtime.local_start(event).utcoffset().total_seconds() // 60)
    # Translators: the phone's own time, added by the page's script when it differs from the event's zone.
    yours = escape((said or words(None))._("{time} your time"))
    return (
        f'<time datetime="{format_datetime(event.event_date)}" data-offset="{offset}" data-yours="{yours}">'
        f"{shown}</time>"
    )


def _answer_text(
    has_accepted: bool | None, extra_guests: int, waitlist_position: int | None, said: Words, maybe: bool = False
) -> str:
    bringing = ""
    if extra_guests:
        bringing = " " + said._n("You bring {count} guest.", "You bring {count} guests.", extra_guests)
    if waitlist_position is not None:
        return said._("You're on the waitlist: number {position} in line.", position=waitlist_position) + bringing
    if has_accepted is True:
        return said._("You're going.") + bringing
    if has_accepted is False:
        return said._("You're not going.")
    if maybe:
        return said._("You said maybe.")
    return said._("You haven't answered yet.")


PLACE_AFTER_ACCEPTING = N_("The host shares the place with the guests who accept.")
# Why a page shows no buttons, as the services say it in English, and the message each language has for it.
CLOSED_REASONS = {
    EVENT_CANCELLED: N_("This event has been cancelled."),
    EVENT_PAST: N_("This event has already taken place."),
}


def _going(page, said: Words) -> str:
    """How many are going and, when the event has a limit, how many spots are left."""
    going = said._n("{count} person going", "{count} people going", page.seen.counts.attendees)
    if page.spots_left is None:
        return going
    if page.spots_left == 0 and page.event.waitlist:
        return said._n(
            "{going}, {count} spot left (accepting puts you on the waitlist)",
            "{going}, {count} spots left (accepting puts you on the waitlist)",
            page.spots_left,
            going=going,
        )
    return said._n("{going}, {count} spot left", "{going}, {count} spots left", page.spots_left, going=going)


def _stop_form(page, token: str, stopped: bool, up: str, said: Words) -> str:
    """The "Stop texting me" button: a form of its own, with the answer form's token; right after it was
    used, "Text me again", which undoes it."""
    if stopped:
        hint = escape(said._("Texts from {service} to this number are stopped.", service=_service()))
        button = escape(said._("Text me again"))
        return f"""<form method="post" action="{up}{escape(page.code)}/start" class="stop">
<input type="hidden" name="csrf" value="{escape(token)}">
<p class="hint">{hint}</p>
<button type="submit" class="stop">{button}</button>
</form>"""
    hint = escape(said._("Not expecting texts from {service}?", service=_service()))
    button = escape(said._("Stop texting me"))
    return f"""<form method="post" action="{up}{escape(page.code)}/stop" class="stop">
<input type="hidden" name="csrf" value="{escape(token)}">
<p class="hint">{hint}</p>
<button type="submit" class="stop">{button}</button>
</form>"""


def _banners(closed: str | None, notice: str | None, problem: str | None, said: Words) -> str:
    """What the guest must read first, above everything else: why they cannot answer (cancelled, past, replies
    closed, full), then the outcome of what they just did."""
    reason = said._(CLOSED_REASONS.get(closed, closed)) if closed else ""
    lines = f'<p class="closed">{escape(reason)}</p>\n' if closed else ""
    if notice:
        lines += f'<p class="notice" role="status">{escape(notice)}</p>\n'
    if problem:
        lines += f'<p class="problem" role="alert">{escape(problem)}</p>\n'
    return lines


def _details(page, said: Words) -> str:
    """The rows under the answer: where (a map link, when this guest may see it), the host, how many are going
    (not for a cancelled event, nor where the host hides the counts)."""
    event, seen = page.event, page.seen
    rows = []
    where = place_links.place(seen.place, seen.online_url, said) if seen.place else ""
    if where:
        rows.append((said._("Where"), where))
    elif seen.place_withheld:
        rows.append((said._("Where"), f'<span class="hint">{escape(said._(PLACE_AFTER_ACCEPTING))}</span>'))
    rows.append((said._("Host"), f'<span dir="auto">{escape(host_name(page.host_name, said))}</span>'))
    if seen.counts and not event.cancelled:
        rows.append((said._("Going"), escape(_going(page, said))))
    return "\n".join(f"<dt>{escape(name)}</dt><dd>{value}</dd>" for name, value in rows)


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
    said: Words | None = None,
) -> str:
    """The guest's page: the event, counts, their answer, and the form or why there is none. ``entered``: what a
    refused submission carried, shown again as entered. ``at_action``: shown again at a form's own address
    (``/i/<code>/rsvp``), one level deeper, so its links climb one more. ``series_dates``: a series' upcoming
    dates, each with its own answer buttons. ``day``: the going guest's pass and the album (guest_page/the_day.py).
    ``said``: the words of the guest's language (English by default)."""
    said = said or words(None)
    up = "../" if at_action else ""
    event, invitation = page.event, page.invitation
    replied = invitation.has_accepted is not None or page.waitlist_position is not None or bool(invitation.maybe)
    own_message = invitation.rsvp_message if replied else ""
    extra = int(invitation.extra_guests or 0)
    state = _answer_text(invitation.has_accepted, extra, page.waitlist_position, said, bool(invitation.maybe))
    answer = f'<p id="answer">{escape(state, quote=False)}'
    if own_message:
        written = f'<span dir="auto">{escape(own_message)}</span>'
        answer += " " + said.html("Your message: \u201c{message}\u201d", message=written)
    answer += "</p>"
    closed = page.closed_reason(now)
    shown_message = own_message if entered is None else entered.message  # a refused answer shows what was typed
    form = answer_form(page, token, shown_message, entered, now, up, said, maybe=True) if not closed else ""
    cover = _media_url(getattr(event, "cover_key", None))
    picture = f'<img class="cover" src="{escape(cover)}" alt="">\n' if cover else ""
    host = f'<span dir="auto">{escape(host_name(page.host_name, said))}</span>'
    invited = said.html("{host} invited you", host=host)
    your_answer, add_to_calendar = escape(said._("Your answer")), escape(said._("Add to calendar"))
    delete_account = escape(said._("Delete my account and data"))
    body = f"""{_banners(closed or only_decline(page, now), notice, problem, said)}{picture}\
<p class="kicker">{invited}</p>
<h1 dir="auto">{escape(event.title)}</h1>
<p class="when">{_when(event, said)}</p>
<section class="answer" aria-labelledby="answer-title">
<h2 id="answer-title">{your_answer}</h2>
{form}
{answer}
</section>
<dl>
{_details(page, said)}
</dl>
{_announcements(page, said)}\
{series_pages.dates_section(series_dates or [], page.code, token, up, said)}\
{day}<p><a href="{up}{escape(page.code)}/event.ics" download>{add_to_calendar}</a></p>
{series_pages.subscribe_link(page_url, page.code, up, said)}
{_stop_form(page, token, stopped, up, said)}
<p class="hint"><a href="{up}../account/delete">{delete_account}</a></p>"""
    head = open_graph(page, page_url, said)
    here = f"{up}{escape(page.code)}"
    return _document(f"{event.title} \u00b7 {_service()}", body, script=True, head=head, said=said, here=here)


def _posted(event, moment: datetime, said: Words) -> str:
    """When an announcement was made, in the event's zone: ``Jun 1, 6:30 PM EDT``."""
    return dates.posted(moment, localtime.zone_of(event), said.language)


def _announcements(page, said: Words) -> str:
    """The host's latest announcements, newest first, each in its own writing direction; nothing when none."""
    if not page.announcements:
        return ""
    items = "\n".join(
        f'<li><p dir="auto">{linked(item.text)}</p>'
        f'<time datetime="{format_datetime(item.created)}">'
        f"{escape(_posted(page.event, item.created, said))}</time></li>"
        for item in page.announcements
    )
    heading = escape(said._("From the host"))
    return f'<h2>{heading}</h2>\n<ul class="announcements">\n{items}\n</ul>\n'


# --------------------------------------------------------------------------- error pages


def message_page(heading: str, text: str, said: Words | None = None) -> str:
    """A page of one heading and one sentence, both already in the language of ``said``."""
    body = f"<h1>{escape(heading)}</h1>\n<p>{escape(text)}</p>"
    return _document(f"{heading} \u00b7 {_service()}", body, script=False, said=said)


def gone_page(title: str, said: Words | None = None) -> str:
    """The link of an event deleted with its host's account."""
    said = said or words(None)
    heading = said._("This event was cancelled")
    text = said.html("{title} was cancelled by its host.", title=f'<span dir="auto">{escape(title)}</span>')
    body = f"<h1>{escape(heading)}</h1>\n<p>{text}</p>"
    return _document(f"{heading} \u00b7 {_service()}", body, script=False, said=said)


def no_longer_invited_page(title: str, said: Words | None = None) -> str:
    """The link of a guest a host removed from the event."""
    said = said or words(None)
    heading = said._("You are no longer invited")
    text = said.html("The host removed you from {title}.", title=f'<span dir="auto">{escape(title)}</span>')
    body = f"<h1>{escape(heading)}</h1>\n<p>{text}</p>"
    return _document(f"{heading} \u00b7 {_service()}", body, script=False, said=said)


def error_page(status: int, retry_after: str | None = None, said: Words | None = None) -> str:
    """The page of an error status. Every 404 (unknown, malformed or expired code) is this same page."""
    said = said or words(None)
    if status == 404:
        days = get_settings().web_link_days_after_event
        text = said._("Check that it was copied whole. Links stop working {days} days after the event.", days=days)
        return message_page(said._("This link doesn't work"), text, said)
    if status == 429:
        wait = said._("Try again later.")
        if retry_after:
            wait = said._("Try again in {seconds} seconds.", seconds=retry_after)
        text = said._("Too many pages were opened from your network.") + " " + wait
        return message_page(said._("Too many requests"), text, said)
    if status == 503:
        text = said._("The service is busy right now. Try again in a moment.")
        return message_page(said._("Please try again"), text, said)
    if status == 403:
        text = said._("Open the link from your invitation text and answer on that page.")
        return message_page(said._("Answer not accepted"), text, said)
    if status in (400, 413, 415):
        text = said._("Open the link from your invitation text and answer there.")
        return message_page(said._("Answer not understood"), text, said)
    return message_page(said._("Something went wrong"), said._("Try again in a moment."), said)
