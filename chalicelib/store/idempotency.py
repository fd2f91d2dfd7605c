"""Idempotency records in the auth table: ``IDEM#<user>#<key>``, one per user and ``Idempotency-Key``.

A request claims its key with a conditional PutItem before its work starts, so of two parallel repeats
only one does the work. The claim is "running" until the answer is kept ("done"); a claim whose request
failed is deleted so a retry can do the work. A record counts for ``KEEP_HOURS`` after its claim
(DynamoDB's TTL deletes it some time later, so an expired record is treated as absent), and a claim left
"running" longer than ``LEASE_SECONDS`` (its function was stopped) may be taken over."""

from __future__ import annotations

import json
import logging
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from chalicelib.models.auth import IdempotentRequest, idempotency_pk
from chalicelib.store import Refused, refusals

log = logging.getLogger("invites")

RUNNING, DONE = "running", "done"
KEEP_HOURS = 24
# Longer than any request can run: the function stops at 15 s and API Gateway gives up at 29 s.
LEASE_SECONDS = 60


@dataclass(frozen=True)
class KeptAnswer:
    """The answer a first request gave, to be given again."""

    status: int
    headers: dict[str, str]
    body: str


@dataclass(frozen=True)
class Earlier:
    """What a key already holds when a claim is refused: another request's fingerprint, and its answer
    once it finished (None while it runs)."""

    fingerprint: str
    answer: KeptAnswer | None


def claim(user_id: int, key: str, fingerprint: str) -> IdempotentRequest | Earlier:
    """Take the key for this request (one conditional PutItem), or say what it already holds (one more
    consistent GetItem)."""
    for _ in range(2):  # the record may be released or expire between the refused claim and the read
        now = int(time.time())
        record = IdempotentRequest(
            idempotency_pk(user_id, key),
            fingerprint=fingerprint,
            state=RUNNING,
            nonce=secrets.token_hex(8),
            claimed_at=now,
            expires_at=datetime.fromtimestamp(now + KEEP_HOURS * 3600, tz=UTC),
        )
        free = (
            IdempotentRequest.pk.does_not_exist()
            | (IdempotentRequest.expires_at < datetime.fromtimestamp(now, tz=UTC))
            | ((IdempotentRequest.state == RUNNING) & (IdempotentRequest.claimed_at < now - LEASE_SECONDS))
        )
        try:
            with refusals():
                record.save(condition=free)
            return record
        except Refused:
            pass
        earlier = _earlier(user_id, key)
        if earlier is not None:
            return earlier
    return Earlier(fingerprint, None)  # taken and released again meanwhile: another request is at work


def _earlier(user_id: int, key: str) -> Earlier | None:
    try:
        held = IdempotentRequest.get(idempotency_pk(user_id, key), consistent_read=True)
    except IdempotentRequest.DoesNotExist:
        return None
    if held.state != DONE:
        return Earlier(held.fingerprint, None)
    answer = KeptAnswer(int(held.status), json.loads(held.headers or "{}"), held.body or "")
    return Earlier(held.fingerprint, answer)


def keep_answer(record: IdempotentRequest, answer: KeptAnswer) -> None:
    """Mark the claim done with its answer (one UpdateItem, conditional on still holding the claim)."""
    record.update(
        actions=[
            IdempotentRequest.state.set(DONE),
            IdempotentRequest.status.set(answer.status),
            IdempotentRequest.headers.set(json.dumps(answer.headers)),
            IdempotentRequest.body.set(answer.body),
        ],
        condition=IdempotentRequest.nonce == record.nonce,
    )


def release(record: IdempotentRequest) -> None:
    """Give the key back after the request failed, so a retry does the work."""
    try:
        record.delete(condition=IdempotentRequest.nonce == record.nonce)
    except Exception:  # noqa: BLE001 - then the claim's lease runs out and a retry takes it over
        log.warning("could not release an idempotency claim")
