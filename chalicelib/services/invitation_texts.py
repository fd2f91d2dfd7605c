"""Invitation texts: what a person without an account is sent, and the limits on sending it (per owner
per hour, per stranger per day), the stop list and the carrier's opt-out list. No chalice imports."""

from __future__ import annotations

import logging
import time

from chalicelib import limits, localtime
from chalicelib.config import get_settings
from chalicelib.messaging import sms_segments, sms_sender
from chalicelib.parallel import parallel_map
from chalicelib.services import stop_list
from chalicelib.services.host_label import host_label
from chalicelib.services.ratelimit import Limit, RollingLimit, charge_each, take_up_to
from chalicelib.store import counters
from chalicelib.store.records import Event, User

log = logging.getLogger("invites")

STOP_WORDS = "Reply STOP to opt out."
NO_TITLE = "(no title)"


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


def _texts_allowed(owner: User, people: list[User]) -> list[User]:
    """Those of ``people`` the limits let text now, counted: the owner's hourly quota (the first as
    far as it goes), then each number's daily cap, read and counted only for the numbers the quota
    let through (one read, one transaction per 100). Texts the caps refuse go back to the owner.
    Never a 429: an answer that changed when the quota runs out would tell the owner which numbers
    have no account (they are the ones texted)."""
    owner_limit = Limit.of(limits.INVITE_TEXTS_PER_OWNER, owner.id)
    now = time.time()
    taken = take_up_to(owner_limit, len(people), now)
    candidates = people[:taken]
    allowed = charge_each([_stranger_limit(person) for person in candidates], now)
    chosen = [person for person, ok in zip(candidates, allowed, strict=True) if ok]
    if len(chosen) < taken:
        counters.add(owner_limit.key(now), len(chosen) - taken)  # the owner's quota back for texts not sent
    return chosen


def allowed_now(owner: User, people: list[User]) -> list[User]:
    """Those of ``people`` (already ``reachable``) the owner's hourly quota lets text now, counted: for news
    about an event they were invited to (its own per-guest limits apply on top, not the strangers' cap)."""
    if not people:
        return []
    owner_limit = Limit.of(limits.INVITE_TEXTS_PER_OWNER, owner.id)
    return people[: take_up_to(owner_limit, len(people), time.time())]


def invitation_text(owner: User, event: Event, link: str = "", series_words: str = "") -> str:
    """The invitation SMS: ``<service>: <name> invited you to "<title>", <when>. <link> Reply STOP to opt out.``
    For a series, ``series_words`` (``every other Tuesday``) go first: ``..., <series words> from <when>. ...``.

    The sender is named first and the opt-out words are always there; the inviter's name and the title
    are made one line, folded to the SMS alphabet and cut (the name first, neither below its minimum)
    so the text keeps to its segment limit. When even that is tight, the date goes without its weekday.
    Without a link (no public base URL) it asks to get the app instead."""
    settings = get_settings()
    service = settings.service_name
    reply = link or f"Get the {service} app to reply."
    limits = {"gsm": settings.invite_sms_max_segments, "ucs2": settings.invite_sms_max_segments_ucs2}

    def wording(when: str) -> sms_segments.Template:
        when = f"{series_words} from {when}" if series_words else when
        return lambda who, title: f'{service}: {who} invited you to "{title}", {when}. {reply} {STOP_WORDS}'

    templates = [wording(localtime.short_when(event)), wording(localtime.short_when(event, weekday=False))]
    name = host_label(owner)
    title = event.title if sms_segments.one_line(event.title or "") else NO_TITLE  # only invisible characters
    return sms_segments.fit(templates, name, title, limits)


def send_invitation_texts(
    owner: User, event: Event, people: list[User], links: dict[int, str], series_words: str = ""
) -> None:
    """Text ``people`` (invitees without an account, already ``reachable``), each with the link to their
    event page, as far as the limits allow, from the invitations' origination identity; the invitations
    stand either way, and the answer is the same. A failed text is logged, never undoes the invitation."""
    if not people:
        return
    chosen = _texts_allowed(owner, people)
    if len(chosen) < len(people):
        log.info("invitation texts not sent: %d of %d over a limit", len(people) - len(chosen), len(people))

    texts = [
        (person.phone_number, invitation_text(owner, event, links.get(person.id, ""), series_words))
        for person in chosen
    ]
    _send(texts, chosen, "invitation")


def _send(texts: list[tuple[str, str]], people: list[User], purpose: str, *, raise_uncounted: bool = False) -> None:
    """Send texts nobody asked for, from the invitations' origination identity, as far as the month's
    budget lets them (sms_sender.Priority.UNASKED); those held back or failed are logged, never raised. When
    the budget cannot be counted (DynamoDB down) nothing is sent: logged, or raised with ``raise_uncounted``."""
    try:
        outcomes = sms_sender.send_each(
            texts, priority=sms_sender.Priority.UNASKED, origination=get_settings().sms_origination_invites
        )
    except Exception:
        if raise_uncounted:
            raise
        log.warning("%s texts not sent: the text budget could not be counted", purpose)
        return
    for person, outcome in zip(people, outcomes, strict=True):
        if outcome == sms_sender.FAILED:
            log.warning("%s text failed for user %s", purpose, person.id)
        elif outcome == sms_sender.HELD:
            log.info("%s text held back for user %s: the month's text budget", purpose, person.id)


def promotion_text(owner: User, event: Event, link: str) -> str:
    """The text to a waitlisted guest without an account who was given a spot, with the link to their
    page: worded, folded and cut like the invitation text, within the same segment limits."""
    settings = get_settings()
    limits = {"gsm": settings.invite_sms_max_segments, "ucs2": settings.invite_sms_max_segments_ucs2}

    def wording(when: str) -> sms_segments.Template:
        return lambda who, title: (
            f'{settings.service_name}: a spot opened at "{title}" by {who}, {when}. You\'re in! {link} {STOP_WORDS}'
        )

    templates = [wording(localtime.short_when(event)), wording(localtime.short_when(event, weekday=False))]
    name = host_label(owner)
    title = event.title if sms_segments.one_line(event.title or "") else NO_TITLE
    return sms_segments.fit(templates, name, title, limits)


def dropped_text(owner: User, event: Event, link: str) -> str:
    """The text to a waiting guest without an account whose party no longer fits the event (the owner made
    it smaller), with the link to their page, where a smaller party may answer again."""
    settings = get_settings()
    limits = {"gsm": settings.invite_sms_max_segments, "ucs2": settings.invite_sms_max_segments_ucs2}

    def wording(when: str) -> sms_segments.Template:
        return lambda who, title: (
            f'{settings.service_name}: "{title}" by {who}, {when}, has too few spots for your party now; '
            f"you're off the waitlist. {link} {STOP_WORDS}"
        )

    templates = [wording(localtime.short_when(event)), wording(localtime.short_when(event, weekday=False))]
    name = host_label(owner)
    title = event.title if sms_segments.one_line(event.title or "") else NO_TITLE
    return sms_segments.fit(templates, name, title, limits)


def send_promotion_texts(
    owner: User, event: Event, people: list[User], links: dict[int, str], wording=promotion_text
) -> None:
    """Text each promoted guest their page link (or, with ``wording``, another waitlist notice such as
    :func:`dropped_text`), as invitation texts go: not to numbers on the stop list
    or SNS's opt-out list, within the same limits (the owner's hourly quota, each number's daily cap),
    from the invitations' origination identity. The seats stand whatever happens here: a failed check, or a
    month's text budget that cannot be counted, sends nothing and raises (the queue message comes back, its
    claims released by the caller); a failed text, or one the budget holds back, is logged."""
    people = reachable(people)
    chosen = _texts_allowed(owner, people)
    if len(chosen) < len(people):
        log.info("promotion texts not sent: %d of %d over a limit", len(people) - len(chosen), len(people))
    try:
        texts = [(person.phone_number, wording(owner, event, links[person.id])) for person in chosen]
    except Exception:  # noqa: BLE001 - the seats stand; the texts are best effort
        log.warning("promotion texts not sent: a text could not be written")
        return
    _send(texts, chosen, "promotion", raise_uncounted=True)  # the queue message comes back
