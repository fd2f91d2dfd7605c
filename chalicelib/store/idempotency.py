"""Idempotency records in the auth table: ``IDEM#<user>#<key>``, one per user and ``Idempotency-Key``.

A request claims its key with a conditional PutItem before its work starts, so of two parallel repeats
only one does the work. The claim is "running" until the answer is kept ("done"); a claim whose request
failed is deleted so a retry can do the work. A record counts for ``KEEP_HOURS`` after its claim
(DynamoDB's TTL deletes it some time later, so an expired record is treated as absent), and a claim left
"running" longer than ``LEASE_SECONDS`` (its function was stopped) may be taken over.

An answer of any size is kept: its text compressed (zlib) in the record, or, when even that is too big for one
item (DynamoDB's 400 KB; the emulator has no such limit, the tests enforce it: tests/utils/aws_faults.py), in
slices of ``PART_BYTES`` in items of their own, written before the record says "done". A repeat never
redoes the work because its first answer was big.

A claim whose PutItem was applied but whose answer was lost (the SDK then sends it again and its condition
fails) is known by its nonce: the request holds it."""

from __future__ import annotations

import json
import logging
import secrets
import time
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime

from chalicelib.models.auth import (
    IdempotentAnswerPart,
    IdempotentRequest,
    idempotency_pk,
    idempotent_answer_part_pk,
)
from chalicelib.parallel import parallel_map
from chalicelib.store import Refused, refusals
from chalicelib.store.batch import batch_get

log = logging.getLogger("invites")

RUNNING, DONE = "running", "done"
KEEP_HOURS = 24
# Longer than any request can run: the function stops at 15 s and API Gateway gives up at 29 s.
LEASE_SECONDS = 60
# DynamoDB items hold at most 400 KB, names and values together: a compressed answer up to INLINE_BYTES stays in
# the record beside its fingerprint and headers; a longer one goes in slices of PART_BYTES (an answer is at most
# Lambda's 6 MB, so at most 18 slices).
INLINE_BYTES = 300_000
PART_BYTES = 350_000


@dataclass(frozen=True)
class KeptAnswer:
    """The answer a first request gave, to be given again."""

    status: int
    headers: dict[str, str]
    body: str


@dataclass(frozen=True)
class Earlier:
    """What a key already holds when a claim is refused: another request's fingerprint, and its answer
    once it finished (None while it runs) with the nonce of the claim that gave it."""

    fingerprint: str
    answer: KeptAnswer | None
    nonce: str = ""


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
        held = _held(user_id, key)
        if held is not None and held.nonce == record.nonce:
            return record  # this claim's own PutItem, applied before its answer was lost and sent again
        earlier = _earlier(held)
        if earlier is not None:
            return earlier
    return Earlier(fingerprint, None)  # taken and released again meanwhile: another request is at work


def _held(user_id: int, key: str) -> IdempotentRequest | None:
    try:
        return IdempotentRequest.get(idempotency_pk(user_id, key), consistent_read=True)
    except IdempotentRequest.DoesNotExist:
        return None


def _earlier(held: IdempotentRequest | None) -> Earlier | None:
    if held is None:
        return None
    if held.state != DONE:
        return Earlier(held.fingerprint, None)
    answer = KeptAnswer(int(held.status), json.loads(held.headers or "{}"), kept_body(held))
    return Earlier(held.fingerprint, answer, held.nonce)


def kept_body(held: IdempotentRequest) -> str:
    """The text of a done record's answer, wherever it was kept (one BatchGetItem when it is in slices)."""
    if held.body_parts:
        user_id, key = held.pk.split("#", 2)[1:]
        keys = [idempotent_answer_part_pk(int(user_id), key, part) for part in range(int(held.body_parts))]
        parts = {part.pk: part.data for part in batch_get(IdempotentAnswerPart, keys, consistent_read=True)}
        return zlib.decompress(b"".join(parts[pk] for pk in keys)).decode("utf-8", "surrogatepass")
    if held.packed_body is not None:
        return zlib.decompress(held.packed_body).decode("utf-8", "surrogatepass")
    return held.body or ""


def keep_answer(record: IdempotentRequest, answer: KeptAnswer) -> None:
    """Mark the claim done with its answer (one UpdateItem, conditional on still holding the claim); an answer
    too big for the record is first written in slices (one PutItem each, side by side)."""
    packed = zlib.compress(answer.body.encode("utf-8", "surrogatepass"), 6)
    actions = [
        IdempotentRequest.state.set(DONE),
        IdempotentRequest.status.set(answer.status),
        IdempotentRequest.headers.set(json.dumps(answer.headers)),
    ]
    if len(packed) <= INLINE_BYTES:
        actions.append(IdempotentRequest.packed_body.set(packed))
    else:
        _, user_id, key = record.pk.split("#", 2)
        slices = [packed[start : start + PART_BYTES] for start in range(0, len(packed), PART_BYTES)]
        expires_at = record.expires_at
        parts = [
            IdempotentAnswerPart(idempotent_answer_part_pk(int(user_id), key, n), data=data, expires_at=expires_at)
            for n, data in enumerate(slices)
        ]
        parallel_map(lambda part: part.save(), parts)
        actions.append(IdempotentRequest.body_parts.set(len(parts)))
    record.update(actions=actions, condition=IdempotentRequest.nonce == record.nonce)


def release(record: IdempotentRequest) -> None:
    """Give the key back after the request failed, so a retry does the work."""
    try:
        record.delete(condition=IdempotentRequest.nonce == record.nonce)
    except Exception:  # noqa: BLE001 - then the claim's lease runs out and a retry takes it over
        log.warning("could not release an idempotency claim")
