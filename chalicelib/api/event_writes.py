"""/events, writing: create, edit, cancel and clone an event."""

from __future__ import annotations

from chalicelib.api.event_input import event_input, sent_offset
from chalicelib.api.request import RequestContext
from chalicelib.api.responses import NO_CONTENT, HandlerResult
from chalicelib.services.hosting import event_clone, events
from chalicelib.services.participants import representations
from chalicelib.validation import Fields


def create_event(ctx: RequestContext):
    data = event_input(ctx.json_object(), creating=True)
    view = events.create_event(ctx.user, data)
    return HandlerResult(representations.event_json(view, ctx.user.id, representations.CREATE), status=201)


def edit_event(ctx: RequestContext):
    event_id = ctx.path_id("event_id")
    data = event_input(ctx.json_object(), creating=False)
    view = events.update_event(ctx.user, event_id, data)
    return representations.event_json(view, ctx.user.id, representations.DETAIL)


def cancel_event(ctx: RequestContext):
    events.cancel_event(ctx.user, ctx.path_id("event_id"))
    return NO_CONTENT


def clone_event(ctx: RequestContext):
    body = ctx.json_object()
    fields = Fields(body)
    event_date = fields.datetime("event_date", required=True)
    invite_same_guests = fields.boolean("invite_same_guests")
    fields.raise_if_errors()
    view = event_clone.clone_event(
        ctx.user,
        ctx.path_id("event_id"),
        event_date,
        sent_offset(body.get("event_date")),
        bool(invite_same_guests),
    )
    return HandlerResult(representations.event_json(view, ctx.user.id, representations.CREATE), status=201)
