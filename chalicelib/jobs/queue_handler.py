"""The queue side: the SQS Lambda's batch, one message at a time, each handed to the handler of its kind.

Every kind is declared, with its handler, in the module of the services that handles it
(messaging/notifications/kinds.py). Importing this module imports every module of the services, which declares
them all, and checks the kinds are complete; it then only dispatches. The API never imports it: without a queue,
the first message sent loads it (chalicelib/jobs/__init__.py)."""

from __future__ import annotations

import importlib
import json
import logging
import pkgutil
from collections.abc import Iterable

from chalicelib import aws, services
from chalicelib.config import get_settings
from chalicelib.messaging.notifications import kinds
from chalicelib.messaging.notifications.kinds import Handler, QueueKind, kind_of, registered_handler
from chalicelib.messaging.notifications.messages import Outcome, RetryLater
from chalicelib.messaging.notifications.queueing import SQS_BATCH
from chalicelib.parallel import chunks

log = logging.getLogger("invites")


def load_every_kind() -> None:
    """Import every module of the services, so each kind is declared and each name sent is recorded, then check
    them (kinds.check_complete). Runs at this module's import; again only to pick up a module added since."""
    for module in pkgutil.walk_packages(services.__path__, f"{services.__name__}."):
        importlib.import_module(module.name)
    kinds.check_complete()


load_every_kind()


def handler_of(kind: QueueKind) -> Handler:
    """The handler registered for ``kind``."""
    handler = registered_handler(kind)
    if handler is None:
        raise LookupError(f"no handler is registered for the queue kind {kind}")
    return handler


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
    kind = kind_of(message.get("type"))
    if kind is None:
        log.error("dropping a notification of unknown type %r", message.get("type"))
        return Outcome()
    outcome = handler_of(kind)(message)
    if outcome.failed:
        raise RetryLater(f"{outcome.failed} pushes of {message.get('type')} failed")
    return outcome
