"""Delivery receipts of texts (SNS's delivery-status logs) written where the hosts see them: the text's outbox
record (store/outbox.py) and, for an invitation text, the invitation's ``text_status``.

A receipt says ``delivered`` or ``failed``. SNS may log a message twice and logs arrive out of order, so both
writes are idempotent and ``delivered`` is final: a ``failed`` receipt never replaces it (a phone that got the text
got it), a ``delivered`` one replaces a ``failed``. Only a record SNS took (``sent``, or a receipt's state) takes a
receipt."""

from __future__ import annotations

from chalicelib.models.auth import SentNotification, SentTextId, sent_text_id_pk
from chalicelib.models.events import Invitation, event_pk, invitation_sk
from chalicelib.store import Refused, refusals
from chalicelib.store.claims import SENT

DELIVERED, FAILED = "delivered", "failed"
RECEIPT_STATES = (DELIVERED, FAILED)


def record_key_of(message_id: str) -> str | None:
    """The outbox record's key of the text SNS took as ``message_id`` (one GetItem); None when unknown."""
    try:
        return SentTextId.get(sent_text_id_pk(message_id)).record_key
    except SentTextId.DoesNotExist:
        return None


def mark_record(record_key: str, state: str, at_ms: int) -> bool:
    """The record's ``state`` = the receipt's (one conditional UpdateItem). False when the record is gone, was
    never sent, or is ``delivered`` and the receipt says ``failed``."""
    record = SentNotification(record_key)
    took = SentNotification.state.is_in(SENT, *RECEIPT_STATES)
    if state == FAILED:
        took &= SentNotification.state != DELIVERED
    try:
        with refusals():
            record.update(
                actions=[SentNotification.state.set(state), SentNotification.receipt_at.set(at_ms)],
                condition=SentNotification.pk.exists() & took,
            )
    except Refused:
        return False
    return True


def mark_invitation(event_id: int, user_id: int, state: str) -> bool:
    """The invitation's ``text_status`` = the receipt's (one conditional UpdateItem); False when the invitation is
    gone or already ``delivered`` and the receipt says ``failed``."""
    invitation = Invitation(event_pk(event_id), invitation_sk(user_id))
    condition = Invitation.pk.exists()
    if state == FAILED:
        condition &= Invitation.text_status.does_not_exist() | (Invitation.text_status != DELIVERED)
    try:
        with refusals():
            invitation.update(actions=[Invitation.text_status.set(state)], condition=condition)
    except Refused:
        return False
    return True
