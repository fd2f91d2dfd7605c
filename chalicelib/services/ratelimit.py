"""Fixed-window rate limits kept as conditional counters in the auth table.

A counter item per (scope, subject, window) is incremented only while it is below the limit, so
parallel requests can never pass more than ``limit`` (DynamoDB evaluates the condition atomically).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime

from pynamodb.exceptions import UpdateError

from chalicelib.aws import error_code
from chalicelib.errors import Throttled
from chalicelib.models.auth import RateCounter, rate_pk


@dataclass(frozen=True)
class Limit:
    scope: str
    subject: str
    limit: int
    window_seconds: int = 3600

    def window(self, now: float) -> int:
        return int(now // self.window_seconds)

    def key(self, now: float) -> str:
        return rate_pk(self.scope, self.subject, self.window(now))

    def retry_after(self, now: float) -> int:
        return int((self.window(now) + 1) * self.window_seconds - now) + 1

    def expires_at(self, now: float) -> datetime:
        return datetime.fromtimestamp((self.window(now) + 1) * self.window_seconds + 60, tz=UTC)

    def increment_actions(self, now: float, by: int = 1) -> list:
        return [
            RateCounter.count.add(by),
            RateCounter.expires_at.set(self.expires_at(now)),
            RateCounter.kind.set(RateCounter),
        ]

    def below_limit_condition(self):
        return RateCounter.pk.does_not_exist() | (RateCounter.count < self.limit)


def hit(limit: Limit, now: float | None = None) -> None:
    """Count one request against ``limit``; 429 with Retry-After when the window is used up."""
    now = time.time() if now is None else now
    try:
        RateCounter(limit.key(now)).update(
            actions=limit.increment_actions(now), condition=limit.below_limit_condition()
        )
    except UpdateError as exc:
        if error_code(exc) == "ConditionalCheckFailedException":
            raise Throttled(limit.retry_after(now)) from None
        raise
