"""Rate limits kept in the auth table; which limits there are is chalicelib/limits.py.

``Limit``: a fixed window, for limits the contract ties to the clock (an owner's texts per clock hour,
per-address limits). A counter item per (scope, subject, window) is incremented only while it is
below the limit, so parallel requests can never pass more than ``limit`` (DynamoDB evaluates the
condition atomically). Across a window's edge a caller may spend two windows' worth in a moment.

``RollingLimit``: at most ``limit`` units in ANY ``period`` (the rules: chalicelib/domain/rolling_window.py),
for every limit where that edge would matter. A log item per (scope, subject) holds the charges; a
charge reads it, then adds to it in one write conditional on a ceiling that parallel charges cannot
move out from under it (store/rate_logs.py): they never make each other fail, and never pass the
limit together. Several limits are charged in one transaction, all or none (``charge_together``), or
one unit each as far as each has room (``charge_each``).
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from chalicelib import store
from chalicelib.config import get_settings
from chalicelib.domain.rolling_window import Charge, Window
from chalicelib.errors import ServiceUnavailable, Throttled
from chalicelib.limits import RateLimit
from chalicelib.parallel import chunks, parallel_map
from chalicelib.retry import AttemptsSpent, TryAgain, jittered, retry
from chalicelib.store import counters, rate_logs
from chalicelib.store.rate_logs import Log, LogCharge

# A parallel charge never makes a charge's write fail. A refused write means the charge no longer fits
# (the next read answers 429 with a fresh Retry-After) or, rarely, that charges it read were taken back
# meanwhile; in AWS a transaction may also be cancelled by a parallel one on the same item
# (TransactionConflict: moto runs transactions one at a time). Three attempts serve all of these.
ROLLING_ATTEMPTS = 3
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

    @classmethod
    def of(cls, entry: RateLimit, subject: object) -> Limit:
        """The catalogue's clock-window ``entry`` for ``subject``, sized by the settings."""
        settings = get_settings()
        return cls(entry.name, str(subject), entry.size(settings), entry.window(settings))

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
    counter, so it must never ask for more), else what a consistent read shows is left. Why attempts
    rather than a condition that cannot lose: DynamoDB cannot add "as much as still fits", so an add
    refused for want of room reads what is left and asks for that."""
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
class RollingLimit:
    """At most ``limit`` units per subject in any ``period_seconds``, exactly: one item logs the
    charges, so there is no window edge to burst across and nothing counts longer than the period.
    A charge reads the log, then writes one entry conditional on a ceiling (chalicelib/domain/rolling_window.py)
    that parallel charges cannot move: none of them makes another fail."""

    scope: str
    subject: str
    limit: int
    period_seconds: int = 86400

    @classmethod
    def of(cls, entry: RateLimit, subject: object) -> RollingLimit:
        """The catalogue's rolling ``entry`` for ``subject``, sized by the settings."""
        settings = get_settings()
        return cls(entry.name, str(subject), entry.size(settings), entry.window(settings))

    @property
    def window(self) -> Window:
        return Window(self.limit, self.period_seconds)

    def key(self) -> str:
        return rate_logs.log_key(self.scope, self.subject)

    def read(self, now: float) -> Log:
        """The log as of ``now`` (one consistent BatchGetItem)."""
        return read_usage([self], now)[0]

    def fits(self, usage: Log, amount: int, now: float) -> bool:
        return self.window.fits(usage.charges, amount, now)

    def retry_after(self, usage: Log, amount: int, now: float) -> int:
        """Seconds until ``amount`` more fits, assuming nothing else is charged meanwhile."""
        return self.window.retry_after(usage.charges, amount, now)

    def check(self, usage: Log, amount: int, now: float) -> None:
        """429 with Retry-After when ``amount`` more does not fit the log read."""
        if not self.fits(usage, amount, now):
            raise Throttled(self.retry_after(usage, amount, now))

    def write(self, usage: Log, amount: int, now: float) -> LogCharge:
        """The write of ``amount`` charged at ``now`` on top of the log read: it holds while the units
        charged since the read leave room, whoever charged them."""
        ceiling = self.window.ceiling(usage.total, usage.charges, amount, now)
        expires = datetime.fromtimestamp(now + self.period_seconds + 60, tz=UTC)
        return rate_logs.planned(
            self.key(),
            usage,
            Charge(round(now, 3), amount),
            ceiling,
            lambda c: self.window.forgettable(c, now),
            expires,
        )

    def undo(self, receipt: LogCharge) -> None:
        """Take back a charge whose purpose then failed (``receipt``: what :meth:`write` or :meth:`charge` made)."""
        rate_logs.take_back(receipt)

    def commit(self, usage: Log, amount: int, now: float) -> LogCharge:
        """Charge ``amount`` on top of the log read (429 once it no longer leaves room)."""
        return _commit_together([(self, amount)], [usage], now)[0]

    def charge(self, amount: int, now: float | None = None) -> LogCharge | None:
        """Count ``amount`` units, all or none: 429 with Retry-After when they do not fit."""
        written = charge_together([(self, amount)], now)
        return written[0] if written else None


def read_usage(limits: Sequence[RollingLimit], now: float) -> list[Log]:
    """The log of each of ``limits`` (consistent BatchGetItem, 100 logs a call, side by side)."""
    found = rate_logs.read_logs([limit.key() for limit in limits])
    return [found.get(limit.key(), Log()) for limit in limits]


def charge_together(charges: Sequence[tuple[RollingLimit, int]], now: float | None = None) -> list[LogCharge]:
    """Count each ``(limit, amount)``, all or none, in one read and one write (at most 100 limits):
    429 with the longest Retry-After among those that do not fit. The writes made (to take back)."""
    charges = [(limit, amount) for limit, amount in charges if amount > 0]
    if not charges:
        return []
    now = time.time() if now is None else now
    usages = read_usage([limit for limit, _ in charges], now)
    _check_all(charges, usages, now)
    return _commit_together(charges, usages, now)


def _check_all(charges: Sequence[tuple[RollingLimit, int]], usages: list[Log], now: float) -> None:
    waits = [
        limit.retry_after(usage, amount, now)
        for (limit, amount), usage in zip(charges, usages, strict=True)
        if not limit.fits(usage, amount, now)
    ]
    if waits:
        raise Throttled(max(waits))


def _commit_together(charges: Sequence[tuple[RollingLimit, int]], usages: list[Log], now: float) -> list[LogCharge]:
    def attempt(number: int) -> list[LogCharge]:
        nonlocal usages
        if number:
            usages = read_usage([limit for limit, _ in charges], now)
            _check_all(charges, usages, now)
        writes = [limit.write(usage, amount, now) for (limit, amount), usage in zip(charges, usages, strict=True)]
        try:
            rate_logs.write_logs(writes)
        except store.Refused:
            raise TryAgain(pause=0) from None  # no room by now, most likely: the next read says so at once
        except store.Contended:
            raise TryAgain() from None
        return writes

    try:
        return retry(attempt, attempts=ROLLING_ATTEMPTS, pause=ROLLING_PAUSE)
    except AttemptsSpent:
        raise ServiceUnavailable() from None


def charge_each(limits: Sequence[RollingLimit], now: float | None = None) -> list[bool]:
    """Count one unit against each of ``limits`` that has room; which ones were counted. One read of
    every log, then one transaction per 100 limits side by side. A transaction is all or none: when
    some of its logs are full by now (a parallel charge took their last unit), the rest are sent again
    at once without them, as read (their ceilings still hold), so each further attempt is one fewer log."""
    now = time.time() if now is None else now
    counted = [False] * len(limits)
    usages = read_usage(limits, now)
    fitting = [i for i, (limit, usage) in enumerate(zip(limits, usages, strict=True)) if limit.fits(usage, 1, now)]
    writes = {i: limits[i].write(usages[i], 1, now) for i in fitting}

    def commit(chunk: Sequence[int]) -> None:
        pending = list(chunk)

        def attempt(_number: int) -> None:
            nonlocal pending
            if not pending:
                return  # every log of the chunk was full by the time its write landed
            try:
                rate_logs.write_logs([writes[index] for index in pending])
            except store.Refused as refused:
                pending = [index for position, index in enumerate(pending) if not refused.item_failed(position)]
                raise TryAgain(pause=0) from None
            except store.Contended:
                raise TryAgain() from None
            for index in pending:
                counted[index] = True
            pending = []

        try:
            retry(attempt, attempts=ROLLING_ATTEMPTS, pause=ROLLING_PAUSE)
        except AttemptsSpent:
            pass  # left uncounted: no text (a limit reached a little early, never late)

    parallel_map(commit, chunks(fitting, LIMITS_PER_TRANSACTION))
    return counted
