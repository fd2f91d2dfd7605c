"""The rules of rolling windows, without AWS: plain cases, then properties over any charges."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from chalicelib.domain.rolling_window import FORGET_AFTER_SECONDS, Charge, Window

DAY = 86400
START = 1_800_000_000.0


def test_a_charge_counts_for_exactly_one_period():
    window = Window(limit=2, period=DAY)
    charge = Charge(START, 2)
    assert window.counts(charge, START + DAY - 0.001)
    assert not window.counts(charge, START + DAY)


def test_no_burst_across_midnight():
    window = Window(limit=2000, period=DAY)
    midnight = START - START % DAY + DAY
    charges = [Charge(midnight - 60, 2000)]
    assert not window.fits(charges, 1, midnight + 60)
    assert window.fits(charges, 2000, midnight - 60 + DAY)


def test_retry_after_waits_for_the_oldest_charges_that_make_room():
    window = Window(limit=10, period=DAY)
    charges = [Charge(START, 6), Charge(START + 5 * 3600, 4)]
    now = START + 6 * 3600
    assert window.retry_after(charges, 5, now) == int(START + DAY - now) + 1
    assert window.retry_after(charges, 11, now) == DAY  # never fits: the whole period


def test_the_ceiling_leaves_room_for_what_was_used_and_what_is_asked():
    window = Window(limit=10, period=DAY)
    charges = [Charge(START - DAY - 1, 7), Charge(START - 10, 3)]  # the first left the period
    assert window.ceiling(total_read=10, charges=charges, amount=4, now=START) == 10 + 10 - 3 - 4


def test_a_charge_is_forgotten_only_a_while_after_it_stopped_counting():
    window = Window(limit=1, period=900)
    charge = Charge(START, 1)
    assert not window.forgettable(charge, START + 900)
    assert window.forgettable(charge, START + 900 + FORGET_AFTER_SECONDS)


# --- properties -------------------------------------------------------------------------------------

limits = st.integers(min_value=1, max_value=50)
periods = st.sampled_from([60.0, 900.0, 3600.0, DAY])
amounts = st.integers(min_value=1, max_value=20)


@st.composite
def histories(draw):
    """A window and charges at non-decreasing times (seconds after START)."""
    window = Window(draw(limits), draw(periods))
    gaps = draw(st.lists(st.floats(min_value=0, max_value=window.period, allow_nan=False), max_size=30))
    times, at = [], START
    for gap in gaps:
        at += gap
        times.append(at)
    return window, [(at, draw(amounts)) for at in times]


@given(histories())
def test_charging_only_what_fits_never_passes_the_limit_in_any_window(history):
    window, asks = history
    taken = []
    for at, amount in asks:
        if window.fits(taken, amount, at):
            taken.append(Charge(at, amount))
    for end in [charge.at for charge in taken]:  # any window ends at a charge, at its fullest
        assert window.used([charge for charge in taken if charge.at <= end], end) <= window.limit


@given(histories(), st.data())
def test_parallel_charges_of_one_read_never_lose_to_each_other(history, data):
    # Every racer read the same log (total and charges), then their conditional writes land in any
    # order: a write holds exactly when its charge fits what the log holds by then.
    window, asks = history
    now = asks[-1][0] if asks else START
    log = [Charge(at, amount) for at, amount in asks if window.fits([], amount, at)][-3:]
    total_read = sum(charge.amount for charge in log) + data.draw(st.integers(0, 1000))  # units long gone
    racers = data.draw(st.lists(amounts, min_size=1, max_size=12))
    order = data.draw(st.permutations(range(len(racers))))
    ceilings = [window.ceiling(total_read, log, amount, now) for amount in racers]
    total, current = total_read, list(log)
    for racer in order:
        amount = racers[racer]
        held = total <= ceilings[racer]
        assert held == window.fits(current, amount, now)
        if held:
            total += amount
            current.append(Charge(now, amount))
    assert window.used(current, now) <= max(window.limit, window.used(log, now))


@given(histories(), amounts)
def test_retry_after_is_the_first_moment_the_amount_fits(history, amount):
    window, asks = history
    charges = [Charge(at, spent) for at, spent in asks]
    now = asks[-1][0] if asks else START
    if window.fits(charges, amount, now) or amount > window.limit:
        return
    wait = window.retry_after(charges, amount, now)
    assert window.fits(charges, amount, now + wait)
    assert not window.fits(charges, amount, now + wait - 1.001)


@given(histories())
def test_a_forgettable_charge_counts_for_nobody_whose_clock_is_a_little_behind(history):
    window, asks = history
    now = asks[-1][0] + window.period + FORGET_AFTER_SECONDS if asks else START
    for at, amount in asks:
        charge = Charge(at, amount)
        if window.forgettable(charge, now):
            assert not window.counts(charge, now - FORGET_AFTER_SECONDS)
