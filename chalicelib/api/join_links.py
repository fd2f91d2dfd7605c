"""Joining by link: POST /events/{id}/join_link, POST /events/join, and the hosts' join requests."""

from __future__ import annotations

from chalicelib.api.request import RequestContext
from chalicelib.api.responses import NO_CONTENT, HandlerResult
from chalicelib.services.hosting import join_answers, join_links
from chalicelib.services.participants import representations
from chalicelib.timeutil import format_datetime
from chalicelib.validation import Fields

CODE_MAX_LENGTH = 64


def new_join_link(ctx: RequestContext):
    event_id = ctx.path_id("event_id")
    if ctx.request.raw_body:
        ctx.json_object()  # a body, when sent, must be a JSON object like any other
    url, join_mode = join_links.new_join_link(ctx.user, event_id)
    return {"url": url, "join_mode": join_mode}


def join(ctx: RequestContext):
    fields = Fields(ctx.json_object())
    code = fields.string("code", required=True, max_length=CODE_MAX_LENGTH)
    fields.raise_if_errors()
    outcome = join_links.join(ctx.user, code)
    if not outcome.joined:
        return HandlerResult({"status": "pending"}, status=202)
    view = join_answers.joined_view(ctx.user, outcome.event_id)
    if view is None:  # saved, but the event could not be read back: say so, never a 503
        return HandlerResult(join_answers.saved_answer(outcome.event_id), status=202)
    return representations.event_json(view, ctx.user.id, representations.DETAIL)


def join_requests(ctx: RequestContext):
    found = join_links.pending(ctx.user, ctx.path_id("event_id"))
    return [
        {"user_id": request.user_id, "full_name": user.full_name, "requested_at": format_datetime(request.requested)}
        for request, user in found
    ]


def approve(ctx: RequestContext):
    join_links.approve(ctx.user, ctx.path_id("event_id"), ctx.path_id("user_id"))
    return NO_CONTENT


def decline(ctx: RequestContext):
    join_links.decline(ctx.user, ctx.path_id("event_id"), ctx.path_id("user_id"))
    return NO_CONTENT
