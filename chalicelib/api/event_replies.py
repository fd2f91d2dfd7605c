"""A guest's answer to an invitation: accept, reject, a host's reply for a guest, and marking it seen."""

from __future__ import annotations

from chalicelib.api.request import RequestContext
from chalicelib.domain import questions
from chalicelib.domain.event_fields import MAX_EXTRA_GUESTS
from chalicelib.services.participants import representations
from chalicelib.services.replies import replies
from chalicelib.validation import Fields


def _rsvp_input(ctx: RequestContext, *, accept: bool) -> tuple[str, int | None, object]:
    """The reply's message, and on an accept the people the guest brings and the answers to the event's
    questions (None when not sent; checked against the questions by services.replies)."""
    body = dict(ctx.json_object())
    for name in ("rsvp_message", "extra_guests"):
        if body.get(name) is None:
            body.pop(name, None)
    fields = Fields(body)
    message = fields.string("rsvp_message", max_length=60)
    extra_guests = fields.integer("extra_guests", min_value=0, max_value=MAX_EXTRA_GUESTS) if accept else None
    answers = body.get("answers") if accept else None
    if isinstance(answers, dict) and len(answers) > questions.MAX_QUESTIONS:
        fields.error("answers", f"Ensure this field has no more than {questions.MAX_QUESTIONS} elements.")
    fields.raise_if_errors()
    return message or "", extra_guests, answers


def _rsvp(ctx: RequestContext, accept: bool):
    event_id = ctx.path_id("event_id")
    message, extra_guests, answers = _rsvp_input(ctx, accept=accept)
    reply = replies.rsvp(ctx.user, event_id, accept=accept, message=message, extra_guests=extra_guests, answers=answers)
    return representations.invitation_json(reply.invitation, ctx.user, reply.waitlist_position)


def accept(ctx: RequestContext):
    return _rsvp(ctx, True)


def reject(ctx: RequestContext):
    return _rsvp(ctx, False)


def maybe(ctx: RequestContext):
    event_id = ctx.path_id("event_id")
    message, _extra_guests, _answers = _rsvp_input(ctx, accept=False)
    reply = replies.say_maybe(ctx.user, event_id, message=message)
    return representations.invitation_json(reply.invitation, ctx.user, reply.waitlist_position)


def reply_for_guest(ctx: RequestContext):
    event_id, user_id = ctx.path_id("event_id"), ctx.path_id("user_id")
    body = dict(ctx.json_object())
    if body.get("extra_guests") is None:
        body.pop("extra_guests", None)
    fields = Fields(body)
    accept = fields.boolean("accept", required=True)
    extra_guests = fields.integer("extra_guests", min_value=0, max_value=MAX_EXTRA_GUESTS) if accept else None
    fields.raise_if_errors()
    reply = replies.reply_for_guest(ctx.user, event_id, user_id, accept=accept, extra_guests=extra_guests)
    return representations.invitation_json(reply.invitation, reply.guest, reply.waitlist_position)


def mark_seen(ctx: RequestContext):
    event_id = ctx.path_id("event_id")
    invitation_id = ctx.path_id("invitation_id")
    invitation, position = replies.mark_seen(ctx.user, event_id, invitation_id)
    return representations.invitation_json(invitation, ctx.user, position)
