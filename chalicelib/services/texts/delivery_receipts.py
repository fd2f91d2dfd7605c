"""Delivery receipts of texts: SNS logs each text's fate (``SUCCESS`` or ``FAILURE``, as the carrier reported it)
to CloudWatch Logs, and a subscription hands the records to a function (jobs/delivery_receipts.py), which turns
them into ``delivered`` or ``failed`` on the text's outbox record and, for an invitation or join approval text, on
the invitation's ``text_status`` (what the hosts see). The text is found by SNS's MessageId (store/outbox.py keeps
it); a record for an unknown id (a pin, a HELP answer, a text whose lookup expired) is ignored. A record logged
twice or out of order changes nothing it should not (store/text_receipts.py: ``delivered`` is final).

A record in the shape SNS writes it::

    {"notification": {"messageId": "...", "timestamp": "2026-11-29 10:00:00.123"},
     "delivery": {"destination": "+1...", "providerResponse": "Message has been accepted by phone", ...},
     "status": "SUCCESS"}

The destination number and the carrier's words are never logged here."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from chalicelib.services.texts.text_outbox import SHOWN_ON_INVITATION
from chalicelib.store import claims, text_receipts

log = logging.getLogger("invites")

STATES = {"SUCCESS": text_receipts.DELIVERED, "FAILURE": text_receipts.FAILED}
MAX_MESSAGE_ID = 100  # SNS's MessageIds are UUIDs (36 characters); anything longer is no SNS record


@dataclass(frozen=True)
class Receipt:
    message_id: str
    state: str  # delivered or failed
    at_ms: int  # when it was logged (the log event's timestamp, UNIX ms)


def receipt_of(message: str, at_ms: int) -> Receipt | None:
    """The receipt a delivery-status log message tells; None when it is not one (logged, without its content)."""
    try:
        record = json.loads(message)
        message_id = record["notification"]["messageId"]
        state = STATES.get(record["status"])
    except (ValueError, TypeError, KeyError):
        log.warning("delivery receipts: a log message that is no SNS delivery record was skipped")
        return None
    if not isinstance(message_id, str) or not 0 < len(message_id) <= MAX_MESSAGE_ID or state is None:
        log.warning("delivery receipts: a delivery record without a message id or a known status was skipped")
        return None
    return Receipt(message_id, state, int(at_ms))


def record_receipts(receipts: list[Receipt]) -> dict[str, int]:
    """Write each receipt where it shows: a GetItem of its MessageId, then one UpdateItem of the record and, for an
    invitation's text, one of the invitation. What became of them, counted (``unknown``: no such text; ``stale``:
    the record took no receipt, e.g. ``failed`` after ``delivered``). A DynamoDB fault raises: the receipts
    written stay written, and writing them again changes nothing, so the whole batch may be tried again."""
    counts = {text_receipts.DELIVERED: 0, text_receipts.FAILED: 0, "unknown": 0, "stale": 0}
    for receipt in receipts:
        record_key = text_receipts.record_key_of(receipt.message_id)
        if record_key is None:
            counts["unknown"] += 1
            continue
        if not text_receipts.mark_record(record_key, receipt.state, receipt.at_ms):
            counts["stale"] += 1
            continue
        kind, occurrence, user_id, _device = claims.key_parts(record_key)
        if kind in SHOWN_ON_INVITATION and occurrence.isdigit():
            text_receipts.mark_invitation(int(occurrence), user_id, receipt.state)
        counts[receipt.state] += 1
    return counts
