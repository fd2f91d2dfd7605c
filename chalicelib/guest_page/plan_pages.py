"""HTML of a plan's page (/p/<code>), for people without the app: the dates offered with their tallies, and for
an invitee a form to vote on each (yes, if need be, no); once decided, the date and the way to the event.

The guest page's look, headers and script (the phone's own time next to each date); usable without script.
Every value shown is escaped, user-written text carries ``dir="auto"``. No phone number and no one's votes but
the reader's own are shown: the owner sees each person's votes in the app. The page is in the language of its
``said`` (English by default); the vote form posts with that language kept.
"""

from __future__ import annotations

from html import escape
from types import SimpleNamespace

from chalicelib.config import get_settings
from chalicelib.guest_page.account_pages import keeping
from chalicelib.guest_page.pages import _document, _when
from chalicelib.guest_page.service_words import host_name
from chalicelib.languages import dates
from chalicelib.languages.catalogues import N_, Words, words

VOTE_FIELD = "vote_"  # the form field of an option's vote: vote_<option id>
CHOICE_WORDS = {"yes": N_("Yes"), "if_need_be": N_("If need be"), "no": N_("No")}
# How many chose each answer, in a date's tally ("1 yes, 0 if need be, 2 no").
TALLY_WORDS = {"yes": N_("{count} yes"), "if_need_be": N_("{count} if need be"), "no": N_("{count} no")}


def _title(plan) -> str:
    return f"{plan.title} \u00b7 {get_settings().service_name}"


def _moment(plan, option):
    """An event-like value of an option's date, in the plan's zone, for the time helpers of the guest page."""
    return SimpleNamespace(
        event_date=option.starts_at, is_time_specified=True, time_zone=plan.time_zone, utc_offset_minutes=0
    )


def _tally(counts: dict[str, int], said: Words) -> str:
    # Translators: what separates the items of a list ("1 yes, 0 if need be, 2 no"), its spaces included.
    comma = said._p("list separator", ", ")
    return comma.join(said._(TALLY_WORDS[key], count=counts[key]) for key in CHOICE_WORDS)


def _option_line(plan, option, said: Words) -> str:
    label = f' <span dir="auto">({escape(option.label)})</span>' if option.label else ""
    return f"{_when(_moment(plan, option), said)}{label}"


def _vote_fieldset(plan, option, counts: dict[str, int], chosen: str | None, error: bool, said: Words) -> str:
    name = f"{VOTE_FIELD}{option.id}"
    radios = "".join(
        f'<label class="choice"><input type="radio" name="{name}" value="{key}"'
        f"{' checked' if key == chosen else ''}> {escape(said._(choice))}</label>"
        for key, choice in CHOICE_WORDS.items()
    )
    invalid = ' aria-invalid="true" aria-describedby="votes-problem"' if error else ""
    so_far = escape(said._("So far: {tally}", tally=_tally(counts, said)))
    so_far = f'<p class="hint">{so_far}</p>'
    return (
        f'<fieldset class="question"{invalid}><legend>{_option_line(plan, option, said)}</legend>'
        f'{so_far}<div class="choices">{radios}</div></fieldset>'
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
    said: Words | None = None,
) -> str:
    """The page of ``page`` (services.plan_page.PlanPage). ``chosen``: the votes shown in the form (what was
    sent, on a refused submission); ``at_action``: shown at the form's own address, one level deeper.
    ``notice`` and ``problem`` are already in the language of ``said``."""
    said = said or words(None)
    plan = page.view.plan
    up = "../" if at_action else ""
    banners = f'<p class="notice" role="status">{escape(notice)}</p>\n' if notice else ""
    banners += f'<p class="problem" role="alert" id="votes-problem">{escape(problem)}</p>\n' if problem else ""
    deadline = ""
    if plan.vote_deadline is not None and plan.status != "decided":
        moment = SimpleNamespace(
            event_date=plan.vote_deadline, is_time_specified=True, time_zone=plan.time_zone, utc_offset_minutes=0
        )
        closes = said._("Voting closes {when}.", when=dates.long_when(moment, said.language))
        deadline = f'<p class="hint">{escape(closes)}</p>\n'
    host = f'<span dir="auto">{escape(host_name(page.host_name, said))}</span>'
    form = _form(page, options, counts, token, closed, chosen, bool(problem), up, said)
    planning = said.html("{host} is planning", host=host)
    body = f"""<p class="kicker">{planning}</p>
<h1 dir="auto">{escape(plan.title)}</h1>
{banners}{_decided(page, options, said)}{deadline}{form}"""
    return _document(_title(plan), body, script=True, said=said, here=f"{up}{escape(page.code)}")


def _decided(page, options: list, said: Words) -> str:
    plan = page.view.plan
    if plan.status != "decided":
        return ""
    option = next((option for option in options if option.id == plan.decided_option), None)
    when = " " + said.html("It's on {when}.", when=_when(_moment(plan, option), said)) if option else ""
    link = page.event_link
    if link:
        answer = escape(said._("Answer the invitation"))
        way = f'<a href="{escape(link)}">{answer}</a>'
    elif page.member is None:
        way = escape(said._("Your guests were invited. See who's coming in the app."), quote=False)
    else:
        way = escape(said._("Your invitation is in the app and in your texts."))
    is_set = escape(said._("The date is set."))
    return f'<p class="notice" role="status">{is_set}{when} {way}</p>\n'


def _tallies(plan, options: list, counts: dict, said: Words) -> str:
    """Each date with its tallies, where no form is shown."""
    items = "\n".join(
        f'<li><p>{_option_line(plan, option, said)}</p><p class="hint">{escape(_tally(counts[option.id], said))}</p>'
        "</li>"
        for option in options
    )
    heading = escape(said._("The dates"))
    return f'<h2>{heading}</h2>\n<ul class="announcements">\n{items}\n</ul>'


def _form(
    page, options: list, counts: dict, token: str, closed: bool, chosen: dict | None, error: bool, up: str,
    said: Words,
) -> str:  # fmt: skip
    """The vote form of an invitee while voting is open; else the dates with their tallies, and why."""
    plan = page.view.plan
    if page.member is None:
        hint = "" if plan.status == "decided" else said._("You choose the date in the app once your guests have voted.")
        return _tallies(plan, options, counts, said) + (f'\n<p class="hint">{escape(hint)}</p>' if hint else "")
    if plan.status == "decided":
        return _tallies(plan, options, counts, said)
    if closed:
        host = f'<span dir="auto">{escape(host_name(page.host_name, said))}</span>'
        closed_line = said.html("Voting has closed. {host} picks the date.", host=host)
        return f'<p class="closed">{closed_line}</p>\n{_tallies(plan, options, counts, said)}'
    held = chosen if chosen is not None else page.own_votes
    fieldsets = "\n".join(
        _vote_fieldset(plan, option, counts[option.id], held.get(str(option.id)), error, said) for option in options
    )
    heading, save = escape(said._("When can you make it?")), escape(said._("Save my answers"))
    return f"""<h2>{heading}</h2>
<form method="post" action="{keeping(f"{up}{escape(page.code)}/votes", said)}">
<input type="hidden" name="csrf" value="{escape(token)}">
{fieldsets}
<div class="buttons"><button type="submit" class="accept">{save}</button></div>
</form>"""
