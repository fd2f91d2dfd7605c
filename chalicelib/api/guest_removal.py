"""DELETE /events/{id}/invitees/{user_id}: a host removes someone from the guest list (``?notify=true``: and they
are told)."""

from __future__ import annotations

from chalicelib.api.request import RequestContext
from chalicelib.api.responses import NO_CONTENT
from chalicelib.errors import ValidationError
from chalicelib.services.hosting import guest_removal

NOTIFY_CHOICES = {"true": True, "false": False}
INVALID_NOTIFY = "Must be true or false."


def remove_invitee(ctx: RequestContext):
    raw = ctx.query("notify")
    if raw is not None and raw not in NOTIFY_CHOICES:
        raise ValidationError.field("notify", INVALID_NOTIFY)
    notify = NOTIFY_CHOICES.get(raw, False)
    guest_removal.remove_invitee(ctx.user, ctx.path_id("event_id"), ctx.path_id("user_id"), notify=notify)
    return NO_CONTENT
