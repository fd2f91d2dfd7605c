"""Rate limits kept in the auth table.

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

from chalicelib import store
from chalicelib.errors import ServiceUnavailable, Throttled
from chalicelib.parallel import chunks, parallel_map
from chalicelib.retry import AttemptsSpent, TryAgain, jittered, retry
from chalicelib.store import counters, rate_logs

ROLLING_ATTEMPTS = 12  # parallel charges of one log take turns: each round lets one of them through
ROLLING_PAUSE = jittered(0.02)
TAKE_ATTEMPTS = 5
LIMITS_PER_TRANSACTION = 100  # one log item each: DynamoDB's limit of a transaction


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
    than the limit: as much of ``wanted`` as the limit holds first (the window's first add meets no
    counter, so it must never ask for more), else what a consistent read shows is left."""
    now = time.time() if now is None else now
    key, take = limit.key(now), min(wanted, limit.limit)  # the window's first add meets no counter

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
        return rate_logs.log_key(self.scope, self.subject)

    def usage(self, found: tuple[list[tuple[float, int]], int] | None, now: float) -> Usage:
        if found is None:
            return Usage()
        charges, version = found
        since = now - self.period_seconds
        return Usage(tuple((when, spent) for when, spent in charges if when > since), version)

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

    def write(self, usage: Usage, amount: int, now: float) -> rate_logs.LogWrite:
        """The log with ``amount`` charged at ``now``, to be written if it still is as read."""
        return self._write([*usage.charges, (round(now, 3), amount)], usage.version, now)

    def _write(self, charges: list[tuple[float, int]], version: int, now: float) -> rate_logs.LogWrite:
        expires = datetime.fromtimestamp(now + self.period_seconds + 60, tz=UTC)
        return rate_logs.LogWrite(self.key(), charges, version, expires)

    def undo(self, amount: int, now: float) -> None:
        """Take back a charge of ``amount`` made at ``now`` whose purpose then failed."""

        def attempt(_number: int) -> None:
            usage = self.read(now)
            charges = list(usage.charges)
            if (round(now, 3), amount) in charges:
                charges.remove((round(now, 3), amount))
                try:
                    rate_logs.write_logs([self._write(charges, usage.version, now)])
                except (store.Refused, store.Contended):
                    raise TryAgain() from None

        try:
            retry(attempt, attempts=ROLLING_ATTEMPTS, pause=ROLLING_PAUSE)
        except AttemptsSpent:
            pass  # the charge stays: the caller is limited a little early, never late

    def commit(self, usage: Usage, amount: int, now: float) -> None:
        """Charge ``amount`` on top of the usage read; when a parallel charge moved it, read again
        (429 once it no longer leaves room)."""
        _commit_together([(self, amount)], [usage], now)

    def charge(self, amount: int, now: float | None = None) -> None:
        """Count ``amount`` units, all or none: 429 with Retry-After when they do not fit."""
        charge_together([(self, amount)], now)


def read_usage(limits: Sequence[RollingLimit], now: float) -> list[Usage]:
    """The usage of each of ``limits`` (consistent BatchGetItem, 100 logs a call, side by side)."""
    found = rate_logs.read_logs([limit.key() for limit in limits])
    return [limit.usage(found.get(limit.key()), now) for limit in limits]


def charge_together(charges: Sequence[tuple[RollingLimit, int]], now: float | None = None) -> None:
    """Count each ``(limit, amount)``, all or none, in one read and one transaction (at most 100 limits):
    429 with the longest Retry-After among those that do not fit."""
    charges = [(limit, amount) for limit, amount in charges if amount > 0]
    if not charges:
        return
    now = time.time() if now is None else now
    usages = read_usage([limit for limit, _ in charges], now)
    _check_all(charges, usages, now)
    _commit_together(charges, usages, now)


def _check_all(charges: Sequence[tuple[RollingLimit, int]], usages: list[Usage], now: float) -> None:
    waits = [
        limit.retry_after(usage, amount, now)
        for (limit, amount), usage in zip(charges, usages, strict=True)
        if not limit.fits(usage, amount)
    ]
    if waits:
        raise Throttled(max(waits))


def _commit_together(charges: Sequence[tuple[RollingLimit, int]], usages: list[Usage], now: float) -> None:
    def attempt(number: int) -> None:
        nonlocal usages
        if number:
            usages = read_usage([limit for limit, _ in charges], now)
            _check_all(charges, usages, now)
        writes = [limit.write(usage, amount, now) for (limit, amount), usage in zip(charges, usages, strict=True)]
        try:
            rate_logs.write_logs(writes)
        except (store.Refused, store.Contended):
            raise TryAgain() from None

    try:
        retry(attempt, attempts=ROLLING_ATTEMPTS, pause=ROLLING_PAUSE)
    except AttemptsSpent:
        raise ServiceUnavailable() from None  # parallel charges kept moving the logs


def charge_each(limits: Sequence[RollingLimit], now: float | None = None) -> list[bool]:
    """Count one unit against each of ``limits`` that has room; which ones were counted. One read of
    every log, then one transaction per 100 limits side by side; limits a parallel charge moved are
    read again and retried, a few times."""
    now = time.time() if now is None else now
    counted = [False] * len(limits)
    pending = list(range(len(limits)))
    for _ in range(ROLLING_ATTEMPTS):
        usages = dict(zip(pending, read_usage([limits[i] for i in pending], now), strict=True))
        fitting = [i for i in pending if limits[i].fits(usages[i], 1)]
        if not fitting:
            break

        def commit(chunk: Sequence[int], usages: dict[int, Usage] = usages) -> list[int]:
            try:
                rate_logs.write_logs([limits[index].write(usages[index], 1, now) for index in chunk])
            except (store.Refused, store.Contended):
                return list(chunk)
            for index in chunk:
                counted[index] = True
            return []

        pending = [i for failed in parallel_map(commit, chunks(fitting, LIMITS_PER_TRANSACTION)) for i in failed]
        if not pending:
            break
    return counted
