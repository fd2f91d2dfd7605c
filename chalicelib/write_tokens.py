"""The ``ClientRequestToken`` of each DynamoDB transaction.

DynamoDB applies a TransactWriteItems once per token: the same token sent again within 10 minutes with the
same items succeeds without writing again (another set of items is ``IdempotentParameterMismatch``). botocore's
retries of one call resend its token, so an answer lost on the way back (a read timeout, then the SDK's retry)
is a success, not a second effect or a failed "new item" condition.

The service's own retries keep the token too: a transaction whose outcome is unknown (it raised anything but
a cancellation: a timeout, a throttle, an AWS fault) keeps its token for the next transaction of the same
thread with the same items; one that was applied or cancelled gives it up, so a later identical write (a retry
after a conflict, the next request) is a new transaction. The emulator (moto) ignores tokens; the tests make it
honour them (tests/utils/aws_env.py).
"""

from __future__ import annotations

import hashlib
import threading
import time
import uuid

_unsettled = threading.local()
MAX_UNSETTLED = 16  # transactions of unknown outcome remembered per thread (a request makes a few)
KEEP_SECONDS = 300  # well inside DynamoDB's 10 minutes, beyond any request or job


def _pending() -> dict[str, tuple[str, float]]:
    pending = getattr(_unsettled, "tokens", None)
    if pending is None:
        pending = _unsettled.tokens = {}
    return pending


def new_unit_of_work() -> None:
    """A request or job starts: what earlier ones left unsettled is theirs, not its own."""
    _pending().clear()


def _digest(items: str) -> str:
    return hashlib.sha256(items.encode("utf-8", "surrogatepass")).hexdigest()


def token_for(items: str) -> str:
    """The token for a transaction of ``items`` (their canonical text): the one a same transaction of unknown
    outcome held, else a new one (36 characters, DynamoDB's most)."""
    held = _pending().get(_digest(items))
    if held is not None and time.monotonic() - held[1] < KEEP_SECONDS:
        return held[0]
    return str(uuid.uuid4())


def outcome_unknown(items: str, token: str) -> None:
    """The transaction may or may not have been applied: its next identical try sends the same token."""
    pending = _pending()
    if len(pending) >= MAX_UNSETTLED:
        pending.pop(next(iter(pending)))
    pending[_digest(items)] = (token, time.monotonic())


def settled(items: str) -> None:
    """The transaction was applied or cancelled: a later identical one is a new transaction."""
    _pending().pop(_digest(items), None)
