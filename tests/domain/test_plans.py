"""The rules of plans without storage: options as sent, votes checked against them, tallies and who may act."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chalicelib.domain import plans
from chalicelib.domain.plans import PlanAction, PlanRole
from chalicelib.errors import NotFound, PermissionDenied

BALLOT = st.dictionaries(st.sampled_from(["1", "2", "3"]), st.sampled_from(plans.CHOICES), max_size=3)


def test_options_keep_their_order_and_get_ids_by_position():
    options, problems = plans.parse_options(
        ["2030-06-05T18:00:00+02:00", {"starts_at": "2030-06-06T18:00:00Z", "label": "  Rooftop "}]
    )
    assert problems is None
    assert [(o.id, o.starts_at, o.label) for o in options] == [
        (1, datetime(2030, 6, 5, 16, tzinfo=UTC), ""),
        (2, datetime(2030, 6, 6, 18, tzinfo=UTC), "Rooftop"),
    ]


@pytest.mark.parametrize(
    ("sent", "problems"),
    [
        ("2030-06-05T18:00:00Z", ['Expected a list of items but got type "str".']),
        ([f"2030-06-{day:02d}T18:00:00Z" for day in range(1, 12)], ["Offer between 2 and 10 dates."]),
        (
            ["2030-06-05T18:00:00Z", {"starts_at": "2030-06-06T18:00:00Z", "colour": "red"}],
            {"1": {"colour": ["Unknown field."]}},
        ),
        (
            ["2030-06-05T18:00:00Z", {"starts_at": "2030-06-06T18:00:00Z", "label": "x" * 61}],
            {"1": {"label": ["Ensure this field has no more than 60 characters."]}},
        ),
        (
            [
                {"starts_at": "2030-06-05T18:00:00Z", "label": "\u05d1\u05d9\u05ea"},
                {"starts_at": "2030-06-06T18:00:00Z", "label": " \u05d1\u05d9\u05ea "},
            ],
            {"1": {"label": ["This label is used twice."]}},
        ),  # fmt: skip
        (["2030-06-05T18:00:00Z", "2030-06-05T20:00:00+02:00"], {"1": {"starts_at": ["This date is offered twice."]}}),
    ],
)
def test_bad_options_are_named_by_position(sent, problems):
    assert plans.parse_options(sent)[1] == problems


def test_votes_are_checked_against_the_plans_options():
    assert plans.check_votes({"1": "yes", "2": "no"}, {1, 2}) == ({"1": "yes", "2": "no"}, None)
    assert plans.check_votes({"01": "yes"}, {1, 2}) == ({"1": "yes"}, None)
    assert plans.check_votes({}, {1})[1] == {"non_field_errors": ["Vote on at least one option."]}
    assert plans.check_votes({"3": "yes", "1": "sure"}, {1, 2})[1] == {
        "3": ["Not an option of this plan."],
        "1": ['"sure" is not a valid choice.'],
    }


@given(st.lists(BALLOT, max_size=30))
def test_each_tally_counts_exactly_the_ballots_that_chose_it(ballots):
    counted = plans.tallies([1, 2, 3], ballots)
    for option in (1, 2, 3):
        for choice in plans.CHOICES:
            assert counted[option][choice] == sum(ballot.get(str(option)) == choice for ballot in ballots)
        assert sum(counted[option].values()) == sum(str(option) in ballot for ballot in ballots)


def test_voting_closes_when_decided_or_at_the_deadline():
    now = datetime(2030, 1, 1, tzinfo=UTC)
    assert not plans.voting_closed(False, None, now)
    assert not plans.voting_closed(False, now + timedelta(seconds=1), now)
    assert plans.voting_closed(False, now, now)
    assert plans.voting_closed(True, None, now)


@pytest.mark.parametrize("action", list(PlanAction))
@pytest.mark.parametrize("role", list(PlanRole))
def test_a_stranger_is_answered_404_and_someone_in_the_plan_403(action, role):
    if role in plans.PLAN_PERMITTED[action]:
        plans.require(role, action)
        return
    expected = NotFound if role == PlanRole.STRANGER else PermissionDenied
    with pytest.raises(expected):
        plans.require(role, action)
    assert PlanRole.STRANGER not in plans.PLAN_PERMITTED[action]


def test_a_body_of_more_votes_than_any_plan_has_options_is_one_short_error():
    sent = {str(n): "maybe" for n in range(10_000)}
    assert plans.check_votes(sent, {1, 2}) == (
        {},
        {"non_field_errors": ["Ensure this field has no more than 10 elements."]},
    )
