"""HTML of a plan's page (/p/<code>), for people without the app: the dates offered with their tallies, and for
an invitee a form to vote on each (yes, if need be, no); once decided, the date and the way to the event.

The guest page's look, headers and script (the phone's own time next to each date); usable without script.
Every value shown is escaped, user-written text carries ``dir="auto"``. No phone number and no one's votes but
the reader's own are shown: the owner sees each person's votes in the app.
"""

from __future__ import annotations

from html import escape
from types import SimpleNamespace

from chalicelib import localtime
from chalicelib.config import get_settings
from chalicelib.guest_page.pages import _document, _when

VOTE_FIELD = "vote_"  # the form field of an option's vote: vote_<option id>
CHOICE_WORDS = {"yes": "Yes", "if_need_be": "If need be", "no": "No"}


def _title(plan) -> str:
    return f"{plan.title} \u00b7 {get_settings().service_name}"


def _moment(plan, option):
    """An event-like value of an option's date, in the plan's zone, for the time helpers of the guest page."""
    return SimpleNamespace(
        event_date=option.starts_at, is_time_specified=True, time_zone=plan.time_zone, utc_offset_minutes=0
    )


def _tally(counts: dict[str, int]) -> str:
    return ", ".join(f"{counts[key]} {words.lower()}" for key, words in CHOICE_WORDS.items())


def _option_line(plan, option) -> str:
    label = f' <span dir="auto">({escape(option.label)})</span>' if option.label else ""
    return f"{_when(_moment(plan, option))}{label}"


def _vote_fieldset(plan, option, counts: dict[str, int], chosen: str | None, error: bool) -> str:
    name = f"{VOTE_FIELD}{option.id}"
    radios = "".join(
        f'<label class="choice"><input type="radio" name="{name}" value="{key}"'
        f"{' checked' if key == chosen else ''}> {escape(words)}</label>"
        for key, words in CHOICE_WORDS.items()
    )
    invalid = ' aria-invalid="true" aria-describedby="votes-problem"' if error else ""
    so_far = f'<p class="hint">So far: {escape(_tally(counts))}</p>'
    return (
        f'<fieldset class="question"{invalid}><legend>{_option_line(plan, option)}</legend>{so_far}{radios}</fieldset>'
    )


def plan_page(
    page,
    options: list,
    counts: dict[int, dict[str, int]],
    *,
    token: str,
    closed: bool,
    notice: str | None = None,
    problem: str | None = None,
    chosen: dict[str, str] | None = None,
    at_action: bool = False,
) -> str:
    """The page of ``page`` (services.plan_page.PlanPage). ``chosen``: the votes shown in the form (what was
    sent, on a refused submission); ``at_action``: shown at the form's own address, one level deeper."""
    plan = page.view.plan
    up = "../" if at_action else ""
    banners = f'<p class="notice" role="status">{escape(notice)}</p>\n' if notice else ""
    banners += f'<p class="problem" role="alert" id="votes-problem">{escape(problem)}</p>\n' if problem else ""
    deadline = ""
    if plan.vote_deadline is not None and plan.status != "decided":
        moment = SimpleNamespace(
            event_date=plan.vote_deadline, is_time_specified=True, time_zone=plan.time_zone, utc_offset_minutes=0
        )
        deadline = f'<p class="hint">Voting closes {escape(localtime.long_when(moment))}.</p>\n'
    body = f"""<p class="kicker"><span dir="auto">{escape(page.host_name)}</span> is planning</p>
<h1 dir="auto">{escape(plan.title)}</h1>
{banners}{_decided(page, options)}{deadline}{_form(page, options, counts, token, closed, chosen, bool(problem), up)}"""
    return _document(_title(plan), body, script=True)


def _decided(page, options: list) -> str:
    plan = page.view.plan
    if plan.status != "decided":
        return ""
    option = next((option for option in options if option.id == plan.decided_option), None)
    when = f" It's on {_when(_moment(plan, option))}." if option else ""
    link = page.event_link
    if link:
        way = f'<a href="{escape(link)}">Answer the invitation</a>'
    elif page.member is None:
        way = "Your guests were invited. See who's coming in the app."
    else:
        way = "Your invitation is in the app and in your texts."
    return f'<p class="notice" role="status">The date is set.{when} {way}</p>\n'


def _tallies(plan, options: list, counts: dict) -> str:
    """Each date with its tallies, where no form is shown."""
    items = "\n".join(
        f'<li><p>{_option_line(plan, option)}</p><p class="hint">{escape(_tally(counts[option.id]))}</p></li>'
        for option in options
    )
    return f'<h2>The dates</h2>\n<ul class="announcements">\n{items}\n</ul>'


def _form(
    page, options: list, counts: dict, token: str, closed: bool, chosen: dict | None, error: bool, up: str
) -> str:
    """The vote form of an invitee while voting is open; else the dates with their tallies, and why."""
    plan = page.view.plan
    if page.member is None:
        hint = "" if plan.status == "decided" else "You choose the date in the app once your guests have voted."
        return _tallies(plan, options, counts) + (f'\n<p class="hint">{hint}</p>' if hint else "")
    if plan.status == "decided":
        return _tallies(plan, options, counts)
    if closed:
        host = f'<span dir="auto">{escape(page.host_name)}</span>'
        return f'<p class="closed">Voting has closed. {host} picks the date.</p>\n{_tallies(plan, options, counts)}'
    held = chosen if chosen is not None else page.own_votes
    fieldsets = "\n".join(
        _vote_fieldset(plan, option, counts[option.id], held.get(str(option.id)), error) for option in options
    )
    return f"""<h2>When can you make it?</h2>
<form method="post" action="{up}{escape(page.code)}/votes">
<input type="hidden" name="csrf" value="{escape(token)}">
{fieldsets}
<div class="buttons"><button type="submit" class="accept">Save my answers</button></div>
</form>"""
