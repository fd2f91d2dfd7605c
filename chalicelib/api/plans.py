"""/plans: a date picked together (create, read, vote), then the event made from it (decide)."""

from __future__ import annotations

from chalicelib import localtime
from chalicelib.api.request import RequestContext
from chalicelib.api.responses import NO_CONTENT, HandlerResult
from chalicelib.domain import plans as rules
from chalicelib.services.participants import representations
from chalicelib.services.plans import plans
from chalicelib.services.plans.plans import PlanInput
from chalicelib.validation import REQUIRED, Fields

UNKNOWN_TIME_ZONE = "Unknown time zone."


def _plan_input(body: dict):
    """Every field checked before anything is written; all errors at once, options keyed by position."""
    fields = Fields(body)
    title = fields.string("title", required=True, max_length=rules.TITLE_MAX_LENGTH, allow_blank=False)
    zone = fields.string("time_zone", required=True, allow_blank=False)
    if zone is not None and localtime.zone(zone) is None:
        fields.error("time_zone", UNKNOWN_TIME_ZONE)
    options = []
    if "options" not in body:
        fields.error("options", REQUIRED)
    else:
        options, problems = rules.parse_options(body["options"])
        if problems:
            fields.errors["options"] = problems
    numbers = fields.phone_list("invite_phone_numbers", required=True, max_items=rules.MAX_INVITEES, textable=True)
    deadline = None if body.get("vote_deadline") is None else fields.datetime("vote_deadline")
    fields.raise_if_errors()
    return PlanInput(title, zone, options, numbers, deadline)


def create_plan(ctx: RequestContext):
    created = plans.create_plan(ctx.user, _plan_input(ctx.json_object()))
    body = {**plans.plan_json(created.view, ctx.user.id), "url": created.url}
    return HandlerResult(body, status=201)


def plan_detail(ctx: RequestContext):
    view = plans.plan_for(ctx.user.id, ctx.path_id("plan_id"), rules.PlanAction.READ)
    return plans.plan_answer(view, ctx.user.id)


def drop_plan(ctx: RequestContext):
    plans.drop(ctx.user.id, ctx.path_id("plan_id"))
    return NO_CONTENT


def vote(ctx: RequestContext):
    view = plans.vote(ctx.user.id, ctx.path_id("plan_id"), ctx.json_object())
    return plans.plan_answer(view, ctx.user.id)


def decide(ctx: RequestContext):
    fields = Fields(ctx.json_object())
    option = fields.integer("option", required=True, min_value=1, max_value=rules.MAX_OPTIONS)
    fields.raise_if_errors()
    view, made = plans.decide(ctx.user, ctx.path_id("plan_id"), option)
    answer = plans.plan_answer(view, ctx.user.id)
    answer["event"] = representations.event_json(made, ctx.user.id, representations.CREATE)
    return HandlerResult(answer, status=201)
