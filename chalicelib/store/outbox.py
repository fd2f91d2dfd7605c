"""The text outbox's records: a text's delivery claim (store/claims.py, ``SENT#<kind>#<occurrence>#<user>#sms``)
carried through its life. Who sends and when is services/texts/text_outbox.py.

| state      | meaning                                                                                   |
|------------|-------------------------------------------------------------------------------------------|
| ``sending``| a worker holds it (``nonce`` since ``claimed_at``); after the lease another may take it    |
| ``queued`` | SNS was busy: waiting for the queue's next try, with the number, the words and the charges |
| ``sent``   | SNS took it (``message_id``; ``answer_lost`` when its answer never came)                   |
| ``failed`` | SNS refused it, or it was abandoned after the retry window                                  |
| ``not_sent``| the month's budget held it back                                                           |
| ``delivered``| the carrier's receipt said it reached the phone (store/text_receipts.py)                  |

A text SNS took is also found by its MessageId (a SentTextId item written with the record), as SNS's
delivery-status logs name it.
Every change is conditional on the holder's nonce, so two workers never both send one record."""

from __future__ import annotations

import logging
import secrets
import time
from datetime import datetime

from chalicelib.models.auth import SentNotification, SentTextId, sent_text_id_pk
from chalicelib.models.base import transact_write
from chalicelib.models.events import META_SK, Event, Invitation, event_pk, invitation_sk
from chalicelib.parallel import chunks
from chalicelib.store import Contended, Refused, refusals
from chalicelib.store.claims import SENDING, SENT
from chalicelib.store.once import marked_update

log = logging.getLogger("invites")

QUEUED, FAILED, NOT_SENT = "queued", "failed", "not_sent"
TRANSACTION_ITEMS = 100  # DynamoDB's limit of items in one TransactWriteItems
DONE = frozenset({SENT, FAILED, NOT_SENT})
# What only a queued record needs; a settled one forgets it (the number and the words among it).
_PAYLOAD = ("phone_number", "body", "quota_keys")


def open_many(keys: list[tuple[str, datetime]]) -> list[SentNotification]:
    """Records for texts never claimed before (their keys name a new invitation), held by this worker: one
    BatchWriteItem per 25, unconditional (a batch write cannot carry a condition)."""
    now = int(time.time())
    opened = [
        SentNotification(key, state=SENDING, nonce=secrets.token_hex(8), claimed_at=now, expires_at=expires_at)
        for key, expires_at in keys
    ]
    write_many(opened)
    return opened


def write_many(held: list[SentNotification]) -> None:
    """Store records this worker holds as they now are, with the MessageId lookup of each SNS took (one
    BatchWriteItem per 25 items)."""
    with SentNotification.batch_write() as batch:
        for record in held:
            batch.save(record)
            if record.message_id:
                batch.save(_message_id_item(record.pk, record.message_id, record.expires_at))


def _message_id_item(record_key: str, message_id: str, expires_at) -> SentTextId:
    return SentTextId(sent_text_id_pk(message_id), record_key=record_key, expires_at=expires_at)


def take(key: str, lease_seconds: int) -> SentNotification | None:
    """Take a queued record (or one left ``sending`` past its lease) for one try: the record as it now is,
    held under a new nonce; None when it is missing, settled, or held by another worker. A take whose answer was
    lost, sent again by the SDK, finds its own nonce and holds the record."""
    now = int(time.time())
    waiting = SentNotification.state == QUEUED
    stale = (SentNotification.state == SENDING) & (SentNotification.claimed_at < now - lease_seconds)
    try:
        return marked_update(
            SentNotification(key),
            [SentNotification.state.set(SENDING), SentNotification.claimed_at.set(now)],
            SentNotification.pk.exists() & (waiting | stale),
            SentNotification.nonce,
            secrets.token_hex(8),
        )
    except Refused:
        return None


def put_back(record: SentNotification, **payload) -> None:
    """Hand a held record back to the queue (state ``queued``) with ``payload`` (attempts, first_tried_at and what
    a later try needs). Raises Refused when another worker holds it now."""
    actions = [SentNotification.state.set(QUEUED)]
    actions += [getattr(SentNotification, name).set(value) for name, value in payload.items() if value is not None]
    with refusals():
        record.update(actions=actions, condition=SentNotification.nonce == record.nonce)


def settle(record: SentNotification, state: str, message_id: str = "", *, answer_lost: bool = False) -> None:
    """Mark a held record done (``sent``, ``failed``, ``not_sent``) and forget its payload. Best effort: a record
    left ``sending`` is not tried again before its lease ends, and then only by a message that comes back."""
    actions = [SentNotification.state.set(state)]
    actions += [getattr(SentNotification, name).remove() for name in _PAYLOAD]
    if message_id:
        actions.append(SentNotification.message_id.set(message_id))
    if answer_lost:
        actions.append(SentNotification.answer_lost.set(True))
    try:
        record.update(actions=actions, condition=SentNotification.nonce == record.nonce)
    except Exception:  # noqa: BLE001 - logged; the record stays "sending" for its lease
        log.warning("text outbox: could not mark a text %s", state)
    if message_id:
        keep_message_id(record, message_id)


def keep_message_id(record: SentNotification, message_id: str) -> None:
    """The lookup of a sent text by SNS's MessageId (one PutItem). Best effort: without it the text's delivery
    receipt is ignored and it shows ``sent``."""
    try:
        _message_id_item(record.pk, message_id, record.expires_at).save()
    except Exception:  # noqa: BLE001 - the text is out; only its receipt will not be matched
        log.warning("text outbox: a sent text's MessageId was not kept")


def event_is_live(event_id: int) -> bool:
    """Whether the event is still there and not cancelled (one consistent GetItem of its META)."""
    try:
        event = Event.get(event_pk(event_id), META_SK, consistent_read=True)
    except Event.DoesNotExist:
        return False
    return not event.cancelled


def set_text_statuses(event_id: int, states: dict[int, str]) -> None:
    """Several invitations' ``text_status`` at once: one transaction per 100 (each conditional on the invitation
    being there); when one is refused (an invitation removed meanwhile), one by one."""
    for chunk in chunks(list(states.items()), TRANSACTION_ITEMS):
        try:
            with refusals(), transact_write() as transaction:
                for user_id, status in chunk:
                    invitation = Invitation(event_pk(event_id), invitation_sk(user_id))
                    transaction.update(
                        invitation, actions=[Invitation.text_status.set(status)], condition=Invitation.pk.exists()
                    )
        except (Refused, Contended):
            for user_id, status in chunk:
                set_text_status(event_id, user_id, status)


def set_text_status(event_id: int, user_id: int, status: str) -> None:
    """The invitation's ``text_status`` (what its row shows hosts); nothing when the invitation is gone."""
    invitation = Invitation(event_pk(event_id), invitation_sk(user_id))
    try:
        with refusals():
            invitation.update(actions=[Invitation.text_status.set(status)], condition=Invitation.pk.exists())
    except Refused:
        return
