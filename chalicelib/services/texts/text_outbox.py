"""The text outbox: every text the service sends a guest without the app (invitation, join approval, promotion,
drop, change, cancellation, announcement, nudge) goes out from a claimed record (store/outbox.py), marked sent
only once SNS took it, with SNS's MessageId kept. Pins and HELP answers are not here: they are sent while the
person waits, and a failure is their 503.

One entry point: :func:`send_text` (claim, then one try). A caller that claims first and checks after (the stop
list, the opt-out list, the owner's quota: guest_texts.send_claimed) hands its held claim to
:func:`send_held`. What a try can end in:

- SNS took it: ``sent``.
- SNS was busy or down (a throttle such as ``Throttled`` 429, ``InternalError`` 500, no connection), or the
  month's budget could not be counted: the record goes back to ``queued`` with what a later try needs, and a
  ``text_retry`` queue message comes back for it after 30 s, 60 s, ... (at most 15 minutes a hop, SQS's longest
  delay). A try that fails once ``RETRY_WINDOW`` has passed since the first abandons the text: ``failed``.
- SNS refused it for good: ``failed``. The month's budget held it back: ``not_sent``.
- SNS's answer was lost (a read timeout): it may be out, so it is never tried again: ``sent`` with
  ``answer_lost`` and no MessageId (delivery receipts may still find it by number and time).

A text not sent (failed, not_sent) gives back the owner's hourly quota it was charged; its budget segments went
back when its try failed (messaging/sms_sender.py). An invitation or join approval shows what became of it as
the invitation's ``text_status``. Each try first takes the record under a new nonce, so a message delivered
twice, or two workers with the same message, send it once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from chalicelib import store
from chalicelib.aws_errors import error_code_or_type
from chalicelib.config import get_settings
from chalicelib.errors import TextsPaused
from chalicelib.messaging import sms_sender
from chalicelib.messaging.notifications import queueing
from chalicelib.messaging.notifications.kinds import handles, kind_named, queue_kind
from chalicelib.messaging.notifications.messages import Outcome, RetryLater
from chalicelib.store import claims, counters, text_asks
from chalicelib.store import outbox as records
from chalicelib.timeutil import utcnow

# A text SNS could not take yet, tried again from its outbox record
TEXT_RETRY = queue_kind("text_retry")
# Queue kinds handled elsewhere (each declared with its handler); here they name texts and their claims
NUDGE = kind_named("nudge")
EVENT_CANCELLED = kind_named("event_cancelled")

log = logging.getLogger("invites")

SMS_DEVICE = "sms"
RETRY_WINDOW_SECONDS = 3600  # a text is tried at least this long after its first try
FIRST_RETRY_DELAY = 30
MAX_QUEUE_DELAY = 900  # SQS's longest DelaySeconds

# Kinds of text (the record key's first part), and those an invitee row shows as ``text_status``.
INVITATION, JOIN_APPROVAL = "invitation", "join_approval"
PLAN_INVITATION = "plan_invitation"  # asks to vote on a plan's dates: no event behind it (yet)
SHOWN_ON_INVITATION = frozenset({INVITATION, JOIN_APPROVAL})
# Texts that ask for an answer: with two-way texting on (SMS_TWO_WAY), each one sent is remembered for its number,
# and a reply to that number answers its invitation (services/web/text_answers.py reads the kind).
# Before the start (services/notifications/attendance_steps.py): the reminder, "still coming?", and the notice
# that an unconfirmed party's spot went to someone waiting.
REMINDER, STILL_COMING, RELEASED = "reminder_sms", "still_coming_sms", "released_sms"
ASKING_KINDS = frozenset({INVITATION, NUDGE, REMINDER, STILL_COMING, RELEASED})
# The service's answers to a guest's reply: a confirmation, and the help text for a reply it could not read.
# They count against the month's text budget as answers (messaging/sms_sender.py, Priority.ANSWER).
REPLY_CONFIRMATION, REPLY_HELP = "reply_confirmation", "reply_help"
ANSWER_KINDS = frozenset({REPLY_CONFIRMATION, REPLY_HELP})
QUEUED, SENT, FAILED, NOT_SENT = records.QUEUED, claims.SENT, records.FAILED, records.NOT_SENT
# What a try ended in for the caller: one of the states above, or NOT_QUEUED (SNS was busy and the retry could
# not be queued either: the claim was released, the caller's queue message should come back).
NOT_QUEUED = "not_queued"


@dataclass(frozen=True)
class Text:
    """One text to one person. ``occurrence`` makes it one text per person (an event's id, a burst, an
    announcement); ``quota_keys`` are the rate counters charged one for it, given back if it is not sent."""

    kind: str
    occurrence: str
    event_id: int
    user_id: int
    phone_number: str
    body: str
    expires_at: datetime
    quota_keys: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        return claims.claim_key(self.kind, self.occurrence, self.user_id, SMS_DEVICE)


def plan(invitations) -> None:
    """Before new invitations whose people are to be texted are stored: they read ``not_sent`` until their text
    is tried (so a text a limit keeps back costs no write)."""
    for invitation in invitations:
        invitation.text_status = NOT_SENT


def shown_in(invitations, states: dict[int, str]) -> None:
    """Put what became of each text (``states`` by user id) on the invitations the request answers with."""
    for invitation in invitations:
        if invitation.user_id in states:
            invitation.text_status = states[invitation.user_id]


def send_text(text: Text) -> str:
    """Send ``text`` once, whatever happens later: claim its record, then try; when SNS is busy the queue tries
    again. What it ended in (``QUEUED`` when a retry is on its way); ``SENT`` also when an earlier call holds it."""
    claim = claims.claim_delivery(text.key, text.expires_at, get_settings().notification_lease_seconds)
    if claim is None:
        return SENT  # sent, or being sent, by an earlier delivery of the same text
    outcome = send_held(claim, text)
    if outcome != NOT_QUEUED:
        return outcome
    log.error("text outbox: a %s text failed and its retry could not be queued", text.kind)
    return _give_up(None, text, FAILED)


def send_texts(texts: list[Text]) -> dict[int, str]:
    """The first try of texts never claimed before (a request's new invitations: their keys are new), side by side,
    in a few calls: their records written 25 a BatchWriteItem, the month's budget counted once, the records
    settled 25 a BatchWriteItem, the invitations' ``text_status`` 100 a transaction. Each person's state by id;
    a text SNS could not take now is tried again by the queue like any other."""
    if not texts:
        return {}
    held = records.open_many([(text.key, text.expires_at) for text in texts])
    first = int(utcnow().timestamp())
    try:
        outcomes = sms_sender.send_each(
            [(text.phone_number, text.body) for text in texts],
            priority=sms_sender.Priority.UNASKED,
            origination=get_settings().sms_origination_invites,
        )
    except Exception:  # noqa: BLE001 - the month's budget could not be counted: nothing went out, try later
        log.warning("text outbox: %d texts not sent now, the text budget could not be counted", len(texts))
        outcomes = [(sms_sender.BUSY, "")] * len(texts)
    states = [
        _settled(record, text, *outcome, first) for record, text, outcome in zip(held, texts, outcomes, strict=True)
    ]
    records.write_many(held)
    _give_back([text for text, state in zip(texts, states, strict=True) if state in (FAILED, NOT_SENT)])
    _remember_asks([text for text, state in zip(texts, states, strict=True) if state == SENT])
    by_person = {text.user_id: state for text, state in zip(texts, states, strict=True)}
    shown = {text.user_id: by_person[text.user_id] for text in texts if text.kind in SHOWN_ON_INVITATION}
    if shown:
        try:
            records.set_text_statuses(texts[0].event_id, shown)
        except Exception:  # noqa: BLE001 - the rows show the state before; the texts' own records are right
            log.warning("text outbox: %d invitations' text_status not written", len(shown))
    for text, state in zip(texts, states, strict=True):  # after the rows: a retry settles them in its turn
        if state == QUEUED and not queueing.enqueue(
            TEXT_RETRY, key=text.key, delay_seconds=FIRST_RETRY_DELAY
        ):
            log.error("text outbox: a %s text waits for a retry that could not be queued", text.kind)
    return by_person


def _settled(record, text: Text, outcome: str, message_id: str, first_tried_at: int) -> str:
    """Set a held record (not yet written) to what its first try in a batch ended in; the text's state."""
    if outcome == sms_sender.SENT:
        record.state, record.message_id = SENT, message_id or None
        return SENT
    if outcome == sms_sender.LOST:
        log.warning("text outbox: SNS's answer to a %s text was lost; counted as sent, not tried again", text.kind)
        record.state, record.answer_lost = SENT, True
        return SENT
    if outcome in (sms_sender.FAILED, sms_sender.HELD):
        record.state = FAILED if outcome == sms_sender.FAILED else NOT_SENT
        return record.state
    record.state, record.attempts, record.first_tried_at = QUEUED, 1, first_tried_at
    record.phone_number, record.body = text.phone_number, text.body
    record.quota_keys = set(text.quota_keys) or None
    record.event_id = text.event_id
    return QUEUED


def send_held(claim, text: Text) -> str:
    """The first try of ``text``, whose record the caller holds (``claim``)."""
    first = int(utcnow().timestamp())
    outcome = _try(claim, text, attempts=1, first_tried_at=first)
    if outcome != NOT_QUEUED:
        return outcome
    claims.release_claim(claim)
    return NOT_QUEUED


def not_sending(claim) -> None:
    """A claimed text that will not be sent (the stop list, the opt-out list or a limit kept it back): ``not_sent``."""
    records.settle(claim, NOT_SENT)


def _try(claim, text: Text, *, attempts: int, first_tried_at: int) -> str:
    """One try of a held record: publish, then settle it or put it back for the queue's next try."""
    try:
        message_id = sms_sender.send_sms(
            text.phone_number,
            text.body,
            priority=_priority(text),
            origination=get_settings().sms_origination_invites,
        )
    except sms_sender.AnswerLost:
        log.warning("text outbox: SNS's answer to a %s text was lost; counted as sent, not tried again", text.kind)
        records.settle(claim, SENT, answer_lost=True)
        _remember_asks([text])
        return _show(text, SENT)
    except sms_sender.SmsRefused as refused:
        log.warning("text outbox: a %s text was refused by SNS: %s", text.kind, refused)
        return _give_up(claim, text, FAILED)
    except TextsPaused:
        log.info("text outbox: a %s text held back, the month's text budget is spent", text.kind)
        return _give_up(claim, text, NOT_SENT)
    except Exception as exc:  # noqa: BLE001 - SNS busy or down, or the budget not counted: the queue tries again
        return _later(claim, text, attempts, first_tried_at, exc)
    records.settle(claim, SENT, message_id)
    _remember_asks([text])
    return _show(text, SENT)


def _priority(text: Text) -> sms_sender.Priority:
    return sms_sender.Priority.ANSWER if text.kind in ANSWER_KINDS else sms_sender.Priority.UNASKED


def _remember_asks(sent: list[Text]) -> None:
    """With two-way texting on, each number's latest text that asked (one write per text SNS took); a failed
    write costs only the reply's link to it (the person gets the help text, and the link answers)."""
    asks = [
        text_asks.Ask(text.phone_number, text.event_id, text.user_id, text.kind)
        for text in sent
        if text.kind in ASKING_KINDS
    ]
    if not asks or not get_settings().sms_two_way:
        return
    try:
        text_asks.remember(asks, int(utcnow().timestamp()))
    except Exception:  # noqa: BLE001 - the texts are out; only replying to them by text is lost
        log.warning("text outbox: %d asking texts not remembered for replies", len(asks))


def _later(claim, text: Text, attempts: int, first_tried_at: int, exc: Exception) -> str:
    waited = int(utcnow().timestamp()) - first_tried_at
    if waited >= RETRY_WINDOW_SECONDS:
        log.error(
            "text outbox: a %s text abandoned after %d tries in %d s (%s)",
            text.kind,
            attempts,
            waited,
            error_code_or_type(exc),
        )
        return _give_up(claim, text, FAILED)
    try:
        records.put_back(
            claim,
            attempts=attempts,
            first_tried_at=first_tried_at,
            phone_number=text.phone_number,
            body=text.body,
            quota_keys=set(text.quota_keys) or None,
            event_id=text.event_id,
        )
    except store.Refused:
        return QUEUED  # another worker holds it now (this one's lease ran out): it is theirs to settle
    except Exception:  # noqa: BLE001 - the record stays "sending"; the caller's message comes back
        return NOT_QUEUED
    delay = min(MAX_QUEUE_DELAY, FIRST_RETRY_DELAY * 2 ** (attempts - 1))
    log.info("text outbox: a %s text queued for try %d in %d s", text.kind, attempts + 1, delay)
    if not queueing.enqueue(TEXT_RETRY, key=text.key, delay_seconds=delay):
        return NOT_QUEUED
    return QUEUED


def _give_up(claim, text: Text, state: str) -> str:
    if claim is not None:
        records.settle(claim, state)
    _give_back([text])
    return _show(text, state)


def _give_back(texts: list[Text]) -> None:
    """The owner's quota charged for texts not sent, given back: one ADD per counter."""
    charged: dict[str, int] = {}
    for text in texts:
        for key in text.quota_keys:
            charged[key] = charged.get(key, 0) + 1
    for key, count in charged.items():
        try:
            counters.add(key, -count)
        except Exception:  # noqa: BLE001 - the owner's quota is short until its hour ends
            log.warning("text outbox: the quota of %d texts not sent was not given back", count)


def _show(text: Text, state: str) -> str:
    if text.kind in SHOWN_ON_INVITATION:
        try:
            records.set_text_status(text.event_id, text.user_id, state)
        except Exception:  # noqa: BLE001 - the row shows the state before; the text's own record is right
            log.warning("text outbox: an invitation's text_status not written")
    return state


@handles(TEXT_RETRY)
def retry_text(message: dict) -> Outcome:
    """The queue's next try of a queued text (``text_retry``). Nothing when the record is settled or another
    worker holds it; RetryLater (the message comes back) when its next retry could not be queued."""
    key = str(message.get("key", ""))
    record = records.take(key, get_settings().notification_lease_seconds)
    if record is None:
        return Outcome(duplicates=1)
    text = _text_of(record)
    if text is None:
        records.settle(record, FAILED)
        return Outcome()
    no_event = (EVENT_CANCELLED, PLAN_INVITATION, REPLY_HELP)
    if text.kind not in no_event and not records.event_is_live(text.event_id):
        log.info("text outbox: a %s text not sent, its event was cancelled meanwhile", text.kind)
        _give_up(record, text, NOT_SENT)
        return Outcome()
    outcome = _try(record, text, attempts=int(record.attempts or 0) + 1, first_tried_at=int(record.first_tried_at))
    if outcome == NOT_QUEUED:
        raise RetryLater("a text's next try could not be queued")
    return Outcome(sent=int(outcome == SENT))


def _text_of(record) -> Text | None:
    """The text a queued record stands for; None when it lacks what a try needs."""
    if not record.phone_number or not record.body or record.first_tried_at is None:
        return None
    kind, occurrence, user_id, _device = claims.key_parts(record.pk)
    return Text(
        kind=kind,
        occurrence=occurrence,
        event_id=int(record.event_id or 0),
        user_id=user_id,
        phone_number=record.phone_number,
        body=record.body,
        expires_at=record.expires_at,
        quota_keys=tuple(sorted(record.quota_keys or ())),
    )
