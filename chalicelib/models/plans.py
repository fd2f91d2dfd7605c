"""Plans (a date chosen together before the event exists): items of the events table, a partition each.

| item        | pk                  | sk                |
|-------------|---------------------|-------------------|
| Plan        | PLAN#<id>           | META              |
| PlanMember  | PLAN#<id>           | MEMBER#<user id>  |
| PlanTally   | PLANS_OPEN#<owner>  | META              |

One Query of ``PLAN#<id>`` reads a plan with every invitee and their votes (at most 100 invitees, so one page).
The plan and each member carry ``user_pk`` = ``PLANS#<user id>`` and ``date_key`` for the ``by_user`` index:
a person's plans (as owner or invitee) for the account's deletion and export, in a partition of the index
no event query reads. ``PlanTally`` counts the owner's open plans (at most 10, a conditional write).
"""

from __future__ import annotations

from pynamodb.attributes import JSONAttribute, MapAttribute, NumberAttribute, UnicodeAttribute, UTCDateTimeAttribute

from chalicelib.models.events import META_SK, EventsTable

PLAN_PREFIX = "PLAN#"
MEMBER_PREFIX = "MEMBER#"
PLANS_OF_USER_PREFIX = "PLANS#"
OPEN_PLANS_PREFIX = "PLANS_OPEN#"
OPEN, DECIDED = "open", "decided"  # Plan.status


def plan_pk(plan_id: int) -> str:
    return f"{PLAN_PREFIX}{plan_id}"


def plan_id_of(pk: str) -> int:
    return int(pk.removeprefix(PLAN_PREFIX))


def member_sk(user_id: int) -> str:
    return f"{MEMBER_PREFIX}{user_id}"


def plans_of_user_pk(user_id: int) -> str:
    """The ``by_user`` partition of a person's plans (never ``USER#``: event lists never meet a plan)."""
    return f"{PLANS_OF_USER_PREFIX}{user_id}"


def open_plans_pk(owner_id: int) -> str:
    return f"{OPEN_PLANS_PREFIX}{owner_id}"


class Plan(EventsTable, discriminator="plan"):
    id = NumberAttribute()
    owner_id = NumberAttribute()
    title = UnicodeAttribute()
    time_zone = UnicodeAttribute()
    options = JSONAttribute()  # [{"id", "starts_at", "label"}] in the order sent
    vote_deadline = UTCDateTimeAttribute(null=True)
    status = UnicodeAttribute(default=OPEN)
    event_id = NumberAttribute()  # drawn with the plan: deciding creates the event under this id, once
    decided_option = NumberAttribute(null=True)
    invitee_count = NumberAttribute(default=0)
    link_hash = UnicodeAttribute(null=True)  # SHA-256 of the owner's own /p/ link code
    user_pk = UnicodeAttribute()  # the owner's PLANS#<id>
    date_key = UnicodeAttribute()
    created = UTCDateTimeAttribute()
    modified = UTCDateTimeAttribute()


class PlanMember(EventsTable, discriminator="plan_member"):
    """An invitee of a plan, with their votes: ``{"<option id>": "yes" | "if_need_be" | "no"}``."""

    plan_id = NumberAttribute()
    user_id = NumberAttribute()
    owner_id = NumberAttribute()
    phone_number = UnicodeAttribute()
    link_hash = UnicodeAttribute(null=True)  # SHA-256 of the /p/ link code texted to them
    # the code of their guest link of the decided event, sealed with their /p/ code (services/plans/plan_links.py)
    event_link_sealed = UnicodeAttribute(null=True)
    votes = MapAttribute(default=dict)
    voted_at = UTCDateTimeAttribute(null=True)
    user_pk = UnicodeAttribute()  # the invitee's PLANS#<id>
    date_key = UnicodeAttribute()
    created = UTCDateTimeAttribute()


class PlanTally(EventsTable, discriminator="plan_tally"):
    """The owner's open plans: counted up by a create, down by a decide or a deletion."""

    open_count = NumberAttribute(default=0)


__all__ = ["META_SK", "Plan", "PlanMember", "PlanTally"]
