"""Plans' partitions (chalicelib/models/plans.py): saving a new plan within the owner's open plans, reading
one whole, votes written under the plan's status, deciding once, and what an account's deletion removes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from chalicelib.models.base import transact_write
from chalicelib.models.events import META_SK, EventsTable
from chalicelib.models.plans import (
    DECIDED,
    OPEN,
    Plan,
    PlanMember,
    PlanTally,
    member_sk,
    open_plans_pk,
    plan_id_of,
    plan_pk,
    plans_of_user_pk,
)
from chalicelib.parallel import chunks, parallel_map
from chalicelib.store import Refused, refusals
from chalicelib.store.batch import batch_write, index_keys
from chalicelib.store.events import TRANSACTION_ITEMS
from chalicelib.timeutil import format_datetime


@dataclass
class PlanView:
    plan: Plan
    members: list[PlanMember]  # in the order invited

    def member(self, user_id: int) -> PlanMember | None:
        return next((member for member in self.members if member.user_id == user_id), None)


def ballot(member: PlanMember | None) -> dict[str, str]:
    """A member's votes as a plain dict (``{}`` for none)."""
    votes = member.votes if member is not None else None
    if votes is None:
        return {}
    return votes.as_dict() if hasattr(votes, "as_dict") else dict(votes)


def _date_key(now: datetime, plan_id: int) -> str:
    return f"{format_datetime(now)}#{plan_id:016d}"


def new_plan(plan_id: int, owner_id: int, fields: dict, *, event_id: int, now: datetime) -> Plan:
    return Plan(
        plan_pk(plan_id),
        META_SK,
        id=plan_id,
        owner_id=owner_id,
        event_id=event_id,
        user_pk=plans_of_user_pk(owner_id),
        date_key=_date_key(now, plan_id),
        created=now,
        modified=now,
        **fields,
    )


def new_member(plan: Plan, user_id: int, phone_number: str, now: datetime) -> PlanMember:
    return PlanMember(
        plan.pk,
        member_sk(user_id),
        plan_id=plan.id,
        user_id=user_id,
        owner_id=plan.owner_id,
        phone_number=phone_number,
        votes={},
        user_pk=plans_of_user_pk(user_id),
        date_key=_date_key(now, plan.id),
        created=now,
    )


class TooManyOpenPlans(Exception):
    """The owner already has the most open plans allowed."""


def save_new_plan(plan: Plan, members: list[PlanMember], *, most_open: int) -> bool:
    """The plan, the owner's open plans counted up (refused at ``most_open``: TooManyOpenPlans) and the first
    98 members in one transaction (False on an id clash); the rest (at most 2 more) in a second one."""
    first = members[: TRANSACTION_ITEMS - 2]
    tally = PlanTally(open_plans_pk(plan.owner_id), META_SK)
    try:
        with refusals(), transact_write() as transaction:
            transaction.save(plan, condition=Plan.pk.does_not_exist())
            transaction.update(
                tally,
                [PlanTally.open_count.add(1)],
                condition=PlanTally.open_count.does_not_exist() | (PlanTally.open_count < most_open),
            )
            for member in first:
                transaction.save(member)
    except Refused as refused:
        if refused.item_failed(0):
            return False
        if refused.item_failed(1 + len(first)):  # PynamoDB sends the puts first, then the updates
            raise TooManyOpenPlans() from None
        raise
    for rest in chunks(members[len(first) :], TRANSACTION_ITEMS):
        with transact_write() as transaction:
            for member in rest:
                transaction.save(member)
    return True


def load_plan(plan_id: int) -> PlanView | None:
    """The plan and its members in one Query (a plan of 100 invitees is one page)."""
    plan, members = None, []
    for item in EventsTable.query(plan_pk(plan_id), consistent_read=True):
        if isinstance(item, Plan):
            plan = item
        elif isinstance(item, PlanMember):
            members.append(item)
    if plan is None:
        return None
    members.sort(key=lambda member: (member.date_key, member.user_id))
    return PlanView(plan, members)


class VotingClosed(Exception):
    """The plan was decided meanwhile."""


def save_votes(plan: Plan, member: PlanMember, votes: dict[str, str], now: datetime) -> None:
    """Set the member's vote on each option of ``votes`` (the others stay), while the plan is open: one
    transaction, so a vote never lands after the decision (VotingClosed). Each option is its own attribute
    of the member's map: parallel votes of one person on other options all stay."""
    actions = [PlanMember.votes[key].set(choice) for key, choice in votes.items()]
    actions.append(PlanMember.voted_at.set(now))
    try:
        with refusals(), transact_write() as transaction:
            transaction.condition_check(Plan, plan.pk, META_SK, condition=Plan.status == OPEN)
            transaction.update(member, actions, condition=PlanMember.pk.exists())
    except Refused as refused:
        if refused.item_failed(0):
            raise VotingClosed() from None
        raise


def mark_decided(plan: Plan, option_id: int, now: datetime) -> bool:
    """The plan decided for ``option_id`` and the owner's open plans counted down, once: False when it was
    already decided."""
    tally = PlanTally(open_plans_pk(plan.owner_id), META_SK)
    try:
        with refusals(), transact_write() as transaction:
            transaction.update(
                plan,
                [Plan.status.set(DECIDED), Plan.decided_option.set(option_id), Plan.modified.set(now)],
                condition=Plan.status == OPEN,
            )
            transaction.update(tally, [PlanTally.open_count.add(-1)], condition=PlanTally.open_count > 0)
    except Refused as refused:
        if refused.item_failed(0):
            return False
        raise
    plan.status, plan.decided_option = DECIDED, option_id
    return True


def save_marks(marks: list) -> None:
    """The numbers new to the owner (store.users.invited_marks), after the plan: they count as invited."""
    if marks:
        batch_write(marks, written=set())


def keep_event_links(view: PlanView, sealed: dict[int, str]) -> None:
    """Each texted member's sealed guest link of the decided event (services/plans/plan_links.py)."""
    members = [member for member in view.members if member.user_id in sealed]
    for chunk in chunks(members, TRANSACTION_ITEMS):
        with transact_write() as transaction:
            for member in chunk:
                member.event_link_sealed = sealed[member.user_id]
                transaction.update(member, [PlanMember.event_link_sealed.set(sealed[member.user_id])])


# --------------------------------------------------------------------------- an account's plans


def plan_ids_of(user_id: int) -> tuple[list[int], list[int]]:
    """The plans ``user_id`` owns and those they are invited to, by the ``by_user`` index (two lists of ids)."""
    owned, invited = [], []
    for keys in index_keys(EventsTable, "by_user", plans_of_user_pk(user_id)):
        target = owned if keys.get("sk") == META_SK else invited
        target.append(plan_id_of(keys["pk"]))
    return owned, invited


def delete_plan(view: PlanView) -> None:
    """Every item of the plan, and the owner's count of open plans when it was open."""
    items: list = [view.plan, *view.members]
    parallel_map(_delete_all, list(chunks(items, TRANSACTION_ITEMS)))
    if view.plan.status == OPEN:
        tally = PlanTally(open_plans_pk(view.plan.owner_id), META_SK)
        try:
            with refusals():
                tally.update([PlanTally.open_count.add(-1)], condition=PlanTally.open_count > 0)
        except Refused:
            pass  # counted down already


def _delete_all(items: list) -> None:
    with transact_write() as transaction:
        for item in items:
            transaction.delete(item)


def forget_member(plan_id: int, user_id: int) -> None:
    """An invitee's membership and votes gone (their account's deletion)."""
    PlanMember(plan_pk(plan_id), member_sk(user_id)).delete()


def forget_open_count(owner_id: int) -> None:
    PlanTally(open_plans_pk(owner_id), META_SK).delete()
