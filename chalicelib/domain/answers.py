"""The answer an invitation shows (``answer``): one word for the reply, the waitlist and maybe."""

from __future__ import annotations

GOING = "going"
DECLINED = "declined"
MAYBE = "maybe"
WAITING = "waiting"
NO_REPLY = "no_reply"


def answer_of(invitation, waitlist_position: int | None) -> str:
    """``going``, ``declined``, ``maybe``, ``waiting`` (in line for a spot) or ``no_reply``. A waiting row
    whose place the viewer may not see (``waitlist_position`` None) reads ``no_reply``, as its
    has_accepted_invite does."""
    if invitation.has_accepted is True:
        return GOING
    if invitation.wait_key:
        return WAITING if waitlist_position is not None else NO_REPLY
    if invitation.has_accepted is False:
        return DECLINED
    return MAYBE if invitation.maybe else NO_REPLY


def is_maybe(invitation) -> bool:
    return invitation.has_accepted is None and not invitation.wait_key and bool(invitation.maybe)
