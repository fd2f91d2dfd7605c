"""DELETE /events/{id}/invitees/{user_id}: a host removes someone from the guest list."""

from __future__ import annotations

from chalicelib.api.request import RequestContext
from chalicelib.api.responses import NO_CONTENT
from chalicelib.services.hosting import guest_removal


def remove_invitee(ctx: RequestContext):
    guest_removal.remove_invitee(ctx.user, ctx.path_id("event_id"), ctx.path_id("user_id"))
    return NO_CONTENT
