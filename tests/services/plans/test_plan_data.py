"""A person's plans go with their account and into their data export."""

from __future__ import annotations

from datetime import UTC, datetime

from chalicelib.domain.plans import Option
from chalicelib.models.events import EventsTable
from chalicelib.models.plans import plan_pk
from chalicelib.services.account import data_export
from chalicelib.services.plans import plans
from chalicelib.store import account_deletion as deletion_store
from chalicelib.store import plans as plan_store
from tests.services.account.test_account_deletion import _run
from tests.utils.factories import make_person


def _plan(owner, *invitees) -> int:
    data = plans.PlanInput(
        title="Dinner",
        time_zone="UTC",
        options=[Option(1, datetime(2030, 6, 5, 18, tzinfo=UTC)), Option(2, datetime(2030, 6, 6, 18, tzinfo=UTC))],
        invite_phone_numbers=[person.phone for person in invitees],
    )
    return plans.create_plan(owner.user, data).view.plan.id


def _items_of(plan_id: int) -> list:
    return list(EventsTable.query(plan_pk(plan_id), consistent_read=True))


def test_an_owners_deletion_takes_their_plans_and_an_invitees_takes_their_votes(aws):
    owner, friend, other = make_person("Owner"), make_person("Friend"), make_person("Other")
    owned = _plan(owner, friend, other)
    theirs = _plan(other, owner, friend)
    plans.vote(friend.id, owned, {"1": "yes"})
    plans.vote(owner.id, theirs, {"2": "no"})
    plans.vote(friend.id, theirs, {"2": "yes"})
    deletion_store.close_account(owner.user)
    _run(owner.id)
    assert _items_of(owned) == []
    view = plan_store.load_plan(theirs)
    assert view.member(owner.id) is None  # their votes went with them
    assert plans.tallies_of(view)[2] == {"yes": 1, "if_need_be": 0, "no": 0}
    assert plan_store.plan_ids_of(owner.id) == ([], [])


def test_the_export_holds_the_plans_owned_and_the_votes_given(aws):
    owner, friend = make_person("Owner"), make_person("Friend")
    owned = _plan(owner, friend)
    theirs = _plan(friend, owner)
    plans.vote(owner.id, theirs, {"1": "if_need_be"})
    exported = data_export.collect(owner.user, datetime.now(UTC))
    [mine] = exported["plans_owned"]
    assert mine["id"] == owned and mine["votes"][0]["phone_number"] == friend.phone
    [invited] = exported["plans_invited"]
    assert invited["id"] == theirs and invited["my_votes"] == {"1": "if_need_be"}
