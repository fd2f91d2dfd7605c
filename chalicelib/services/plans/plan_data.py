"""A person's plans in their data export, and gone with their account: the plans they own (whole), and their
membership and votes in other people's plans. Found by the ``by_user`` index's ``PLANS#<id>`` partition."""

from __future__ import annotations

from chalicelib.parallel import parallel_map
from chalicelib.services.plans.plans import plan_json
from chalicelib.store import plans as plan_store


def exported(user_id: int) -> dict:
    """``plans_owned`` (with each invitee's number and votes) and ``plans_invited`` (with the person's votes)."""
    owned, invited = plan_store.plan_ids_of(user_id)
    views = parallel_map(plan_store.load_plan, owned + invited)
    found = [view for view in views if view is not None]
    return {
        "plans_owned": [plan_json(view, user_id) for view in found if view.plan.owner_id == user_id],
        "plans_invited": [plan_json(view, user_id) for view in found if view.member(user_id) is not None],
    }


def forget(user_id: int) -> None:
    """The plans ``user_id`` owns, every item of them; their votes in the others; their count of open plans."""
    owned, invited = plan_store.plan_ids_of(user_id)
    views = [view for view in parallel_map(plan_store.load_plan, owned) if view is not None]
    parallel_map(plan_store.delete_plan, views)
    parallel_map(lambda plan_id: plan_store.forget_member(plan_id, user_id), invited)
    plan_store.forget_open_count(user_id)
