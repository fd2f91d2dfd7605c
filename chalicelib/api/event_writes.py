"""/events, writing: create, edit, cancel and clone an event."""

from __future__ import annotations

from chalicelib.api import series
from chalicelib.api.event_input import event_input, sent_offset
from chalicelib.api.request import RequestContext
from chalicelib.api.responses import NO_CONTENT, HandlerResult
from chalicelib.services.hosting import event_clone, events
from chalicelib.services.hosting import series as series_service
from chalicelib.services.participants import representations
from chalicelib.validation import Fields


def create_event(ctx: RequestContext):
    body = ctx.json_object()
    data = event_input(body, creating=True)
    repeat = series.repeat_of(body)
    if repeat is not None:
        return series.created_series(ctx, data, repeat)
    view = events.create_event(ctx.user, data)
    return HandlerResult(representations.event_json(view, ctx.user.id, representations.CREATE), status=201)


def edit_event(ctx: RequestContext):
    event_id, body = ctx.path_id("event_id"), ctx.json_object()
    data = event_input(body, creating=False)
    view = series_service.update_in_scope(ctx.user, event_id, data, series.scope_of(body))
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
