"""DELETE /events/{id}/messages/{message_id}, /polls/{poll_id} and /time_suggestions/{suggestion_id}: the author
or a host takes an item of the conversation down."""

from __future__ import annotations

from chalicelib.api.request import RequestContext
from chalicelib.api.responses import NO_CONTENT
from chalicelib.services.conversation import moderation


def remove_message(ctx: RequestContext):
    moderation.remove_message(ctx.user, ctx.path_id("event_id"), ctx.path_id("message_id"))
    return NO_CONTENT


def remove_poll(ctx: RequestContext):
    moderation.remove_poll(ctx.user, ctx.path_id("event_id"), ctx.path_id("poll_id"))
    return NO_CONTENT


def remove_time_suggestion(ctx: RequestContext):
    moderation.remove_time_suggestion(ctx.user, ctx.path_id("event_id"), ctx.path_id("suggestion_id"))
    return NO_CONTENT
