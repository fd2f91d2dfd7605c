"""Plans: a date picked together, then the event made from it (openapi.yaml, tag "plans"). No chalice imports.

Creating a plan stores it with every invitee (made users by number, as an event's invitees are) within the
owner's open plans, then texts each reachable invitee their own ``/p/`` page. Votes are kept per invitee and
option, so parallel votes never overwrite one another and the tallies, counted from them on each read, are
exact. Deciding makes the event through ``services.events.create_event`` (every invite rule, quota, text
budget and the stop list) under the id the plan drew when it was made: a repeat or a parallel decide finds the
event there and makes no second one, nor a second text. Who may do what: ``domain.plans``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from chalicelib.domain import plans as rules
from chalicelib.domain.plans import Option, PlanAction, PlanRole
from chalicelib.errors import Conflict, NotFound, ValidationError
from chalicelib.ids import new_id
from chalicelib.models.plans import DECIDED
from chalicelib.retry import AttemptsSpent, TryAgain, retry
from chalicelib.services.hosting import events
from chalicelib.services.hosting.invitees import INVITE_FIELD, resolve_invitees
from chalicelib.services.participants import event_reads
from chalicelib.services.plans import plan_links
from chalicelib.services.plans.plan_texts import decided_text, send_plan_texts
from chalicelib.services.texts.invitation_texts import reachable
from chalicelib.store import events as event_store
from chalicelib.store import plans as plan_store
from chalicelib.store import users as user_store
from chalicelib.store.plans import PlanView, TooManyOpenPlans, VotingClosed, ballot
from chalicelib.timeutil import format_datetime, utcnow

log = logging.getLogger("invites")

CREATE_ATTEMPTS = 5
TOO_MANY_OPEN = f"You can have at most {rules.MAX_OPEN_PLANS} open plans. Decide one first."
TOO_MANY_INVITEES = f"A plan can have at most {rules.MAX_INVITEES} invitees."
NOBODY_INVITED = "Invite at least one number."
VOTING_CLOSED = "Voting on this plan is closed."
ALREADY_DECIDED = "This plan was already decided."
DEADLINE_PASSED = "The date must be in the future."
UNKNOWN_OPTION = "Not an option of this plan."


@dataclass
class PlanInput:
    title: str
    time_zone: str
    options: list[Option]
    invite_phone_numbers: list[str]
    vote_deadline: datetime | None = None


@dataclass
class CreatedPlan:
    view: PlanView
    url: str | None  # the owner's own page


def role_in(user_id: int, view: PlanView) -> PlanRole:
    if view.plan.owner_id == user_id:
        return PlanRole.OWNER
    return PlanRole.INVITEE if view.member(user_id) is not None else PlanRole.STRANGER


def options_of(view: PlanView) -> list[Option]:
    return [rules.option_of(stored) for stored in view.plan.options]


def voting_closed(view: PlanView, now: datetime) -> bool:
    return rules.voting_closed(view.plan.status == DECIDED, view.plan.vote_deadline, now)


# --------------------------------------------------------------------------- create


def create_plan(owner, data: PlanInput) -> CreatedPlan:
    """400 keyed by field before anything is stored; 409 beyond the owner's open plans."""
    numbers = [number for number in dict.fromkeys(data.invite_phone_numbers) if number != owner.phone_number]
    if not numbers:
        raise ValidationError.field(INVITE_FIELD, NOBODY_INVITED)
    if len(numbers) > rules.MAX_INVITEES:
        raise ValidationError.field(INVITE_FIELD, TOO_MANY_INVITEES)
    now = utcnow()
    if data.vote_deadline is not None and data.vote_deadline <= now:
        raise ValidationError.field("vote_deadline", DEADLINE_PASSED)
    invitees = resolve_invitees(owner, numbers, skip_user_ids={owner.id})
    textable = reachable(invitees.users)  # before the plan is written: a 503 here stores nothing
    fields = {
        "title": data.title,
        "time_zone": data.time_zone,
        "options": [option.as_json() for option in data.options],
        "vote_deadline": data.vote_deadline.replace(microsecond=0) if data.vote_deadline else None,
        "invitee_count": len(invitees.users),
    }

    def draw(_attempt: int):
        plan_id = new_id()
        plan = plan_store.new_plan(plan_id, owner.id, fields, event_id=new_id(), now=now)
        owner_link = plan_links.new_plan_code(plan_id)
        if owner_link:
            plan.link_hash = owner_link[1]
        members, links = [], {}
        for user in invitees.users:
            member = plan_store.new_member(plan, user.id, user.phone_number, now)
            made = plan_links.new_plan_code(plan_id)
            if made:
                member.link_hash = made[1]
                links[user.id] = plan_links.plan_link_url(made[0])
            members.append(member)
        try:
            saved = plan_store.save_new_plan(plan, members, most_open=rules.MAX_OPEN_PLANS)
        except TooManyOpenPlans:
            raise Conflict(TOO_MANY_OPEN) from None
        if not saved:
            raise TryAgain()
        return PlanView(plan, members), links, owner_link

    try:
        view, links, owner_link = retry(draw, attempts=CREATE_ATTEMPTS)
    except AttemptsSpent:
        raise RuntimeError("could not draw a free plan id") from None
    _keep_marks(invitees.marks)
    send_plan_texts(owner, view.plan, textable, links)
    return CreatedPlan(view, plan_links.plan_link_url(owner_link[0]) if owner_link else None)


def _keep_marks(marks: list) -> None:
    """The numbers new to the owner, marked as invited (the lookups allowance then spares them). The plan is made
    already and its texts are still to go: a failure here is logged, never answered (the worst it does is count
    those numbers once more)."""
    try:
        plan_store.save_marks(marks)
    except Exception:  # noqa: BLE001 - see above
        log.warning("plan: %d invited numbers not marked", len(marks))


# --------------------------------------------------------------------------- read and vote


def plan_for(caller_id: int, plan_id: int, action: PlanAction) -> PlanView:
    view = plan_store.load_plan(plan_id)
    if view is None:
        raise NotFound()
    rules.require(role_in(caller_id, view), action)
    return view


def vote(caller_id: int, plan_id: int, raw: object) -> PlanView:
    """The caller's votes on the options sent (the others stay); 409 once decided or past the deadline."""
    view = plan_for(caller_id, plan_id, PlanAction.VOTE)
    votes, problems = rules.check_votes(raw, {option.id for option in options_of(view)})
    if problems:
        raise ValidationError(problems)
    now = utcnow()
    if voting_closed(view, now):
        raise Conflict(VOTING_CLOSED)
    try:
        plan_store.save_votes(view.plan, view.member(caller_id), votes, now)
    except VotingClosed:
        raise Conflict(VOTING_CLOSED) from None
    return plan_for(caller_id, plan_id, PlanAction.READ)


# --------------------------------------------------------------------------- decide


def decide(owner, plan_id: int, option_id: object):
    """The event made from the chosen option, once: (the plan, the event's view). 409 when decided already."""

    view = plan_for(owner.id, plan_id, PlanAction.DECIDE)
    chosen = _chosen(view, option_id)
    if view.plan.status == DECIDED:
        if view.plan.decided_option == chosen.id and view.plan.event_id is not None:
            return _decided_answer(owner, plan_id, view)  # the same decision again: done, nothing sent again
        raise Conflict(ALREADY_DECIDED)
    data = events.EventInput(
        title=view.plan.title,
        event_date=chosen.starts_at,
        is_time_specified=True,
        time_zone=view.plan.time_zone,
        utc_offset_minutes=0,
        invite_phone_numbers=[member.phone_number for member in view.members],
    )
    links: dict[int, str] = {}
    try:
        made = events.create_event(owner, data, event_id=view.plan.event_id, wording=decided_text, links_out=links)
    except Conflict as refused:
        if refused.detail != events.EVENT_ALREADY_MADE:
            raise
        # A parallel decide, or this one tried before and stopped short, made the event: record its date. The
        # same choice is answered as done (nobody is texted again); another one was too late.
        if _finish_decided(view) != chosen.id:
            raise Conflict(ALREADY_DECIDED) from None
        return _decided_answer(owner, plan_id, view)
    plan_store.keep_event_links(view, _sealed(view, links))
    plan_store.mark_decided(view.plan, chosen.id, utcnow())
    return plan_for(owner.id, plan_id, PlanAction.READ), made


def _decided_answer(owner, plan_id: int, view: PlanView):
    return plan_for(owner.id, plan_id, PlanAction.READ), event_reads.get_event(owner, view.plan.event_id)


def drop(owner_id: int, plan_id: int) -> None:
    """The plan and its votes deleted (its pages then answer 404), its place among the owner's open plans freed.
    An event made from it stays."""
    plan_store.delete_plan(plan_for(owner_id, plan_id, PlanAction.DROP))


def _chosen(view: PlanView, option_id: object) -> Option:
    if isinstance(option_id, bool) or not isinstance(option_id, int):
        raise ValidationError.field("option", "A valid integer is required.")
    found = next((option for option in options_of(view) if option.id == option_id), None)
    if found is None:
        raise ValidationError.field("option", UNKNOWN_OPTION)
    return found


def _finish_decided(view: PlanView) -> int | None:
    """The plan marked with the date of the event already made under its id (when that decide stopped short);
    the option it was made on."""
    made = event_store.load_partition(view.plan.event_id)
    if made is None:
        return None
    option = next((option for option in options_of(view) if option.starts_at == made.event.event_date), None)
    if option is None:
        return None
    plan_store.mark_decided(view.plan, option.id, utcnow())
    return option.id


def _sealed(view: PlanView, links: dict[int, str]) -> dict[int, str]:
    sealed = {}
    for user_id, link in links.items():
        value = plan_links.seal_event_link(view.plan.id, user_id, link)
        if value:
            sealed[user_id] = value
    return sealed


# --------------------------------------------------------------------------- representation


def tallies_of(view: PlanView) -> dict[int, dict[str, int]]:
    """Each option's tallies, counted from every member's votes as read."""
    return rules.tallies([option.id for option in options_of(view)], [ballot(member) for member in view.members])


def plan_json(view: PlanView, caller_id: int, *, users: dict | None = None) -> dict:
    """The plan as the caller may see it: tallies for everyone in it; each person's votes for the owner."""
    plan = view.plan
    options = options_of(view)
    counts = tallies_of(view)
    body = {
        "id": plan.id,
        "title": plan.title,
        "time_zone": plan.time_zone,
        "vote_deadline": format_datetime(plan.vote_deadline),
        "status": plan.status,
        "owner_id": plan.owner_id,
        "invitee_count": len(view.members),
        "options": [{**option.as_json(), "tally": counts[option.id]} for option in options],
        "decided_option": plan.decided_option,
        "event_id": plan.event_id if plan.status == DECIDED else None,
        "created": format_datetime(plan.created),
    }
    if plan.owner_id == caller_id:
        users = users or {}
        body["votes"] = [
            {
                "user_id": member.user_id,
                "full_name": getattr(users.get(member.user_id), "full_name", "") or "",
                "phone_number": member.phone_number,
                "votes": ballot(member),
            }
            for member in view.members
        ]
    else:
        own = view.member(caller_id)
        body["my_votes"] = ballot(own)
    return body


def plan_answer(view: PlanView, caller_id: int) -> dict:
    """:func:`plan_json` with the names the owner sees (one BatchGetItem round of the invitees)."""
    users = user_store.get_users(m.user_id for m in view.members) if view.plan.owner_id == caller_id else {}
    return plan_json(view, caller_id, users=users)
