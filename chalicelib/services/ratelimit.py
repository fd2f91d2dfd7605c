"""Rate limits kept as conditional counters in the auth table.

``Limit``: a fixed window, for limits the contract ties to the clock (an owner's texts per clock hour,
per-address limits). A counter item per (scope, subject, window) is incremented only while it is
below the limit, so parallel requests can never pass more than ``limit`` (DynamoDB evaluates the
condition atomically). Across a window's edge a caller may spend two windows' worth in a moment.

``RollingLimit``: at most ``limit`` units in ANY ``period`` (pins per number in 15 minutes, numbers
looked up or invited in 24 hours, events created in 24 hours, texts to a stranger in 24 hours): the
one mechanism for every limit where that edge would matter. A log item per (scope, subject) holds
the charges still inside the period; a charge rewrites it conditional on the version read, so
parallel charges never pass the limit either. Several limits are charged in one transaction, all or
none (``charge_together``), or one unit each as far as each has room (``charge_each``).
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from pynamodb.exceptions import TransactWriteError, UpdateError

from chalicelib.errors import ServiceUnavailable, Throttled
from chalicelib.models.auth import RateCounter, RateLog, rate_log_pk, rate_pk
from chalicelib.models.base import transact_write
from chalicelib.parallel import chunks, parallel_map
from chalicelib.store.batch import batch_get
from chalicelib.store.conditions import condition_failed, conflicted

_ROLLING_ATTEMPTS = 5
_TAKE_ATTEMPTS = 5
_LIMITS_PER_TRANSACTION = 100  # one item each: DynamoDB's limit of a transaction


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
class Usage:
    """A rolling limit's log as read: the charges still inside the period, and the log's version
    (0: no log yet)."""

    charges: tuple[tuple[float, int], ...] = ()
    version: int = 0

    @property
    def total(self) -> int:
        return sum(amount for _, amount in self.charges)


@dataclass(frozen=True)
class RollingLimit:
    """At most ``limit`` units per subject in any ``period_seconds``, exactly: one item logs the
    charges still inside the period (a sliding log), so there is no window edge to burst across and
    nothing counts longer than the period. A charge reads the log and rewrites it conditional on the
    version read; a parallel charge makes it read again. The log holds at most ``limit`` charges."""

    scope: str
    subject: str
    limit: int
    period_seconds: int = 86400

    def key(self) -> str:
        return rate_log_pk(self.scope, self.subject)

    def usage(self, item: RateLog | None, now: float) -> Usage:
        if item is None:
            return Usage()
        since = now - self.period_seconds
        charges = zip(item.times or [], item.amounts or [], strict=True)
        return Usage(tuple((float(t), int(a)) for t, a in charges if t > since), int(item.version or 0))

    def read(self, now: float) -> Usage:
        """The usage as of ``now`` (one consistent BatchGetItem)."""
        return read_usage([self], now)[0]

    def fits(self, usage: Usage, amount: int) -> bool:
        return usage.total + amount <= self.limit

    def retry_after(self, usage: Usage, amount: int, now: float) -> int:
        """Seconds until ``amount`` more fits, assuming nothing else is charged meanwhile."""
        if amount > self.limit:
            return self.period_seconds
        left = usage.total
        for when, spent in usage.charges:
            left -= spent
            if left + amount <= self.limit:
                return max(1, int(when + self.period_seconds - now) + 1)
        return 1

    def check(self, usage: Usage, amount: int, now: float) -> None:
        """429 with Retry-After when ``amount`` more does not fit the usage read."""
        if not self.fits(usage, amount):
            raise Throttled(self.retry_after(usage, amount, now))

    def add_to(self, transaction, usage: Usage, amount: int, now: float) -> None:
        """Put the log with ``amount`` charged at ``now`` into ``transaction`` (one item), conditional on
        the version read."""
        self._write(transaction, [*usage.charges, (round(now, 3), amount)], usage.version, now)

    def _write(self, transaction, charges: list[tuple[float, int]], version: int, now: float) -> None:
        log = RateLog(
            self.key(),
            times=[when for when, _ in charges],
            amounts=[spent for _, spent in charges],
            version=version + 1,
            expires_at=datetime.fromtimestamp(now + self.period_seconds + 60, tz=UTC),
        )
        read = RateLog.pk.does_not_exist() if version == 0 else RateLog.version == version
        transaction.save(log, condition=read)

    def undo(self, amount: int, now: float) -> None:
        """Take back a charge of ``amount`` made at ``now`` whose purpose then failed."""
        for _ in range(_ROLLING_ATTEMPTS):
            usage = self.read(now)
            charges = list(usage.charges)
            if (round(now, 3), amount) not in charges:
                return
            charges.remove((round(now, 3), amount))
            try:
                with transact_write() as transaction:
                    self._write(transaction, charges, usage.version, now)
                return
            except TransactWriteError as exc:
                if not (condition_failed(exc) or conflicted(exc)):
                    raise

    def commit(self, usage: Usage, amount: int, now: float) -> None:
        """Charge ``amount`` on top of the usage read; when a parallel charge moved it, read again
        (429 once it no longer leaves room)."""
        _commit_together([(self, amount)], [usage], now)

    def charge(self, amount: int, now: float | None = None) -> None:
        """Count ``amount`` units, all or none: 429 with Retry-After when they do not fit."""
        charge_together([(self, amount)], now)


def read_usage(limits: Sequence[RollingLimit], now: float) -> list[Usage]:
    """The usage of each of ``limits`` (consistent BatchGetItem, 100 logs a call, side by side)."""
    found = {item.pk: item for item in batch_get(RateLog, [limit.key() for limit in limits], consistent_read=True)}
    return [limit.usage(found.get(limit.key()), now) for limit in limits]


def charge_together(charges: Sequence[tuple[RollingLimit, int]], now: float | None = None) -> None:
    """Count each ``(limit, amount)``, all or none, in one read and one transaction (at most 100 limits):
    429 with the longest Retry-After among those that do not fit."""
    charges = [(limit, amount) for limit, amount in charges if amount > 0]
    if not charges:
        return
    now = time.time() if now is None else now
    counts = read_usage([limit for limit, _ in charges], now)
    _check_all(charges, counts, now)
    _commit_together(charges, counts, now)


def _check_all(charges: Sequence[tuple[RollingLimit, int]], counts: list[Usage], now: float) -> None:
    waits = [
        limit.retry_after(found, amount, now)
        for (limit, amount), found in zip(charges, counts, strict=True)
        if not limit.fits(found, amount)
    ]
    if waits:
        raise Throttled(max(waits))


def _commit_together(charges: Sequence[tuple[RollingLimit, int]], counts: list[Usage], now: float) -> None:
    for attempt in range(_ROLLING_ATTEMPTS):
        if attempt:
            counts = read_usage([limit for limit, _ in charges], now)
            _check_all(charges, counts, now)
        try:
            with transact_write() as transaction:
                for (limit, amount), found in zip(charges, counts, strict=True):
                    limit.add_to(transaction, found, amount, now)
            return
        except TransactWriteError as exc:
            if not (condition_failed(exc) or conflicted(exc)):
                raise
    raise ServiceUnavailable()  # parallel charges kept moving the logs


def charge_each(limits: Sequence[RollingLimit], now: float | None = None) -> list[bool]:
    """Count one unit against each of ``limits`` that has room; which ones were counted. One read of
    every log, then one transaction per 100 limits side by side; limits a parallel charge moved are
    read again and retried, a few times."""
    now = time.time() if now is None else now
    counted = [False] * len(limits)
    pending = list(range(len(limits)))
    for _ in range(_ROLLING_ATTEMPTS):
        counts = dict(zip(pending, read_usage([limits[i] for i in pending], now), strict=True))
        fitting = [i for i in pending if limits[i].fits(counts[i], 1)]
        if not fitting:
            break

        def commit(chunk: Sequence[int], counts: dict[int, Usage] = counts) -> list[int]:
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
