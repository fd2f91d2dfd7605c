"""The order of an event's waitlist: who is seated when spots open, each party's place in line, and
what a change of the event does to the line. Pure: the caller reads the line and writes the outcome.

The line is ordered by wait key (``WAIT#<arrival>#<user id>``), so arrival order is key order. Parties
are seated from the head while they fit; the first that does not fit stops the promotion, so nobody
is ever passed over. A party bigger than the whole event never stays in line.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar


class Party(Protocol):
    @property
    def wait_key(self) -> str: ...

    @property
    def extra_guests(self) -> int: ...


P = TypeVar("P", bound=Party)


def spots_of(party: Party) -> int:
    return 1 + int(party.extra_guests or 0)


def in_order(parties: Iterable[P]) -> list[P]:
    """The parties by arrival (their wait keys)."""
    return sorted(parties, key=lambda party: party.wait_key)


def positions(wait_keys: Iterable[str | None]) -> dict[str, int]:
    """{wait key: place in line (1 = next)} of the keys given (the whole line; None for those not waiting).
    A single party's place is the number of keys at or before its own, which the store counts with one
    COUNT Query instead of reading the line."""
    return {key: place for place, key in enumerate(sorted(key for key in wait_keys if key), start=1)}


def places_by_user(invitations: Iterable) -> dict[int, int]:
    """{user id: place in line} of the waiting guests among an event's ``invitations`` (each with
    ``user_id`` and ``wait_key``)."""
    listed = list(invitations)
    places = positions(inv.wait_key for inv in listed)
    return {inv.user_id: places[inv.wait_key] for inv in listed if inv.wait_key}


def to_seat(line: Sequence[P], free_spots: int) -> list[P]:
    """The parties at the head of ``line`` (in order) that fit ``free_spots``, stopping at the first that
    does not: those behind it wait even if they are smaller."""
    chosen: list[P] = []
    for party in line:
        if spots_of(party) > free_spots:
            break
        chosen.append(party)
        free_spots -= spots_of(party)
    return chosen


@dataclass(frozen=True)
class LineChange:
    """What an edit of the event does to the line: parties leaving it (they can never fit) and parties cut
    to the new maximum of extra guests ({wait key: new extra guests})."""

    leaving: list
    cut: dict[str, int]


def after_edit(line: Sequence[Party], *, ceiling: int, max_extra_guests: int) -> LineChange:
    """Parties bigger than the event's ``ceiling`` leave the line; waiting parties above
    ``max_extra_guests`` are cut to it (first, so a party that fits once cut stays)."""
    leaving, cut = [], {}
    for party in line:
        extra = min(int(party.extra_guests or 0), max_extra_guests)
        if 1 + extra > ceiling:
            leaving.append(party)
        elif extra != int(party.extra_guests or 0):
            cut[party.wait_key] = extra
    return LineChange(leaving, cut)
