"""POST /events/{id}/attendance: an invitee answers "still coming?" from the app."""

from __future__ import annotations

from chalicelib.api.request import RequestContext
from chalicelib.domain.answers import answer_of
from chalicelib.services.replies import attendance
from chalicelib.validation import Fields


def answer_attendance(ctx: RequestContext):
    fields = Fields(ctx.json_object())
    confirmed = fields.boolean("confirmed", required=True)
    fields.raise_if_errors()
    invitation = attendance.answer(ctx.user, ctx.path_id("event_id"), confirmed=bool(confirmed))
    return {
        "attendance_confirmed": invitation.attendance_confirmed,
        "has_accepted_invite": invitation.has_accepted,
        "answer": answer_of(invitation, None),  # going once confirmed, declined once not: never in the line
    }
