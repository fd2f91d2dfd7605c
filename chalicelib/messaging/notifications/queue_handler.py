"""The queue side: the SQS Lambda's batch, one message at a time, each expanded to its pushes."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable

from chalicelib import aws
from chalicelib.config import get_settings
from chalicelib.messaging.notifications.messages import Outcome, RetryLater
from chalicelib.messaging.notifications.queueing import SQS_BATCH
from chalicelib.messaging.notifications.recipients import PUSHES_OF
from chalicelib.parallel import chunks

log = logging.getLogger("invites")


def handle_queue_batch(records: Iterable[tuple[str, str]]) -> None:
    """The SQS handler: process each ``(body, receipt handle)``. When any fails, the others are
    deleted from the queue and the batch raises, so SQS delivers only the failed ones again (their
    pushes already sent are skipped by their claims). Unreadable messages are logged and dropped."""
    done, failed, total = [], 0, 0
    for body, receipt in records:
        total += 1
        try:
            message = json.loads(body)
            if not isinstance(message, dict):
                raise ValueError("not an object")
        except ValueError:
            log.error("dropping an unreadable notification message")
            done.append(receipt)
            continue
        try:
            process(message)
        except Exception:  # noqa: BLE001 - reported below by failing the batch
            log.exception("notification %s failed; the queue will retry it", message.get("type"))
            failed += 1
            continue
        done.append(receipt)
    if failed:
        _delete_from_queue(done)
        raise RetryLater(f"{failed} of {total} notification messages failed")


def _delete_from_queue(receipts: list[str]) -> None:
    url = get_settings().notifications_queue_url
    if not url or not receipts:
        return
    for chunk in chunks(receipts, SQS_BATCH):
        try:
            entries = [{"Id": str(n), "ReceiptHandle": receipt} for n, receipt in enumerate(chunk)]
            aws.sqs().delete_message_batch(QueueUrl=url, Entries=entries)
        except Exception:  # noqa: BLE001 - they come back and are skipped by their claims
            log.warning("could not delete processed notification messages")


def _account_handler(message_type):
    """Account deletion and data export share this queue; their handlers live with their rules."""
    from chalicelib.services import account_deletion, data_export

    return {**account_deletion.QUEUE_HANDLERS, **data_export.QUEUE_HANDLERS}.get(message_type)


def process(message: dict) -> Outcome:
    """Expand one message to its pushes and send them. Raises :class:`RetryLater` when some failed
    for a reason that may pass, after trying all of them."""
    pushes_of = PUSHES_OF.get(message.get("type")) or _account_handler(message.get("type"))
    if pushes_of is None:
        log.error("dropping a notification of unknown type %r", message.get("type"))
        return Outcome()
    outcome = pushes_of(message)
    if outcome.failed:
        raise RetryLater(f"{outcome.failed} pushes of {message.get('type')} failed")
    return outcome
