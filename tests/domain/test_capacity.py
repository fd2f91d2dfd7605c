"""The capacity rules: spots left under a total and the service's cap, party fit, kept extra guests."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from chalicelib.domain import capacity

CAP = 1000


def test_an_event_without_a_total_is_bounded_by_the_cap():
    assert capacity.ceiling(0, CAP) == CAP and capacity.ceiling(None, CAP) == CAP
    assert capacity.ceiling(5, CAP) == 5 and capacity.ceiling(5000, CAP) == CAP


def test_spots_left_and_fit():
    assert capacity.spots_left(4, 1, CAP) == 3
    assert capacity.fits(3, 4, 1, CAP) and not capacity.fits(4, 4, 1, CAP)
    assert capacity.spots_left(4, 4, CAP) == 0


def test_a_party_bigger_than_the_total_never_fits_even_when_empty():
    assert capacity.party_size(5) == 6
    assert not capacity.could_ever_fit(6, 3, CAP)
    assert capacity.could_ever_fit(3, 3, CAP) and capacity.could_ever_fit(6, 0, CAP)


def test_a_reply_without_a_number_keeps_the_one_held():
    assert capacity.extra_guests_kept(None, 3) == (3, False)  # not checked against a lowered maximum
    assert capacity.extra_guests_kept(None, None) == (0, False)
    assert capacity.extra_guests_kept(1, 3) == (1, True)


@given(st.integers(0, 50), st.integers(0, 50), st.integers(1, 60))
def test_what_fits_never_goes_past_the_ceiling(total, filled, spots):
    if total and filled > total:
        return  # never stored: a total is never lowered below the spots filled
    if capacity.fits(spots, total, filled, CAP):
        assert filled + spots <= capacity.ceiling(total, CAP)
        assert capacity.could_ever_fit(spots, total, CAP)
