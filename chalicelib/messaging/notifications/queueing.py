"""The request side: hand a trigger to the notifications queue, after the request's own writes.

One small SQS message per trigger (``{"type", "id", "event_id", "actor_id", ...}``). Without a queue
URL (tests, ``make run``) the message is processed right away in the same process, by the worker
registered in chalicelib/inline_queue.py (the queue side's own, chalicelib/jobs).
"""

from __future__ import annotations

import json
import logging

from chalicelib import aws, inline_queue
from chalicelib.config import get_settings
from chalicelib.ids import new_id
from chalicelib.messaging.notifications.messages import RetryLater
from chalicelib.parallel import chunks

log = logging.getLogger("invites")

SQS_BATCH = 10  # SQS's limit of entries in one SendMessageBatch / DeleteMessageBatch


def enqueue(message_type: str, *, delay_seconds: int = 0, **fields) -> bool:
    """Hand one trigger to the notifications queue; never raises. ``delay_seconds`` (at most 900) keeps it
    out of sight that long (SQS's DelaySeconds); without a queue it is processed at once, unless it puts off
    the kind of message being handled (chalicelib/inline_queue.py).

    Without a queue URL the message is processed here and now (local runs). Returns False when it
    could not be handed over (logged): the caller's own change stands, its notifications are lost.
    """
    message = {"type": message_type, "id": new_id(), **fields}
    url = get_settings().notifications_queue_url
    try:
        if url:
            delay = {"DelaySeconds": delay_seconds} if delay_seconds else {}
            aws.sqs().send_message(QueueUrl=url, MessageBody=json.dumps(message), **delay)
        else:
            _process_here(message, delay_seconds)
        return True
    except Exception:  # noqa: BLE001 - a notification never fails the request that caused it
        log.exception("notification %s for event %s not handed over", message_type, fields.get("event_id"))
        return False


def send_many(messages: list[dict]) -> None:
    """Queue ``messages``, ten a SendMessageBatch; raises RetryLater when SQS refused any. Without a queue
    URL each is processed here, one failure not stopping the others."""
    url = get_settings().notifications_queue_url
    if not url:
        for message in messages:
            try:
                _process_here(message)
            except Exception:  # noqa: BLE001 - one event's failure must not stop the others
                log.exception("notification %s failed", message.get("type"))
        return
    for chunk in chunks(messages, SQS_BATCH):
        entries = [{"Id": str(n), "MessageBody": json.dumps(message)} for n, message in enumerate(chunk)]
        answer = aws.sqs().send_message_batch(QueueUrl=url, Entries=entries)
        if answer.get("Failed"):
            raise RetryLater(f"{len(answer['Failed'])} reminder messages not queued")


def _process_here(message: dict, delay_seconds: int = 0) -> None:
    inline_queue.run(message, delay_seconds)
