"""POST /events/{id}/messages, /polls, /time_suggestions and GET /events/{id}/time_suggestions."""

from __future__ import annotations

from chalicelib.api.request import RequestContext
from chalicelib.api.responses import NO_CONTENT, HandlerResult
from chalicelib.errors import Required
from chalicelib.services.conversation import conversation
from chalicelib.services.participants import representations
from chalicelib.validation import Fields

MESSAGE_MAX_LENGTH = 2000
VENUE_MAX_LENGTH = 100
COMMENT_MAX_LENGTH = 500


def post_message(ctx: RequestContext):
    event_id = ctx.path_id("event_id")
    fields = Fields(ctx.json_object())
    body = fields.string("body", required=True, max_length=MESSAGE_MAX_LENGTH)
    fields.raise_if_errors()
    return HandlerResult(conversation.post_message(ctx.user, event_id, body), status=201)


def _missing(value: object) -> bool:
    """Absent, null or only blanks (a venue is compared trimmed, so "  " names none)."""
    return value is None or isinstance(value, str) and not value.strip()


def post_poll(ctx: RequestContext):
    event_id = ctx.path_id("event_id")
    data = ctx.json_object()
    if any(_missing(data.get(name)) for name in ("suggested_date", "suggested_venue")):
        raise Required("body")
    fields = Fields(data)
    suggested_date = fields.datetime("suggested_date", required=True)
    suggested_venue = fields.string("suggested_venue", required=True, max_length=VENUE_MAX_LENGTH)
    fields.raise_if_errors()
    poll = conversation.post_poll(ctx.user, event_id, suggested_date, suggested_venue)
    return HandlerResult(representations.poll_json(poll), status=201)


def suggest_time(ctx: RequestContext):
    event_id = ctx.path_id("event_id")
    fields = Fields(ctx.json_object())
    suggested_time = fields.datetime("suggested_time", required=True)
    comment = fields.string("comment", max_length=COMMENT_MAX_LENGTH)
    like_count = fields.integer("like_count", min_value=0)
    is_set = fields.boolean("is_set")
    fields.raise_if_errors()
    data = conversation.SuggestionInput(
        suggested_time=suggested_time,
        comment=comment or "",
        like_count=like_count or 0,
        is_set=bool(is_set),
    )
    conversation.suggest_time(ctx.user, event_id, data)
    return NO_CONTENT


def list_time_suggestions(ctx: RequestContext):
    event_id = ctx.path_id("event_id")
    suggestions = conversation.list_time_suggestions(ctx.user, event_id)
    return [representations.time_suggestion_json(s) for s in suggestions]
