"""Invitation texts: what a person without an account is sent, and the limits on sending it (per owner
per hour, per stranger per day), the stop list and the carrier's opt-out list. No chalice imports."""

from __future__ import annotations

import logging
import time
from datetime import datetime

from chalicelib import limits
from chalicelib.config import get_settings
from chalicelib.domain.recurrence import Cadence
from chalicelib.languages import dates
from chalicelib.languages.catalogues import N_, Words, words
from chalicelib.messaging import sms_segments, sms_sender
from chalicelib.messaging.notifications.messages import event_expiry
from chalicelib.parallel import parallel_map
from chalicelib.services.guards.ratelimit import Limit, RollingLimit, charge_each, take_up_to
from chalicelib.services.texts import stop_list, text_outbox
from chalicelib.services.texts.host_label import host_label
from chalicelib.services.texts.repeat_words import at_time, from_when
from chalicelib.services.texts.text_language import words_for
from chalicelib.services.texts.text_wording import STOP_WORDS, segment_limits, shown_title
from chalicelib.store import counters
from chalicelib.store.records import Event, User

log = logging.getLogger("invites")

# Before the opt-out words of a text that asks (text_outbox.ASKING_KINDS), with two-way texting on.
ANSWER_WORDS = N_("Reply 1 if you're going, 2 if not.")
# Translators: {service} is the service's name (never translated), {name} the host's, {title} the event's;
# {when} is the date; {reply} a link, or the sentence asking to get the app; {stop} the opt-out sentence.
INVITATION = N_('{service}: {name} invited you to "{title}", {when}. {reply} {stop}')
# Translators: the tightest invitation, for a text that also says how to answer by reply: the title first,
# the host after it ({stop} then holds the reply sentence and the opt-out sentence).
INVITATION_TITLE_FIRST = N_('{service}: "{title}" from {name}, {when}. {reply} {stop}')
GET_THE_APP = N_("Get the {service} app to reply.")
PROMOTION = N_('{service}: a spot opened at "{title}" by {name}, {when}. You\'re in! {link} {stop}')
DROPPED = N_(
    '{service}: "{title}" by {name}, {when}, has too few spots for your party now; '
    "you're off the waitlist. {link} {stop}"
)


def _stranger_limit(person: User) -> RollingLimit:
    """Invitation texts to a number without an active user, from all owners together: a few in any
    24 hours, so nobody can use the service to flood a stranger's phone."""
    return RollingLimit.of(limits.INVITE_TEXTS_PER_STRANGER, person.phone_number)


def reachable(people: list[User]) -> list[User]:
    """Those of ``people`` who may get an invitation text: not on the stop list, not opted out with SNS.

    One round: the stop list's BatchGetItem and one ``CheckIfPhoneNumberIsOptedOut`` per number, side by
    side. Raises the AWS error when DynamoDB or SNS is down (a 503, before the event is written). The
    invitations are made either way and answer the same: nobody learns who stopped the texts."""
    if not people:
        return []
    numbers = [person.phone_number for person in people]
    jobs = [lambda: stop_list.stopped(numbers)]
    jobs += [lambda number=number: sms_sender.opted_out(number) for number in numbers]
    stopped, *opted_out = parallel_map(lambda job: job(), jobs)
    kept = [
        person for person, out in zip(people, opted_out, strict=True) if not out and person.phone_number not in stopped
    ]
    if len(kept) < len(people):
        log.info("invitation texts not sent: %d of %d stopped or opted out", len(people) - len(kept), len(people))
    return kept


def owner_quota_key(owner: User, now: float) -> str:
    """The counter of the owner's hourly text quota at ``now``: a text not sent gives one back to it."""
    return Limit.of(limits.INVITE_TEXTS_PER_OWNER, owner.id).key(now)


def texts_allowed(owner: User, people: list[User], now: float) -> list[User]:
    """Those of ``people`` the limits let text now, counted: the owner's hourly quota (the first as
    far as it goes), then each number's daily cap, read and counted only for the numbers the quota
    let through (one read, one transaction per 100). Texts the caps refuse go back to the owner.
    Never a 429: an answer that changed when the quota runs out would tell the owner which numbers
    have no account (they are the ones texted)."""
    owner_limit = Limit.of(limits.INVITE_TEXTS_PER_OWNER, owner.id)
    taken = take_up_to(owner_limit, len(people), now)
    candidates = people[:taken]
    try:
        allowed = charge_each([_stranger_limit(person) for person in candidates], now)
    except Exception:
        counters.add(owner_limit.key(now), -taken)  # nobody is texted now: the owner's quota back for the retry
        raise
    chosen = [person for person, ok in zip(candidates, allowed, strict=True) if ok]
    if len(chosen) < taken:
        counters.add(owner_limit.key(now), len(chosen) - taken)  # the owner's quota back for texts not sent
    return chosen


def allowed_now(owner: User, people: list[User], now: float) -> list[User]:
    """Those of ``people`` (already ``reachable``) the owner's hourly quota lets text now, counted: for news
    about an event they were invited to (its own per-guest limits apply on top, not the strangers' cap)."""
    if not people:
        return []
    owner_limit = Limit.of(limits.INVITE_TEXTS_PER_OWNER, owner.id)
    return people[: take_up_to(owner_limit, len(people), now)]


def _fitted(wording, owner: User, event: Event, said: Words, *, title_first: bool = False, plainer=()) -> str:
    """``wording(when)`` (a template of name and title) fitted with the host's name and the event's title,
    with the date's weekday when it fits, else without; ``title_first``: last, ``wording(when, title_first=True)``
    without the weekday (the tightest form, for a text that also says how to answer by reply). ``plainer``:
    wordings of the same signature saying less (a series' invitation without its first date, then without its
    repeat), tried in turn when none fits."""
    whens = (dates.short_when(event, said.language), dates.short_when(event, said.language, weekday=False))
    templates = []
    for form in (wording, *plainer):
        templates += [form(when) for when in whens]
        if title_first:
            templates.append(form(whens[1], title_first=True))
    return sms_segments.fit(templates, host_label(owner), shown_title(event.title, said), segment_limits())


def asking_words(said: Words | None = None) -> str:
    """What a text that asks says before its opt-out words: how to answer by reply when the stage's number
    receives replies (``SMS_TWO_WAY``), else nothing."""
    return (said or words(None))._(ANSWER_WORDS) + " " if get_settings().sms_two_way else ""


def invitation_text(
    owner: User,
    event: Event,
    link: str = "",
    series_words: Cadence | None = None,
    said: Words | None = None,
    *,
    asks: bool = True,
) -> str:
    """The invitation SMS: ``<service>: <name> invited you to "<title>", <when>. <link> Reply STOP to opt out.``
    For a series, its cadence in the person's words (``every other Tuesday``) goes first:
    ``..., <series words> from <when>. ...``; when that cannot keep to its segments (UCS-2 with a long link),
    ``<series words> at <time>``, and at the longest name and title the plain invitation (the page lists the dates).
    With two-way texting on, an invitation that ``asks`` says how to answer by reply before the opt-out words.

    The sender is named first and the opt-out words are always there; the inviter's name and the title
    are made one line, folded to the SMS alphabet and cut (the name first, neither below its minimum)
    so the text keeps to its segment limit. When even that is tight, the date goes without its weekday.
    Without a link (no public base URL) it asks to get the app instead. ``said``: the words of the person's
    language (English by default)."""
    said = said or words(None)
    service = get_settings().service_name
    reply = link or said._(GET_THE_APP, service=service)
    ask = asking_words(said) if asks else ""
    stop = ask + said._(STOP_WORDS)

    def worded(when: str, title_first: bool = False) -> sms_segments.Template:
        template = INVITATION_TITLE_FIRST if title_first else INVITATION
        return lambda who, title: said._(
            template, service=service, name=who, title=title, when=when, reply=reply, stop=stop
        )

    def wording(when: str, title_first: bool = False) -> sms_segments.Template:
        return worded(from_when(series_words, when, said), title_first)

    def repeat_at_time(_when: str, title_first: bool = False) -> sms_segments.Template:
        return worded(at_time(series_words, event, said), title_first)

    plainer = (repeat_at_time, worded) if series_words else ()
    return _fitted(wording, owner, event, said, title_first=bool(ask), plainer=plainer)


def send_invitation_texts(
    owner: User,
    event: Event,
    people: list[User],
    links: dict[int, str],
    kind: str = text_outbox.INVITATION,
    *,
    wording=None,
    series_words: Cadence | None = None,
    expires: datetime | None = None,
) -> dict[int, str]:
    """Text ``people`` (invitees without an account, already ``reachable``), each with the link to their
    event page, as far as the limits allow, through the text outbox (``kind``: an invitation or a join
    approval); the invitations stand either way, and the answer is the same. Each row's ``text_status`` tells
    the hosts what became of its text; a text that could not even be claimed is logged. Returns each person's
    ``text_status`` by user id. ``wording(owner, event, link, said)`` writes another text than
    :func:`invitation_text` (a plan's decision); ``series_words``: a series' cadence, said in each
    invitation text (``every other Tuesday``); ``expires``: when the texts' records may go (default: after
    the event)."""
    if not people:
        return {}
    now = time.time()
    chosen = texts_allowed(owner, people, now)
    if len(chosen) < len(people):
        log.info("invitation texts not sent: %d of %d over a limit", len(people) - len(chosen), len(people))
    quota = (owner_quota_key(owner, now),)
    expires = expires or event_expiry(event)
    texts = [
        text_outbox.Text(
            kind,
            str(event.id),
            event.id,
            person.id,
            person.phone_number,
            wording(owner, event, links.get(person.id, ""), words_for(person))
            if wording
            else invitation_text(
                owner,
                event,
                links.get(person.id, ""),
                series_words,
                words_for(person),
                asks=kind in text_outbox.ASKING_KINDS,
            ),
            expires,
            quota,
        )
        for person in chosen
    ]
    states = dict.fromkeys((person.id for person in people), text_outbox.NOT_SENT)
    try:
        states.update(text_outbox.send_texts(texts))
    except Exception:  # noqa: BLE001 - the records could not be written (DynamoDB down): the invitations stand
        log.warning("%s texts not sent: their records could not be written", kind)
    return states


def _waitlist_text(message: str, owner: User, event: Event, link: str, said: Words | None) -> str:
    said = said or words(None)
    service, stop = get_settings().service_name, said._(STOP_WORDS)

    def wording(when: str) -> sms_segments.Template:
        return lambda who, title: said._(
            message, service=service, name=who, title=title, when=when, link=link, stop=stop
        )

    return _fitted(wording, owner, event, said)


def promotion_text(owner: User, event: Event, link: str, said: Words | None = None) -> str:
    """The text to a waitlisted guest without an account who was given a spot, with the link to their
    page: worded, folded and cut like the invitation text, within the same segment limits."""
    return _waitlist_text(PROMOTION, owner, event, link, said)


def dropped_text(owner: User, event: Event, link: str, said: Words | None = None) -> str:
    """The text to a waiting guest without an account whose party no longer fits the event (the owner made
    it smaller), with the link to their page, where a smaller party may answer again."""
    return _waitlist_text(DROPPED, owner, event, link, said)
