"""The waitlist rules: places in line, who is seated when spots open, what an edit does to the line;
plain cases and a stateful property test over arrivals, declines, spot changes and maximum changes."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from chalicelib.domain import capacity
from chalicelib.domain import waitlist as line_rules

CAP = 1000


@dataclass(frozen=True)
class Party:
    user_id: int
    extra_guests: int
    wait_key: str


def party(n: int, extra: int = 0) -> Party:
    return Party(n, extra, f"WAIT#{n:06d}#{n}")


def test_places_follow_arrival_not_the_order_given():
    keys = ["WAIT#000003#3", None, "WAIT#000001#1", "WAIT#000002#2"]
    assert line_rules.positions(keys) == {"WAIT#000001#1": 1, "WAIT#000002#2": 2, "WAIT#000003#3": 3}


def test_places_by_user_skip_those_not_waiting():
    seated = Party(9, 0, "")
    assert line_rules.places_by_user([party(2), seated, party(1)]) == {1: 1, 2: 2}


def test_the_head_is_never_passed_over():
    line = [party(1, 2), party(2), party(3)]
    assert line_rules.to_seat(line, 2) == []  # the party of 3 blocks the smaller ones behind it
    assert line_rules.to_seat(line, 4) == [party(1, 2), party(2)]


def test_an_edit_removes_parties_that_never_fit_and_cuts_the_rest_to_the_maximum():
    line = [party(1, 5), party(2, 3), party(3, 1)]
    change = line_rules.after_edit(line, ceiling=2, max_extra_guests=3)
    assert change.leaving == [party(1, 5), party(2, 3)]
    assert change.cut == {}
    change = line_rules.after_edit(line, ceiling=10, max_extra_guests=1)
    assert change.leaving == [] and change.cut == {party(1).wait_key: 1, party(2).wait_key: 1}


class EventLine(RuleBasedStateMachine):
    """An event with seated parties and a line, moved the way the service moves it: an accept seats a
    party that fits when nobody waits, else it joins the line (never when it can never fit); after each
    change the head is seated while it fits."""

    def __init__(self):
        super().__init__()
        self.total, self.max_extra = 4, 3
        self.seated: dict[int, int] = {}  # user id: extra guests
        self.line: list[Party] = []
        self.arrivals = 0
        self.arrived: list[int] = []  # users in the order they joined the line

    def filled(self) -> int:
        return sum(capacity.party_size(extra) for extra in self.seated.values())

    def promote(self) -> None:
        free = capacity.spots_left(self.total, self.filled(), CAP)
        for seated in line_rules.to_seat(line_rules.in_order(self.line), free):
            self.line.remove(seated)
            self.seated[seated.user_id] = seated.extra_guests

    @rule(extra=st.integers(0, 10))
    def arrive(self, extra):
        self.arrivals += 1
        extra = min(extra, self.max_extra)
        spots = capacity.party_size(extra)
        if not capacity.could_ever_fit(spots, self.total, CAP):
            return  # 409: never in line
        if not self.line and capacity.fits(spots, self.total, self.filled(), CAP):
            self.seated[self.arrivals] = extra
        else:
            self.line.append(Party(self.arrivals, extra, f"WAIT#{self.arrivals:06d}#{self.arrivals}"))
            self.arrived.append(self.arrivals)
        self.promote()

    @precondition(lambda self: self.seated)
    @rule(data=st.data())
    def seated_declines(self, data):
        del self.seated[data.draw(st.sampled_from(sorted(self.seated)))]
        self.promote()

    @precondition(lambda self: self.line)
    @rule(data=st.data())
    def waiting_declines(self, data):
        self.line.remove(data.draw(st.sampled_from(self.line)))
        self.promote()

    @rule(total=st.integers(1, 12))
    def owner_changes_total(self, total):
        if total < self.filled():
            return  # 400: a total is never lowered below the spots filled
        self.total = total
        self.edit_line()

    @rule(most=st.integers(0, 10))
    def owner_changes_max_extra_guests(self, most):
        self.max_extra = most
        self.edit_line()

    def edit_line(self) -> None:
        change = line_rules.after_edit(
            line_rules.in_order(self.line), ceiling=capacity.ceiling(self.total, CAP), max_extra_guests=self.max_extra
        )
        self.line = [
            Party(p.user_id, change.cut.get(p.wait_key, p.extra_guests), p.wait_key)
            for p in self.line
            if p not in change.leaving
        ]
        self.promote()

    @invariant()
    def never_over_capacity(self):
        assert self.filled() <= capacity.ceiling(self.total, CAP)

    @invariant()
    def arrival_order_kept(self):
        waiting = [p.user_id for p in line_rules.in_order(self.line)]
        assert waiting == [uid for uid in self.arrived if uid in set(waiting)]
        places = line_rules.places_by_user(self.line)
        assert [places[uid] for uid in waiting] == list(range(1, len(waiting) + 1))

    @invariant()
    def no_fitting_head_waits_while_spots_are_free(self):
        if self.line:
            head = line_rules.in_order(self.line)[0]
            assert not capacity.fits(line_rules.spots_of(head), self.total, self.filled(), CAP)

    @invariant()
    def nobody_in_line_is_bigger_than_the_event(self):
        assert all(capacity.could_ever_fit(line_rules.spots_of(p), self.total, CAP) for p in self.line)

    @invariant()
    def nobody_waits_above_the_maximum(self):
        assert all(p.extra_guests <= self.max_extra for p in self.line)


TestEventLine = EventLine.TestCase
TestEventLine.settings = settings(max_examples=60, stateful_step_count=30, deadline=None)
