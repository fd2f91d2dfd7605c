"""The parts of a texted guest's page that only a series has: its upcoming dates, each with its answer and
its own Going / Maybe / Can't go buttons (forms that work without script), and the "Subscribe" link of the
page."""

from __future__ import annotations

from html import escape

from chalicelib.domain.answers import is_maybe
from chalicelib.languages import dates as local_dates
from chalicelib.languages.catalogues import ENGLISH, N_, Words, words

ANSWERS = {True: N_("You're going"), False: N_("You can't go"), None: N_("No answer yet")}
ON_THE_WAITLIST = N_("You're on the waitlist")
SAID_MAYBE = N_("You said maybe.")  # the event page's own words for it
MAYBE = N_("Maybe")  # the event page's button


def _answer(date, said: Words) -> str:
    if date.invitation.has_accepted is None and date.invitation.wait_key:
        return said._(ON_THE_WAITLIST)
    if is_maybe(date.invitation):
        return said._(SAID_MAYBE)
    return said._(ANSWERS[date.invitation.has_accepted])


def _pressed(chosen: bool) -> str:
    return f' aria-pressed="{"true" if chosen else "false"}"'


def dates_section(dates: list, code: str, token: str, up: str = "", said: Words | None = None) -> str:
    """``<h2>Upcoming dates</h2>`` and one row per date; "" when the page is not a series'."""
    if not dates:
        return ""
    said = said or words(None)
    going, cannot = escape(said._p("a series date's button", "Going")), escape(said._("Can't go"))
    maybe = escape(said._(MAYBE))
    rows = []
    for date in dates:
        answered = date.invitation.has_accepted
        action = f"{up}{escape(code)}/dates/{date.event.id}/rsvp"
        rows.append(f"""<li class="date">
<p><span class="when">{escape(local_dates.long_when(date.event, said.language))}</span>
<span class="hint" id="date-{date.event.id}">{escape(_answer(date, said))}</span></p>
<form method="post" action="{action}" class="buttons" aria-describedby="date-{date.event.id}">
<input type="hidden" name="csrf" value="{escape(token)}">
<button type="submit" name="answer" value="accept" class="accept"{_pressed(answered is True)}>{going}</button>
<button type="submit" name="answer" value="maybe" class="maybe"{_pressed(is_maybe(date.invitation))}>{maybe}</button>
<button type="submit" name="answer" value="decline" class="decline"{_pressed(answered is False)}>{cannot}</button>
</form>
</li>""")
    heading = escape(said._("Upcoming dates"))
    return f'<h2>{heading}</h2>\n<ul class="dates">\n' + "\n".join(rows) + "\n</ul>\n"


def subscribe_link(page_url: str, code: str, up: str = "", said: Words | None = None) -> str:
    """"Subscribe": the page's live calendar, as a ``webcal:`` link where the page is served over http(s), in
    the page's language when it is not English."""
    feed = f"{up}{escape(code)}/calendar.ics"
    if page_url.startswith(("https://", "http://")):
        feed = escape("webcal://" + page_url.split("://", 1)[1].rstrip("/") + "/calendar.ics")
    said = said or words(None)
    feed += "" if said.language == ENGLISH else f"?lang={escape(said.language)}"  # a calendar app sends no cookie
    subscribe, hint = escape(said._("Subscribe")), escape(said._("(your calendar stays up to date)"))
    return f'<p><a href="{feed}">{subscribe}</a> <span class="hint">{hint}</span></p>'
