"""How many people an event holds and whether a party fits: pure arithmetic over the numbers read.

A party is the guest plus the people they bring (``1 + extra_guests``). An event with ``total_spots``
0 has no total of its own; the service's cap (``max_spots_filled``) bounds it either way.
"""

from __future__ import annotations


def party_size(extra_guests: int | None) -> int:
    """The spots a guest's acceptance takes."""
    return 1 + int(extra_guests or 0)


def ceiling(total_spots: int | None, max_spots_filled: int) -> int:
    """The most spots that can be filled: the event's total, never above the service's cap."""
    total = int(total_spots or 0)
    return min(total, max_spots_filled) if total else max_spots_filled


def spots_left(total_spots: int | None, spots_filled: int | None, max_spots_filled: int) -> int:
    """Spots still open, never below 0."""
    return max(0, ceiling(total_spots, max_spots_filled) - int(spots_filled or 0))


def fits(spots: int, total_spots: int | None, spots_filled: int | None, max_spots_filled: int) -> bool:
    """Whether ``spots`` more fit now."""
    return spots <= spots_left(total_spots, spots_filled, max_spots_filled)


def could_ever_fit(spots: int, total_spots: int | None, max_spots_filled: int) -> bool:
    """Whether a party of ``spots`` fits the event at all, were every spot free. A party that never can
    is refused rather than put in line, where it would block everyone behind it."""
    return spots <= ceiling(total_spots, max_spots_filled)


def extra_guests_kept(wanted: int | None, held: int | None) -> tuple[int, bool]:
    """The people a reply brings, and whether that number is to be checked against the maximum.

    A number sent must fit the event's current maximum. A reply that sends none keeps the number already
    given (``held``, None when the guest holds no place), whatever the maximum became since; a guest
    holding nothing brings nobody."""
    if wanted is not None:
        return int(wanted), True
    return int(held or 0), False
