"""Rate limits kept as conditional counters in the auth table.

``Limit``: a fixed window. A counter item per (scope, subject, window) is incremented only while it
is below the limit, so parallel requests can never pass more than ``limit`` (DynamoDB evaluates the
condition atomically). Across a window's edge a caller may spend two windows' worth in a moment.

``RollingLimit``: at most ``limit`` units in ANY ``period`` (e.g. numbers looked up in 24 hours),
for limits where that edge would matter. The period is cut into buckets (an hour each); a charge
reads the buckets that any period ending now can touch, and adds to the current bucket in one
transaction conditional on that sum (and on the previous bucket, the only other one a request
still in flight might write), so parallel charges never pass the limit either.
"""

from __future__ import annotations

import ipaddress
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from chalicelib import store
from chalicelib.errors import Throttled
from chalicelib.retry import AttemptsSpent, TryAgain, retry
from chalicelib.store import counters

ROLLING_ATTEMPTS = 5
TAKE_ATTEMPTS = 5


def address_subject(source_ip: str) -> str:
    """The subject a per-address limit counts: an IPv4 address, or an IPv6 address's /64 (one
    customer's network; counting single IPv6 addresses would give each caller 2^64 allowances)."""
    try:
        address = ipaddress.ip_address(source_ip.strip())
    except ValueError:
        return source_ip or "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


@dataclass(frozen=True)
class Limit:
    scope: str
    subject: str
    limit: int
    window_seconds: int = 3600

    def window(self, now: float) -> int:
        return int(now // self.window_seconds)

    def key(self, now: float) -> str:
        return counters.counter_key(self.scope, self.subject, self.window(now))

    def retry_after(self, now: float) -> int:
        return int((self.window(now) + 1) * self.window_seconds - now) + 1

    def expires_at(self, now: float) -> datetime:
        return datetime.fromtimestamp((self.window(now) + 1) * self.window_seconds + 60, tz=UTC)

    def counted_add(self, now: float):
        """One more unit as the item, actions and condition of a transaction's bounded update."""
        return counters.limited_add(self.key(now), 1, self.limit, self.expires_at(now))


def hit(limit: Limit, now: float | None = None) -> None:
    """Count one request against ``limit``; 429 with Retry-After when the window is used up."""
    now = time.time() if now is None else now
    try:
        counters.add_within(limit.key(now), 1, limit.limit, limit.expires_at(now))
    except store.Refused:
        raise Throttled(limit.retry_after(now)) from None


def take_up_to(limit: Limit, wanted: int, now: float | None = None) -> int:
    """Take up to ``wanted`` units of ``limit``'s current window; how many were left to take (maybe 0),
    never a 429. Each add is conditional on the room it assumes, so parallel callers never take more
    than the limit: all ``wanted`` first, else what a consistent read shows is left."""
    now = time.time() if now is None else now
    key, take = limit.key(now), wanted

    def attempt(_number: int) -> int:
        nonlocal take
        if take <= 0:
            return 0
        try:
            counters.add_within(key, take, limit.limit, limit.expires_at(now))
            return take
        except store.Refused:
            take = min(wanted, limit.limit - counters.count_of(key))
            raise TryAgain() from None

    try:
        return retry(attempt, attempts=TAKE_ATTEMPTS)
    except AttemptsSpent:
        return 0


@dataclass(frozen=True)
class RollingLimit:
    """At most ``limit`` units per subject in any ``period_seconds``, counted in buckets."""

    scope: str
    subject: str
    limit: int
    period_seconds: int = 86400
    bucket_seconds: int = 3600

    def bucket(self, now: float) -> int:
        return int(now // self.bucket_seconds)

    def buckets(self, now: float) -> list[int]:
        """The buckets a period ending now overlaps, oldest first (the current one last)."""
        current = self.bucket(now)
        return list(range(current - -(-self.period_seconds // self.bucket_seconds), current + 1))

    def key(self, bucket: int) -> str:
        return counters.counter_key(self.scope, self.subject, bucket)

    def retry_after(self, counts: dict[int, int], amount: int, now: float) -> int:
        """Seconds until ``amount`` more fits, assuming nothing else is charged meanwhile."""
        buckets = self.buckets(now)
        for later in range(1, len(buckets) + 1):
            still_counted = sum(counts.get(b, 0) for b in buckets if b >= buckets[0] + later)
            if still_counted + amount <= self.limit:
                return int((buckets[-1] + later) * self.bucket_seconds - now) + 1
        return int((buckets[-1] + len(buckets)) * self.bucket_seconds - now) + 1

    def read(self, now: float) -> dict[int, int]:
        """The counts of every bucket a period ending ``now`` touches (one BatchGetItem)."""
        keys = {self.key(b): b for b in self.buckets(now)}
        return {keys[key]: count for key, count in counters.counts_of(list(keys)).items()}

    def check(self, counts: dict[int, int], amount: int, now: float) -> None:
        """429 with Retry-After when ``amount`` more does not fit the counts read."""
        if sum(counts.values()) + amount > self.limit:
            raise Throttled(self.retry_after(counts, amount, now))

    def commit(self, counts: dict[int, int], amount: int, now: float) -> None:
        """Add ``amount`` to the current bucket, conditional on the counts read (the earlier buckets'
        sum, and the previous bucket unchanged); when a parallel charge moved them, read again."""
        buckets = self.buckets(now)
        current, previous = buckets[-1], buckets[-2]
        expires = datetime.fromtimestamp((current + 1) * self.bucket_seconds + self.period_seconds + 60, tz=UTC)

        def attempt(number: int) -> None:
            nonlocal counts
            if number:
                counts = self.read(now)
                self.check(counts, amount, now)
            room = self.limit - sum(counts.get(b, 0) for b in buckets[:-1])
            try:
                counters.add_within_if_unchanged(
                    self.key(current),
                    amount,
                    room,
                    expires,
                    other_key=self.key(previous),
                    other_count=counts.get(previous),
                )
            except (store.Refused, store.Conflict):
                raise TryAgain() from None

        try:
            retry(attempt, attempts=ROLLING_ATTEMPTS)
        except AttemptsSpent:
            raise Throttled(self.bucket_seconds) from None

    def charge(self, amount: int, now: float | None = None) -> None:
        """Count ``amount`` units, all or none: 429 with Retry-After when they do not fit."""
        if amount <= 0:
            return
        now = time.time() if now is None else now
        counts = self.read(now)
        self.check(counts, amount, now)
        self.commit(counts, amount, now)
