"""The queue side: the SQS Lambda's batch, one message at a time, each handed to the use case its kind names.

``HANDLERS`` is the one registry of message kind -> handler: the notification jobs
(services/notifications/notification_jobs.py), account deletion and data export. The handlers live with their
rules in services; this module only dispatches."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable

from chalicelib import aws
from chalicelib.config import get_settings
from chalicelib.messaging.notifications.messages import Outcome, RetryLater
from chalicelib.messaging.notifications.queueing import SQS_BATCH
from chalicelib.parallel import chunks
from chalicelib.services.account import account_deletion, data_export
from chalicelib.services.notifications import notification_jobs

log = logging.getLogger("invites")

HANDLERS: dict[str, Callable[[dict], Outcome]] = {
    **notification_jobs.PUSHES_OF,
    **account_deletion.QUEUE_HANDLERS,
    **data_export.QUEUE_HANDLERS,
}


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


def process(message: dict) -> Outcome:
    """Run the handler of one message's kind (a notification: expand it to its pushes and send them).
    Raises :class:`RetryLater` when some failed for a reason that may pass, after trying all of them."""
    handler = HANDLERS.get(message.get("type"))
    if handler is None:
        log.error("dropping a notification of unknown type %r", message.get("type"))
        return Outcome()
    outcome = handler(message)
    if outcome.failed:
        raise RetryLater(f"{outcome.failed} pushes of {message.get('type')} failed")
    return outcome
