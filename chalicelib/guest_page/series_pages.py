"""The parts of a texted guest's page that only a series has: its upcoming dates, each with its answer and
its own Going / Can't go buttons (forms that work without script), and the "Subscribe" link of the page."""

from __future__ import annotations

from html import escape

from chalicelib import localtime

ANSWERS = {True: "You're going", False: "You can't go", None: "No answer yet"}


def _answer(date) -> str:
    if date.invitation.has_accepted is None and date.invitation.wait_key:
        return "You're on the waitlist"
    return ANSWERS[date.invitation.has_accepted]


def _pressed(chosen: bool) -> str:
    return f' aria-pressed="{"true" if chosen else "false"}"'


def dates_section(dates: list, code: str, token: str, up: str = "") -> str:
    """``<h2>Upcoming dates</h2>`` and one row per date; "" when the page is not a series'."""
    if not dates:
        return ""
    rows = []
    for date in dates:
        answered = date.invitation.has_accepted
        action = f"{up}{escape(code)}/dates/{date.event.id}/rsvp"
        rows.append(f"""<li class="date">
<p><span class="when">{escape(localtime.long_when(date.event))}</span>
<span class="hint" id="date-{date.event.id}">{escape(_answer(date))}</span></p>
<form method="post" action="{action}" class="buttons" aria-describedby="date-{date.event.id}">
<input type="hidden" name="csrf" value="{escape(token)}">
<button type="submit" name="answer" value="accept" class="accept"{_pressed(answered is True)}>Going</button>
<button type="submit" name="answer" value="decline" class="decline"{_pressed(answered is False)}>Can't go</button>
</form>
</li>""")
    return '<h2>Upcoming dates</h2>\n<ul class="dates">\n' + "\n".join(rows) + "\n</ul>\n"


def subscribe_link(page_url: str, code: str, up: str = "") -> str:
    """"Subscribe": the page's live calendar, as a ``webcal:`` link where the page is served over http(s)."""
    feed = f"{up}{escape(code)}/calendar.ics"
    if page_url.startswith(("https://", "http://")):
        feed = escape("webcal://" + page_url.split("://", 1)[1].rstrip("/") + "/calendar.ics")
    return f'<p><a href="{feed}">Subscribe</a> <span class="hint">(your calendar stays up to date)</span></p>'
