"""What one person may see of an event: every role against every setting of guest_list and place_visibility."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from chalicelib.domain.visibility import seen_by

OWNER_ID, COHOST_ID, GUEST_ID, OTHER_ID = 1, 2, 3, 4


def _event(guest_list="everyone", place_visibility="everyone"):
    return SimpleNamespace(guest_list=guest_list, place_visibility=place_visibility)


def _invitation(user_id, role="guest", cohost=None, has_accepted=None):
    return SimpleNamespace(user_id=user_id, role=role, cohost=cohost, has_accepted=has_accepted)


OWNER = _invitation(OWNER_ID, role="owner")
COHOST = _invitation(COHOST_ID, cohost=True)
GUEST = _invitation(GUEST_ID)
OTHER = _invitation(OTHER_ID, has_accepted=True)
ROWS = [OWNER, COHOST, GUEST, OTHER]


def test_an_event_stored_before_the_settings_shows_everything_to_a_guest():
    sight = seen_by(SimpleNamespace(), GUEST)  # no guest_list, no place_visibility attribute held
    assert (sight.whole_list, sight.counts, sight.place) == (True, True, True)
    assert sight.rows(ROWS) == ROWS


@pytest.mark.parametrize("viewer", [OWNER, COHOST])
@pytest.mark.parametrize("guest_list", ["everyone", "count_only", "hosts_only"])
def test_a_host_sees_everything_whatever_the_settings(viewer, guest_list):
    sight = seen_by(_event(guest_list, "accepted"), viewer)
    assert (sight.whole_list, sight.counts, sight.place) == (True, True, True)
    assert sight.rows(ROWS) == ROWS
    assert sight.waitlist_position(OTHER, {OTHER_ID: 2}) == 2


@pytest.mark.parametrize(
    ("guest_list", "rows", "counts"),
    [
        ("everyone", ROWS, True),
        ("count_only", [OWNER, COHOST, GUEST], True),
        ("hosts_only", [OWNER, COHOST, GUEST], False),
    ],
)
def test_a_guest_sees_the_hosts_and_themself_as_the_guest_list_says(guest_list, rows, counts):
    sight = seen_by(_event(guest_list), GUEST)
    assert sight.rows(ROWS) == rows
    assert sight.counts is counts
    assert sight.waitlist_position(GUEST, {GUEST_ID: 3}) == 3  # their own place, always
    assert sight.waitlist_position(OTHER, {OTHER_ID: 2}) == (2 if counts else None)


@pytest.mark.parametrize(
    ("has_accepted", "place"),
    [(None, False), (False, False), (True, True)],
)
def test_a_guest_sees_an_accepted_only_place_once_they_accept(has_accepted, place):
    viewer = _invitation(GUEST_ID, has_accepted=has_accepted)
    assert seen_by(_event(place_visibility="accepted"), viewer).place is place
    assert seen_by(_event(place_visibility="everyone"), viewer).place is True


def test_someone_outside_the_event_sees_the_place_only_when_everyone_may():
    assert seen_by(_event(place_visibility="accepted"), None).place is False
    assert seen_by(_event(place_visibility="everyone"), None).place is True
    assert seen_by(_event("hosts_only"), None).rows(ROWS) == [OWNER, COHOST]
