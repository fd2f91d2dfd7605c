"""Plan items read as PynamoDB reads them (the table's fast reading, chalicelib/models/base.py), votes included."""

from __future__ import annotations

import copy
from datetime import UTC, datetime

from chalicelib.domain.plans import Option
from chalicelib.models.events import EventsTable
from chalicelib.models.plans import plan_pk
from chalicelib.services.plans import plans
from tests.models.test_base import _state, pynamodb_reading
from tests.utils.factories import make_person


def test_a_plan_its_members_and_their_votes_read_as_pynamodb_reads_them(aws):
    owner, friend = make_person("Owner"), make_person("Friend")
    data = plans.PlanInput(
        "Dinner",
        "UTC",
        [Option(1, datetime(2030, 6, 5, 18, tzinfo=UTC)), Option(2, datetime(2030, 6, 6, 18, tzinfo=UTC), "Late")],
        [friend.phone],
    )
    plan_id = plans.create_plan(owner.user, data).view.plan.id
    plans.vote(friend.id, plan_id, {"2": "if_need_be"})
    raws = [item.serialize() for item in EventsTable.query(plan_pk(plan_id))]
    assert {raw["kind"]["S"] for raw in raws} == {"plan", "plan_member"}
    for raw in raws:
        assert _state(EventsTable.from_raw_data(copy.deepcopy(raw))) == _state(pynamodb_reading(EventsTable, raw))
