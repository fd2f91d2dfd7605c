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
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from pynamodb.exceptions import TransactWriteError, UpdateError

from chalicelib.errors import Throttled
from chalicelib.models.auth import AuthTable, RateCounter, rate_pk
from chalicelib.models.base import transact_write
from chalicelib.parallel import chunks, parallel_map
from chalicelib.store.batch import batch_get
from chalicelib.store.conditions import condition_failed, conflicted

_ROLLING_ATTEMPTS = 5
_TAKE_ATTEMPTS = 5
_LIMITS_PER_TRANSACTION = 50  # two items each; a transaction holds 100


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
        if condition_failed(exc):
            raise Throttled(limit.retry_after(now)) from None
        raise


def take_up_to(limit: Limit, wanted: int, now: float | None = None) -> int:
    """Take up to ``wanted`` units of ``limit``'s current window; how many were left to take (maybe 0),
    never a 429. Each add is conditional on the room it assumes, so parallel callers never take more
    than the limit: as much of ``wanted`` as the limit holds first, else what a consistent read shows is
    left. (The window's first add meets no counter, so it must never ask for more than the limit.)"""
    now = time.time() if now is None else now
    counter = RateCounter(limit.key(now))
    take = min(wanted, limit.limit)
    for _ in range(_TAKE_ATTEMPTS):
        if take <= 0:
            return 0
        condition = RateCounter.pk.does_not_exist() | (RateCounter.count <= limit.limit - take)
        try:
            counter.update(actions=limit.increment_actions(now, by=take), condition=condition)
            return take
        except UpdateError as exc:
            if not condition_failed(exc):
                raise
        try:
            used = RateCounter.get(limit.key(now), consistent_read=True).count
        except RateCounter.DoesNotExist:
            used = 0
        take = min(wanted, limit.limit - used)
    return 0


@dataclass(frozen=True)
class RollingLimit:
    """At most ``limit`` units per subject in any ``period_seconds``, counted in buckets.

    A charge counts against every bucket a period ending now overlaps, the oldest one whole, so the
    limit errs on the strict side by at most one bucket: pick ``bucket_seconds`` small against the
    period where that matters (pins: a minute of 15), larger where reads should stay cheap."""

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
        return rate_pk(self.scope, self.subject, bucket)

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
        return read_counts([self], now)[0]

    def fits(self, counts: dict[int, int], amount: int) -> bool:
        return sum(counts.values()) + amount <= self.limit

    def check(self, counts: dict[int, int], amount: int, now: float) -> None:
        """429 with Retry-After when ``amount`` more does not fit the counts read."""
        if not self.fits(counts, amount):
            raise Throttled(self.retry_after(counts, amount, now))

    def add_to(self, transaction, counts: dict[int, int], amount: int, now: float) -> None:
        """Put the add of ``amount`` to the current bucket into ``transaction``, conditional on the counts
        read (the earlier buckets' sum, and the previous bucket unchanged, the only other one a charge
        still in flight might write): two items."""
        buckets = self.buckets(now)
        current, previous = buckets[-1], buckets[-2]
        expires = datetime.fromtimestamp((current + 1) * self.bucket_seconds + self.period_seconds + 60, tz=UTC)
        room = self.limit - sum(counts.get(b, 0) for b in buckets[:-1]) - amount
        seen = counts.get(previous)
        unchanged = RateCounter.pk.does_not_exist() if seen is None else RateCounter.count == seen
        transaction.condition_check(RateCounter, self.key(previous), condition=unchanged)
        transaction.update(
            RateCounter(self.key(current)),
            actions=[
                RateCounter.count.add(amount),
                RateCounter.expires_at.set(expires),
                RateCounter.kind.set(RateCounter),
            ],
            condition=RateCounter.pk.does_not_exist() | (RateCounter.count <= room),
        )

    def undo(self, amount: int, now: float) -> None:
        """Give back ``amount`` charged at ``now`` (a charge whose purpose then failed)."""
        RateCounter(self.key(self.bucket(now))).update(actions=[RateCounter.count.add(-amount)])

    def commit(self, counts: dict[int, int], amount: int, now: float) -> None:
        """Add ``amount`` to the current bucket, conditional on the counts read; when a parallel charge
        moved them, read again (429 once they no longer leave room)."""
        _commit_together([(self, amount)], [counts], now)

    def charge(self, amount: int, now: float | None = None) -> None:
        """Count ``amount`` units, all or none: 429 with Retry-After when they do not fit."""
        charge_together([(self, amount)], now)


def read_counts(limits: Sequence[RollingLimit], now: float) -> list[dict[int, int]]:
    """The bucket counts of each of ``limits`` (one BatchGetItem per 100 buckets, side by side)."""
    keys = {limit.key(b): (index, b) for index, limit in enumerate(limits) for b in limit.buckets(now)}
    counts: list[dict[int, int]] = [{} for _ in limits]
    for item in batch_get(AuthTable, list(keys), consistent_read=True):
        if isinstance(item, RateCounter):
            index, bucket = keys[item.pk]
            counts[index][bucket] = int(item.count)
    return counts


def charge_together(charges: Sequence[tuple[RollingLimit, int]], now: float | None = None) -> None:
    """Count each ``(limit, amount)``, all or none, in one read and one transaction (at most 50 limits):
    429 with the longest Retry-After among those that do not fit."""
    charges = [(limit, amount) for limit, amount in charges if amount > 0]
    if not charges:
        return
    now = time.time() if now is None else now
    counts = read_counts([limit for limit, _ in charges], now)
    _check_all(charges, counts, now)
    _commit_together(charges, counts, now)


def _check_all(charges: Sequence[tuple[RollingLimit, int]], counts: list[dict[int, int]], now: float) -> None:
    waits = [
        limit.retry_after(found, amount, now)
        for (limit, amount), found in zip(charges, counts, strict=True)
        if not limit.fits(found, amount)
    ]
    if waits:
        raise Throttled(max(waits))


def _commit_together(charges: Sequence[tuple[RollingLimit, int]], counts: list[dict[int, int]], now: float) -> None:
    for attempt in range(_ROLLING_ATTEMPTS):
        if attempt:
            counts = read_counts([limit for limit, _ in charges], now)
            _check_all(charges, counts, now)
        try:
            with transact_write() as transaction:
                for (limit, amount), found in zip(charges, counts, strict=True):
                    limit.add_to(transaction, found, amount, now)
            return
        except TransactWriteError as exc:
            if not (condition_failed(exc) or conflicted(exc)):
                raise
    raise Throttled(max(limit.bucket_seconds for limit, _ in charges))


def charge_each(limits: Sequence[RollingLimit], now: float | None = None) -> list[bool]:
    """Count one unit against each of ``limits`` that has room; which ones were counted. One read of
    every bucket, then one transaction per 50 limits side by side; limits a parallel charge moved are
    read again and retried, a few times."""
    now = time.time() if now is None else now
    counted = [False] * len(limits)
    pending = list(range(len(limits)))
    for _ in range(_ROLLING_ATTEMPTS):
        counts = dict(zip(pending, read_counts([limits[i] for i in pending], now), strict=True))
        fitting = [i for i in pending if limits[i].fits(counts[i], 1)]
        if not fitting:
            break

        def commit(chunk: Sequence[int], counts: dict[int, dict[int, int]] = counts) -> list[int]:
            try:
                with transact_write() as transaction:
                    for index in chunk:
                        limits[index].add_to(transaction, counts[index], 1, now)
            except TransactWriteError as exc:
                if not (condition_failed(exc) or conflicted(exc)):
                    raise
                return list(chunk)
            for index in chunk:
                counted[index] = True
            return []

        pending = [i for failed in parallel_map(commit, chunks(fitting, _LIMITS_PER_TRANSACTION)) for i in failed]
        if not pending:
            break
    return counted
