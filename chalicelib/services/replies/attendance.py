""" "Still coming?": a going party confirms it comes, or frees its spot; and, where the event releases the spots
of parties that did not answer, their move to the head of the waitlist. The app's route
(``POST /events/{id}/attendance``) and a reply to the still-coming text call the same functions.

A decline here is the guest's own decline (services/replies/replies.py): the spots go to the waitlist as they
would from the page. A confirm and a release of the same party race on its invitation: one of them lands.
"""

from __future__ import annotations

from dataclasses import dataclass

from chalicelib import store
from chalicelib.domain.roles import Action, require, role_of
from chalicelib.errors import Conflict, NotFound
from chalicelib.models.events import Event, Invitation, wait_sk
from chalicelib.services.participants.event_reads import require_live
from chalicelib.services.replies import replies
from chalicelib.services.replies.waitlist import promote_waiting
from chalicelib.store import attendance as attendance_store
from chalicelib.store import invitations as invitation_store
from chalicelib.store import waitlist as waitlist_store
from chalicelib.store.events import GUEST, EventView
from chalicelib.timeutil import utcnow

NOT_GOING = "Only a guest who is going can confirm."


@dataclass
class Released:
    """The parties this run moved from their seats, and every released party still in line (at its head)."""

    user_ids: list[int]
    waiting: list[int]


def confirm_attendance(event: Event, invitation: Invitation) -> Invitation:
    """The going party comes: ``attendance_confirmed`` true (again: unchanged). 409 when it is not seated (it
    declined, waits, or its spot was given to someone waiting), or the event was cancelled."""
    require_live(event)
    if invitation.attendance_confirmed is True and invitation.has_accepted is True:
        return invitation
    if invitation.has_accepted is not True or invitation.wait_key:
        raise Conflict(NOT_GOING)
    try:
        attendance_store.confirm(invitation)
    except store.Refused:
        raise Conflict(NOT_GOING) from None
    invitation.attendance_confirmed = True
    return invitation


def decline_attendance(caller, event_id: int) -> Invitation:
    """The party does not come: the guest's own decline, at once (its spots go to the waitlist)."""
    return replies.rsvp(caller, event_id, accept=False, message=None).invitation


def answer(caller, event_id: int, *, confirmed: bool) -> Invitation:
    """The app's answer to "still coming?" (invitees only: a stranger's 404, the owner's 403)."""
    invitation, event = invitation_store.reply_state(event_id, caller.id)
    if event is None:
        raise NotFound()
    require(role_of(invitation), Action.CONFIRM_ATTENDANCE)
    if not confirmed:
        return decline_attendance(caller, event_id)
    return confirm_attendance(event, invitation)


def release_unconfirmed(view: EventView, actor_id: int) -> Released:
    """Give the spots of the going parties that did not confirm to those waiting: each party unseated into the
    line (one transaction with the counters), the line moved as usual, then the released still in line put at
    its head, in the order they had replied. A party that confirmed meanwhile keeps its seat."""
    now = utcnow()
    unconfirmed = [
        inv
        for inv in view.invitations
        if inv.role == GUEST and inv.has_accepted is True and not inv.wait_key and inv.attendance_confirmed is not True
    ]
    released = []
    for invitation in sorted(unconfirmed, key=lambda inv: (inv.rsvp_time or inv.created, inv.user_id)):
        try:
            attendance_store.release(invitation, now=now, key=_tail_key(invitation, now))
        except store.Refused:
            continue  # confirmed, declined or left meanwhile
        released.append(invitation.user_id)
    if released:
        promote_waiting(view.event.id, actor_id)
    return Released(released, put_released_first(view.event.id))


def _tail_key(invitation: Invitation, now) -> str:
    return wait_sk(now, invitation.user_id)


def put_released_first(event_id: int) -> list[int]:
    """Move the released parties still in line (``attendance_confirmed`` false) ahead of everyone else
    waiting, keeping their own order; returns who is there. Done again after a crash, it moves nobody twice."""
    line = waitlist_store.whole_line(event_id)
    waiting = {inv.user_id: inv for inv in invitation_store.invitations_of(event_id) if inv.wait_key}
    released = [party for party in line if _released(waiting.get(party.user_id))]
    others = [party for party in line if party not in released]
    if not released or not others or released[-1].wait_key < others[0].wait_key:
        return [party.user_id for party in released]
    for place, party in enumerate(released):
        try:
            attendance_store.move_to_head(waiting[party.user_id], others[0].wait_key, place)
        except store.Refused:
            continue  # it left the line meanwhile
    return [party.user_id for party in released]


def _released(invitation: Invitation | None) -> bool:
    """Waiting because its spot was released (a party that joins the line itself has never been asked)."""
    return invitation is not None and invitation.attendance_confirmed is False
