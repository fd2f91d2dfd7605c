"""Rolling-limit logs as stored: old charges dropped without a rewrite, the previous release's logs
honoured until they expire, charges taken back."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from chalicelib.domain.rolling_window import Charge, Window
from chalicelib.errors import Throttled
from chalicelib.models.auth import RateLog
from chalicelib.services.guards.ratelimit import RollingLimit
from chalicelib.store import rate_logs
from chalicelib.store.rate_logs import Log

START = 1_800_000_000.0
PERIOD = 900
FORGOTTEN = 61  # seconds past the period after which a charge may be dropped


def _stored(limit: RollingLimit) -> RateLog:
    return RateLog.get(limit.key(), consistent_read=True)


def _entries(item: RateLog) -> int:
    return len(item.lane_a or ()) + len(item.lane_b or ())


def test_charges_long_out_of_the_period_are_dropped_as_new_ones_come(aws):
    limit = RollingLimit("test", "someone", 2, period_seconds=PERIOD)
    for n in range(12):
        limit.charge(1, now=START + n * (PERIOD + 61))
    item = _stored(limit)
    assert _entries(item) <= 2  # the newest, and at most one not yet forgettable when it was written
    assert item.total == 12


def test_a_log_of_the_previous_release_counts_until_it_leaves_the_period_then_goes(aws):
    limit = RollingLimit("test", "someone", 5, period_seconds=PERIOD)
    RateLog(
        limit.key(),
        times=[START - 100, START - 50],
        amounts=[3, 2],
        version=2,
        expires_at=datetime.fromtimestamp(START + PERIOD, tz=UTC),
    ).save()
    with pytest.raises(Throttled):
        limit.charge(1, now=START)
    limit.charge(3, now=START - 100 + PERIOD + 1)  # the 3 left the period; the 2 still count
    with pytest.raises(Throttled):
        limit.charge(1, now=START - 100 + PERIOD + 2)
    limit.charge(1, now=START + PERIOD + FORGOTTEN)
    item = _stored(limit)
    assert item.times is None and item.amounts is None and item.version is None


def test_a_charge_taken_back_frees_its_units(aws):
    limit = RollingLimit("test", "someone", 1, period_seconds=PERIOD)
    receipt = limit.charge(1, now=START)
    with pytest.raises(Throttled):
        limit.charge(1, now=START + 1)
    limit.undo(receipt)
    limit.charge(1, now=START + 2)
    assert _stored(limit).total == 1


# --- the log's writes, interleaved at will (no AWS: DynamoDB's set and number actions, modelled) -----


class InterleavedCharges(RuleBasedStateMachine):
    """Requests read the log, then write their charge (rate_logs.planned) in any order, while time
    passes; a request lives at most a minute (Lambda's timeout is below that). The item is modelled
    as DynamoDB applies one UpdateItem: the condition on ``total``, then ADD and DELETE."""

    def __init__(self):
        super().__init__()
        self.window = Window(limit=5, period=PERIOD)
        self.now = START
        self.total, self.lanes, self.exists = 0, [set(), set()], False
        self.applied: list[Charge] = []  # every charge that landed: the truth
        self.reads: list[tuple[float, Log]] = []

    def _log(self) -> Log:
        return Log(self.total, (frozenset(self.lanes[0]), frozenset(self.lanes[1]))) if self.exists else Log()

    @rule(seconds=st.floats(min_value=0, max_value=400))
    def time_passes(self, seconds):
        self.now += seconds
        self.reads = [(at, log) for at, log in self.reads if at >= self.now - 60]

    @rule()
    def a_request_reads(self):
        self.reads.append((self.now, self._log()))

    @precondition(lambda self: self.reads)
    @rule(data=st.data(), amount=st.integers(min_value=1, max_value=3))
    def a_request_writes(self, data, amount):
        at, log = self.reads.pop(data.draw(st.integers(0, len(self.reads) - 1)))
        at = round(at, 3)  # as the service charges it
        if not self.window.fits(log.charges, amount, at):
            return  # answered 429 from its read
        write = rate_logs.planned(
            "key",
            log,
            Charge(at, amount),
            self.window.ceiling(log.total, log.charges, amount, at),
            lambda charge: self.window.forgettable(charge, at),
            datetime.fromtimestamp(at + PERIOD, tz=UTC),
        )
        held = not self.exists or self.total <= write.ceiling
        assert held == self.window.fits(self.applied, amount, at)  # refused only when it no longer fits
        if held:
            self.exists = True
            self.total += amount
            self.lanes[write.lane].add(write.entry)
            self.lanes[1 - write.lane] -= write.forget
            self.applied.append(Charge(at, amount))

    @invariant()
    def nothing_that_counts_is_forgotten(self):
        stored = {rate_logs.parse_entry(entry) for lane in self.lanes for entry in lane}
        for charge in self.applied:
            if self.window.counts(charge, self.now - 60):
                assert charge in stored

    @invariant()
    def the_log_stays_small(self):
        # at most a limit's worth of charges fits in one period: what is kept is a few periods' worth
        assert sum(len(lane) for lane in self.lanes) <= 3 * self.window.limit


TestInterleavedCharges = InterleavedCharges.TestCase
