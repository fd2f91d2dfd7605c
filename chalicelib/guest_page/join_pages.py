"""HTML of the join pages (/j/<code>), for people without the app.

The event (title, when, host; the place only when everyone may see it) with a number form, then the pin
form, then the person's own guest page (a redirect) or, for events that want approval, a "request sent"
page. No script. Every value shown is escaped; user-written text carries ``dir="auto"``. Each page is in the
language of its ``said`` (English by default), its forms posting with that language kept.
"""

from __future__ import annotations

from html import escape

from chalicelib.config import get_settings
from chalicelib.guest_page import account_pages, place_links
from chalicelib.guest_page.account_pages import _field, _problem, _title, keeping, number_field
from chalicelib.guest_page.pages import _document, _when
from chalicelib.guest_page.service_words import host_name, said_again
from chalicelib.languages import dates
from chalicelib.languages.catalogues import N_, Words, words

EXPIRED = account_pages.EXPIRED
PIN_FORM_EXPIRED = account_pages.PIN_FORM_EXPIRED


def open_graph(event, page_url: str, said: Words | None = None) -> str:
    """Link-preview tags: the title and when. Never the place, a phone number or anyone's name."""
    said = said or words(None)
    tags = {
        "og:type": "website",
        "og:site_name": get_settings().service_name,
        "og:title": event.title,
        "og:description": said._("{when}. Join on this page.", when=dates.long_when(event, said.language)),
        "og:url": page_url,
    }
    return "\n".join(f'<meta property="{name}" content="{escape(value)}">' for name, value in tags.items())


def _event_lines(page, said: Words) -> str:
    event = page.event
    shown = page.seen.place
    place = place_links.place(shown, page.seen.online_url, said) if shown else ""
    where = f'\n<p class="where">{place}</p>' if place else ""
    host = f'<span dir="auto">{escape(host_name(page.host_name, said))}</span>'
    hosted_by = said.html("Hosted by {host}", host=host)
    return f"""<h1 dir="auto">{escape(event.title)}</h1>
<p class="when">{_when(event, said)}</p>
<p class="host">{hosted_by}</p>{where}"""


HOW_WITH_APPROVAL = N_("The hosts decide who joins: we tell them you asked.")
HOW_AT_ONCE = N_("You join the guest list at once and get your own page to answer.")


def event_page(page, token: str, page_url: str, *, number: str = "", error: str | None = None,
               problem: str | None = None, name: str = "", name_error: str | None = None,
               again: bool = False, said: Words | None = None) -> str:  # fmt: skip
    """The event and the name and number form; ``again``: shown at a form's own address (``/j/<code>/pin``,
    ``/verify``) after a refusal, so the form posts to ``pin`` there. ``error``, ``name_error``: the services'
    English refusals; ``problem``: one of this module's messages, in English."""
    said = said or words(None)
    here = f"../{escape(page.code)}" if again else escape(page.code)
    head = open_graph(page.event, page_url, said)
    if page.over:
        over = escape(said._("This event is over: nobody can join it any more."))
        body = f'<p class="closed">{over}</p>\n{_event_lines(page, said)}'
        return _document(_title(page.event.title), body, script=False, head=head, said=said, here=here)
    name_field = _field(
        "full_name",
        said._("Your name"),
        said._("So the hosts know who is asking to join."),
        name,
        said_again(name_error, said),
        autocomplete="name",
        maxlength="256",
        dir="auto",
    )
    how = said._(HOW_WITH_APPROVAL if page.approval else HOW_AT_ONCE)
    action = keeping("pin" if again else escape(page.code) + "/pin", said)
    send = escape(said._("Text me a pin"))
    body = f"""{_event_lines(page, said)}
{_problem(said._(problem) if problem else None)}<p>{escape(how)}</p>
<form method="post" action="{action}">
<input type="hidden" name="csrf" value="{escape(token)}">
{name_field}
{number_field(number, error, said)}
<div class="buttons"><button type="submit" class="accept">{send}</button></div>
</form>"""
    return _document(_title(page.event.title), body, script=False, head=head, said=said, here=here)


def pin_page(token: str, number: str, name: str, code: str, *, error: str | None = None,
             said: Words | None = None) -> str:  # fmt: skip
    """The pin form, shown at ``/j/<code>/pin`` or ``/verify``; its switcher goes back to the join page."""
    said = said or words(None)
    return account_pages.pin_page(
        token, number, error=error, button=said._("Join"), kept={"full_name": name}, said=said, here=f"../{code}"
    )


REQUESTED = (
    N_("Your request was sent"),
    N_("The hosts decide who joins. If they let you in, we text you a link to your page."),
)
# A join that was saved whose page link could not be made just then.
JOINED = (
    N_("You joined"),
    N_("You are on the guest list. Open the join link again in a moment to see your page and answer."),
)


def outcome_page(outcome: tuple[str, str], code: str, said: Words | None = None) -> str:
    """The page after the pin of ``outcome`` (``REQUESTED`` or ``JOINED``), shown at ``/j/<code>/verify``."""
    said = said or words(None)
    heading, text = outcome
    return account_pages.message_page(said._(heading), said._(text), said, f"../{code}")
