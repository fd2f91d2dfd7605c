"""The rules of a rolling limit: at most ``limit`` units in any ``period`` seconds.

A limit's usage is the list of its charges (when, how many units); a charge counts while it is younger
than the period, so there is no window edge to burst across. Time is always passed in.

How a charge is written so that a parallel charge cannot make it lose (:meth:`Window.ceiling`): the
store keeps, beside the charges, ``total``, every unit ever charged to the subject (an atomic add).
A caller reads ``total_read`` and the charges; those in the window sum to ``used``. Whatever is
charged after the read is inside the window too, so ``amount`` more fits exactly while
``total - total_read + used + amount <= limit``: the write is conditional on
``total <= total_read + limit - used - amount``. A sibling's charge only raises ``total``, which the
condition sees atomically: it can neither make a fitting charge fail nor let a failing one pass.
Charges leaving the window between the read and the write only make the condition stricter than it
needs to be (a limit reached a little early, never late).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

FORGET_AFTER_SECONDS = 60  # a charge this much older than the period may be dropped (servers' clocks differ)


@dataclass(frozen=True, order=True)
class Charge:
    """``amount`` units charged at ``at`` (UNIX seconds)."""

    at: float
    amount: int


@dataclass(frozen=True)
class Window:
    """At most ``limit`` units in any ``period`` seconds."""

    limit: int
    period: float

    def counts(self, charge: Charge, now: float) -> bool:
        """True while ``charge`` is inside the period ending at ``now``."""
        return charge.at > now - self.period

    def in_window(self, charges: Iterable[Charge], now: float) -> list[Charge]:
        """The charges that count at ``now``, oldest first."""
        return sorted(charge for charge in charges if self.counts(charge, now))

    def used(self, charges: Iterable[Charge], now: float) -> int:
        return sum(charge.amount for charge in self.in_window(charges, now))

    def fits(self, charges: Iterable[Charge], amount: int, now: float) -> bool:
        return self.used(charges, now) + amount <= self.limit

    def retry_after(self, charges: Iterable[Charge], amount: int, now: float) -> int:
        """Whole seconds until ``amount`` more fits, if nothing else is charged meanwhile (at least 1);
        the whole period for an amount larger than the limit."""
        if amount > self.limit:
            return int(self.period)
        counting = self.in_window(charges, now)
        left = sum(charge.amount for charge in counting)
        for charge in counting:
            if left + amount <= self.limit:
                break
            left -= charge.amount
            if left + amount <= self.limit:
                return max(1, int(charge.at + self.period - now) + 1)
        return 1

    def ceiling(self, total_read: int, charges: Iterable[Charge], amount: int, now: float) -> int:
        """The highest ``total`` (every unit ever charged) at which a write of ``amount`` still fits,
        given the ``total`` and the charges read (see the module's docstring)."""
        return total_read + self.limit - self.used(charges, now) - amount

    def forgettable(self, charge: Charge, now: float) -> bool:
        """True when ``charge`` can be dropped from the log: it left the period a while ago, longer
        than two servers' clocks may disagree, so no reader can still count it."""
        return charge.at <= now - self.period - FORGET_AFTER_SECONDS
