"""HTML of the join pages (/j/<code>), for people without the app.

The event (title, when, host; the place only when everyone may see it) with a number form, then the pin
form, then the person's own guest page (a redirect) or, for events that want approval, a "request sent"
page. No script. Every value shown is escaped; user-written text carries ``dir="auto"``.
"""

from __future__ import annotations

from html import escape

from chalicelib import localtime
from chalicelib.config import get_settings
from chalicelib.guest_page import account_pages, place_links
from chalicelib.guest_page.account_pages import _field, _problem, _title, message_page
from chalicelib.guest_page.pages import _document, _when

EXPIRED = "This page was open for too long. Please try again."


def open_graph(event, page_url: str) -> str:
    """Link-preview tags: the title and when. Never the place, a phone number or anyone's name."""
    tags = {
        "og:type": "website",
        "og:site_name": get_settings().service_name,
        "og:title": event.title,
        "og:description": f"{localtime.long_when(event)}. Join on this page.",
        "og:url": page_url,
    }
    return "\n".join(f'<meta property="{name}" content="{escape(value)}">' for name, value in tags.items())


def _event_lines(page) -> str:
    event = page.event
    shown = page.seen.place
    place = place_links.place(shown, page.seen.online_url) if shown else ""
    where = f'\n<p class="where">{place}</p>' if place else ""
    return f"""<h1 dir="auto">{escape(event.title)}</h1>
<p class="when">{_when(event)}</p>
<p class="host">Hosted by <span dir="auto">{escape(page.host_name)}</span></p>{where}"""


def event_page(page, token: str, page_url: str, *, number: str = "", error: str | None = None,
               problem: str | None = None, name: str = "", name_error: str | None = None,
               again: bool = False) -> str:  # fmt: skip
    """The event and the name and number form; ``again``: shown at a form's own address (``/j/<code>/pin``,
    ``/verify``) after a refusal, so the form posts to ``pin`` there."""
    if page.over:
        body = f'<p class="closed">This event is over: nobody can join it any more.</p>\n{_event_lines(page)}'
        return _document(_title(page.event.title), body, script=False, head=open_graph(page.event, page_url))
    name_field = _field(
        "full_name",
        "Your name",
        "So the hosts know who is asking to join.",
        name,
        name_error,
        autocomplete="name",
        maxlength="256",
        dir="auto",
    )
    field = _field(
        "phone_number",
        "Your phone number",
        "With the country code, e.g. +1 415 555 0100. We text a pin to it.",
        number,
        error,
        inputmode="tel",
        autocomplete="tel",
        maxlength="32",
    )
    how = (
        "The hosts decide who joins: we tell them you asked."
        if page.approval
        else "You join the guest list at once and get your own page to answer."
    )
    body = f"""{_event_lines(page)}
{_problem(problem)}<p>{escape(how)}</p>
<form method="post" action="{"pin" if again else escape(page.code) + "/pin"}">
<input type="hidden" name="csrf" value="{escape(token)}">
{name_field}
{field}
<div class="buttons"><button type="submit" class="accept">Text me a pin</button></div>
</form>"""
    return _document(_title(page.event.title), body, script=False, head=open_graph(page.event, page_url))


def pin_page(token: str, number: str, name: str, *, error: str | None = None) -> str:
    return account_pages.pin_page(token, number, error=error, button="Join", kept={"full_name": name})


def requested_page() -> str:
    return message_page(
        "Your request was sent",
        "The hosts decide who joins. If they let you in, we text you a link to your page.",
    )


def joined_page() -> str:
    """A join that was saved whose page link could not be made just then."""
    return message_page(
        "You joined",
        "You are on the guest list. Open the join link again in a moment to see your page and answer.",
    )


PIN_FORM_EXPIRED = account_pages.PIN_FORM_EXPIRED
