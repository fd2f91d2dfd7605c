"""The host's guest list as a spreadsheet (GET /events/{id}/guests.csv). No chalice imports.

One GetItem of the caller's invitation, one Query of the event's partition and one BatchGetItem of its
people, whatever the number of guests.
The rows come from the invitations (the owner is the host, not a row) and from ``offline_rows``; the
columns of answers from the event's questions when it has any.
"""

from __future__ import annotations

from dataclasses import dataclass

from chalicelib.domain import guest_sheet, invitation_insight
from chalicelib.domain.answers import answer_of
from chalicelib.domain.guest_sheet import GuestRow, Question
from chalicelib.domain.roles import Action
from chalicelib.services.participants.event_reads import permitted_view, with_users
from chalicelib.store.events import OWNER, EventView
from chalicelib.timeutil import format_datetime


@dataclass(frozen=True)
class GuestSheet:
    title: str  # the event's, for the file's name
    text: str  # the CSV


def guest_list_sheet(caller, event_id: int) -> GuestSheet:
    """The event's guests as CSV, for its hosts (a guest: 403, a stranger: 404)."""
    view = with_users([permitted_view(caller, event_id, Action.EXPORT_GUEST_LIST)])[0]
    rows = invitee_rows(view) + offline_rows(view)
    return GuestSheet(view.event.title, guest_sheet.sheet(rows, questions_of(view.event)))


def invitee_rows(view: EventView) -> list[GuestRow]:
    """One row per invitee, in the order they were invited."""
    places = view.waitlist_positions()
    rows = []
    for inv in view.invitations:
        if inv.role == OWNER:
            continue
        user = view.users.get(inv.user_id)
        rows.append(
            GuestRow(
                name=user.full_name if user is not None else "",
                phone=user.phone_number if user is not None else "",
                answer=guest_sheet.answer_word(answer_of(inv, places.get(inv.user_id))),
                extra_guests=int(inv.extra_guests or 0),
                waitlist_position=places.get(inv.user_id),
                message=inv.rsvp_message or "",
                answers=dict(getattr(inv, "answers", None) or {}),
                checked_in=format_datetime(inv.checked_in_at) or "",
                invited_via=invitation_insight.invited_via(inv) or "",
                first_opened_at=format_datetime(inv.first_opened_at) or "",
            )
        )
    return rows


def offline_rows(view: EventView) -> list[GuestRow]:
    """The guests the hosts counted in without a phone (name only, phone ""), going, in the order added."""
    return [
        GuestRow(
            name=guest.name,
            phone="",
            answer=guest_sheet.GOING,
            extra_guests=int(guest.extra_guests or 0),
            checked_in=format_datetime(guest.checked_in_at) or "",
        )
        for guest in view.offline_guests
    ]


def questions_of(event) -> list[Question]:
    """The event's questions, one column each, in the event's order (none when it has no questions).
    Each is read as an object with ``id`` and ``label`` (or ``text``), or as a mapping with those keys."""
    questions = []
    for question in getattr(event, "questions", None) or []:
        read = question.get if isinstance(question, dict) else lambda name, q=question: getattr(q, name, None)
        questions.append(Question(id=str(read("id")), label=str(read("label") or read("text") or "")))
    return questions
