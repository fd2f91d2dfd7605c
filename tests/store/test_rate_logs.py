"""Rolling-limit logs as stored: old charges dropped without a rewrite, the previous release's logs
honoured until they expire, charges taken back."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from chalicelib.errors import Throttled
from chalicelib.models.auth import RateLog
from chalicelib.services.ratelimit import RollingLimit

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
