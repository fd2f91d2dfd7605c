"""Answering an invitation by replying to the text that asked (two-way texting, ``SMS_TWO_WAY``).

A reply that is no STOP, START or HELP word (services/texts/inbound_sms.py reads those first) comes here. It
answers the invitation of the latest text that asked that number within 30 days (store/text_asks.py, written by
the text outbox), by the kind of that text (``ANSWERED_BY_KIND``), through the guest page's own answer
(``guest_answers.answer``: capacity, waitlist, closed replies, the party-size rule, required questions). Its
confirmation goes through the text outbox, counted in the month's budget as an answer, not to a stopped or
opted-out number, once however often SNS delivers the reply (keyed by its ``inboundMessageId``).

A reply the reader cannot read, or one to a number no text asked within 30 days, gets the help text, once per
number per day. At most ``TEXT_REPLIES_PER_NUMBER`` replies per number per hour are acted on; more are ignored.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from datetime import timedelta
from types import SimpleNamespace

from chalicelib import limits
from chalicelib.config import get_settings
from chalicelib.domain.text_replies import Answer, TextReply, read_reply
from chalicelib.errors import Conflict, OutOfRange, Throttled, ValidationError
from chalicelib.languages import dates
from chalicelib.languages.catalogues import N_, Words, words
from chalicelib.languages.choice import for_text
from chalicelib.messaging import sms_segments
from chalicelib.messaging.notifications.messages import event_expiry
from chalicelib.phones import mask_phone
from chalicelib.services.conversation.host_messages import NUDGE
from chalicelib.services.guards import ratelimit
from chalicelib.services.guards.ratelimit import Limit
from chalicelib.services.participants.event_reads import EVENT_CANCELLED, REPLIES_CLOSED
from chalicelib.services.replies import attendance
from chalicelib.services.replies.replies import EVENT_FULL
from chalicelib.services.texts import guest_texts, inbound_sms, text_outbox
from chalicelib.services.texts.invitation_texts import reachable
from chalicelib.services.texts.text_wording import segment_limits, shown_title
from chalicelib.services.web import guest_answers
from chalicelib.store import invitations as invitation_store
from chalicelib.store import text_asks
from chalicelib.store.users import get_user
from chalicelib.timeutil import utcnow

log = logging.getLogger("invites")

ANSWERED, HELPED, IGNORED = "answered", "help_sent", inbound_sms.IGNORED
HELP_KEPT = timedelta(days=2)  # the help text's record outlives its day
CLOSED_CONFLICTS = frozenset({REPLIES_CLOSED, EVENT_CANCELLED, guest_answers.EVENT_PAST})
# The texts back, after "<service>: ". Translators: {title} is the event's, {link} the guest's page.
CLOSED = N_('Replies to "{title}" are closed.')
FULL = N_('"{title}" is full. {link}')
QUESTIONS = N_('"{title}" has questions for you: {link}')
# Translators: {position} is the guest's place in the waitlist (1 is next).
WAITLISTED = N_("\"{title}\" is full: you're number {position} on the waitlist. We'll text you if a spot opens.")
SAID_MAYBE = N_('You said maybe to "{title}". Reply 1 if you\'re going, 2 if not.')
NOT_GOING = N_('You\'re not going to "{title}". Reply 1 if that changes.')
# Translators: {when} is the event's date.
GOING = N_('You\'re going to "{title}", {when}. Reply 2 if that changes. {link}')
NOT_UNDERSTOOD = N_("{service}: Reply 1 or 2, or open your invitation: {link}")
Wording = Callable[[Words, str, str], str]  # (the person's words, title, link) -> the text after "<service>: "


def going_wording(event) -> Wording:
    """The confirmation of a party going, with the event's date in the person's language."""
    return lambda said, title, link: said._(GOING, title=title, link=link, when=dates.short_when(event, said.language))


def too_many_wording(most: int) -> Wording:
    """The answer to a party larger than the event allows: how many more the guest may bring."""

    def wording(said: Words, title: str, link: str) -> str:
        return said._n(
            '"{title}" lets you bring {count} more at most. {link}',
            '"{title}" lets you bring {count} more at most. {link}',
            most,
            title=title,
            link=link,
        )

    return wording


def worded(message: str, **values: object) -> Wording:
    """The wording of ``message`` in the person's words, with ``values`` besides the title and the link."""
    return lambda said, title, link: said._(message, title=title, link=link, **values)


def handle(text: inbound_sms.InboundText) -> str:
    """Act on a reply that is no keyword: answer, help, or (over the hourly limit) nothing. AWS faults are
    raised, so Lambda delivers the reply again (the answer and its confirmation happen once)."""
    try:
        ratelimit.hit(Limit.of(limits.TEXT_REPLIES_PER_NUMBER, text.sender))
    except Throttled:
        log.info("reply by text from %s ignored: over the hourly limit", mask_phone(text.sender))
        return IGNORED
    now = int(utcnow().timestamp())
    ask = text_asks.latest(text.sender, now)
    reply = read_reply(text.body)
    answer_of_kind = ANSWERED_BY_KIND.get(ask.text_kind) if ask is not None else None
    if ask is None or answer_of_kind is None:
        return _help(text, None)
    if reply is None:
        return _help(text, ask)
    return answer_of_kind(ask, reply, text)


# --------------------------------------------------------------------------- answering an invitation


def _answer_invitation(ask: text_asks.Ask, reply: TextReply, text: inbound_sms.InboundText) -> str:
    """Going, not going or maybe, as the guest page answers."""
    invitation, event = invitation_store.reply_state(ask.event_id, ask.user_id)
    if invitation is None or event is None:  # uninvited or deleted since: nothing to answer
        return _help(text, None)
    page = guest_answers.GuestPage(code="", event=event, invitation=invitation, going=0)
    going, maybe = reply.answer is Answer.GOING, reply.answer is Answer.MAYBE
    try:
        answered = guest_answers.answer(
            page,
            accept=going,
            message=invitation.rsvp_message or "",
            extra_guests=reply.extra_guests,
            maybe=maybe,
        )
    except Conflict as refused:
        if str(refused) in CLOSED_CONFLICTS:
            return _confirm(text, ask, event, worded(CLOSED))
        if str(refused) == EVENT_FULL:
            return _confirm(text, ask, event, worded(FULL), linked=True)
        raise  # the reply kept changing under it: delivered again, it is read again
    except OutOfRange as too_many:
        return _confirm(text, ask, event, too_many_wording(int(too_many.most or 0)), linked=True)
    except ValidationError as invalid:
        if "answers" not in invalid.errors:
            raise
        return _confirm(text, ask, event, worded(QUESTIONS), linked=True)
    if answered.waitlist_position is not None:
        return _confirm(text, ask, event, worded(WAITLISTED, position=answered.waitlist_position))
    if going:
        return _going(text, ask, event)
    if maybe:
        return _confirm(text, ask, event, worded(SAID_MAYBE))
    return _confirm(text, ask, event, worded(NOT_GOING))


def _answer_still_coming(ask: text_asks.Ask, reply: TextReply, text: inbound_sms.InboundText) -> str:
    """1 confirms the going party; 2 declines at once (its spots go to the waitlist), as the app's answer does;
    3 is a maybe, as for an invitation. A reminder is answered so too where the event asks for confirmations
    (both may go out in the same hour)."""
    invitation, event = invitation_store.reply_state(ask.event_id, ask.user_id)
    if invitation is None or event is None:
        return _help(text, None)
    if reply.answer is not Answer.GOING or not event.confirm_attendance:
        return _answer_invitation(ask, reply, text)
    try:
        attendance.confirm_attendance(event, invitation)
    except Conflict:  # not seated any more (declined, waiting, released) or cancelled: answered as an invitation
        return _answer_invitation(ask, reply, text)
    return _going(text, ask, event)


def _going(text: inbound_sms.InboundText, ask: text_asks.Ask, event) -> str:
    """The confirmation of a party going (seated, or confirmed still coming), with the date and the link."""
    return _confirm(text, ask, event, going_wording(event), linked=True)


# What a reply does, by the kind of the text it answers (text_outbox.ASKING_KINDS): one function per kind.
ANSWERED_BY_KIND: dict[str, Callable[[text_asks.Ask, TextReply, inbound_sms.InboundText], str]] = {
    text_outbox.INVITATION: _answer_invitation,
    NUDGE: _answer_invitation,
    text_outbox.REMINDER: _answer_still_coming,
    text_outbox.STILL_COMING: _answer_still_coming,
    text_outbox.RELEASED: _answer_invitation,
}


# --------------------------------------------------------------------------- the texts back


def words_of(user_id: int, number: str) -> Words:
    """The words of the person who replied: the language they chose on a page, else their number's country's."""
    person = get_user(user_id) if user_id else None
    return words(for_text(getattr(person, "language", None), number))


def _reachable(number: str) -> bool:
    """Not on the stop list, not opted out with SNS (what every invitation text asks first)."""
    return bool(reachable([SimpleNamespace(phone_number=number)]))


def _send(kind: str, text: inbound_sms.InboundText, event_id: int, user_id: int, body: str, expires_at, occurrence):
    if not _reachable(text.sender):
        log.info("reply by text from %s: no %s, the number is stopped or opted out", mask_phone(text.sender), kind)
        return
    text_outbox.send_text(text_outbox.Text(kind, occurrence, event_id, user_id, text.sender, body, expires_at))


def confirmation_text(event, wording: Wording, said: Words, link: str = "") -> str:
    """``<service>: `` and ``wording(said, title, link)``, the title cut to the texts' segment limits."""
    service = get_settings().service_name

    def template(_who: str, title: str) -> str:
        return f"{service}: {wording(said, title, link)}".rstrip()

    return sms_segments.fit([template], "", shown_title(event.title, said), segment_limits())


def _confirm(
    text: inbound_sms.InboundText, ask: text_asks.Ask, event, wording: Wording, *, linked: bool = False
) -> str:
    """The text back about ``event`` in the person's words: ``<service>: `` and ``wording(said, title, link)``,
    the title cut to the texts' segment limits; ``linked``: with a fresh link to the guest's page. Once per reply
    (its inbound message id)."""
    link = guest_texts.fresh_link(event.id, ask.user_id) if linked else ""
    body = confirmation_text(event, wording, words_of(ask.user_id, text.sender), link)
    occurrence = text.message_id or uuid.uuid4().hex
    _send(text_outbox.REPLY_CONFIRMATION, text, event.id, ask.user_id, body, event_expiry(event), occurrence)
    return ANSWERED


def _help(text: inbound_sms.InboundText, ask: text_asks.Ask | None) -> str:
    """``<service>: Reply 1 or 2, or open your invitation: <link>`` for a reply to an invitation that was not
    read; the service's HELP answer to a number no text asked. Once per number per UTC day."""
    now = utcnow()
    if ask is not None:
        link = guest_texts.fresh_link(ask.event_id, ask.user_id)
        said = words_of(ask.user_id, text.sender)
        body = said._(NOT_UNDERSTOOD, service=get_settings().service_name, link=link).rstrip(": ")
    else:
        body = inbound_sms.help_text(inbound_sms.help_language(text.body, text.sender))
    event_id, user_id = (ask.event_id, ask.user_id) if ask is not None else (0, 0)
    _send(text_outbox.REPLY_HELP, text, event_id, user_id, body, now + HELP_KEPT, f"{now:%Y%m%d}:{text.sender}")
    return HELPED
