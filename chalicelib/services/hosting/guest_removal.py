"""A host removes someone from the guest list (``DELETE /events/{id}/invitees/{user_id}``). No chalice imports.

The owner may remove anyone but themself, a co-host only plain guests (domain.roles: ``REMOVE_GUEST``, and
``REMOVE_COHOST`` for a co-host). The invitation goes in one transaction with META's counters: its spots, its
place in line, its co-host place (store/removals.py); then the waitlist moves as after a decline
(services/replies/waitlist.py). From then on the person is a stranger to the event on every route, their old
page links say they are no longer invited, and the event's join link finds nothing for them until a host
invites them again. Nobody is told unless the host asks (``notify``): then the person hears of it once per
removal, however often the request is repeated (services/hosting/removal_notices.py).
"""

from __future__ import annotations

from datetime import datetime

from chalicelib import store
from chalicelib.domain.roles import Action, Role, require, role_of
from chalicelib.errors import Conflict, NotFound, ValidationError
from chalicelib.retry import AttemptsSpent, TryAgain, jittered, retry
from chalicelib.services.hosting import removal_notices
from chalicelib.services.participants.event_reads import require_live
from chalicelib.services.replies.waitlist import promote_waiting, spots_left
from chalicelib.store import invitations as invitation_store
from chalicelib.store import removals as removal_store
from chalicelib.timeutil import utcnow

OWNER_STAYS = "The owner cannot be removed from their event."
ATTEMPTS = 10  # a removal racing replies of the same guest or seats from the line: read again, decide again
PAUSE_SECONDS = 0.01


def remove_invitee(caller, event_id: int, user_id: int, *, notify: bool = False) -> None:
    """Remove invitee ``user_id``: 404 when they were never invited, 400 keyed by ``user_id`` for the owner, 403
    for a co-host removing a co-host, 409 on a cancelled event. A repeat (removed already, not invited again)
    answers as the first did and seats the line if a fault cut the first one's seating short. With ``notify``
    the person is told (a repeat asks again: the notice's claim keeps it to once per removal)."""
    caller_role = role_of(invitation_store.find_invitation(event_id, caller.id))
    require(caller_role, Action.REMOVE_GUEST)

    def attempt(_number: int) -> tuple[bool, datetime]:
        target, event = invitation_store.reply_state(event_id, user_id)
        removed = removal_store.removed_at(event_id, user_id) if event is not None and target is None else None
        if event is None or target is None and removed is None:
            raise NotFound()
        if target is None:  # removed already (a repeat): finish seating the line, should a fault have cut it short
            return bool(event.waiting_count) and spots_left(event) > 0, removed
        target_role = role_of(target)
        if target_role == Role.OWNER:
            raise ValidationError.field("user_id", OWNER_STAYS)
        if target_role == Role.COHOST:
            require(caller_role, Action.REMOVE_COHOST)
        require_live(event)
        now = utcnow()
        try:
            freed = -removal_store.remove_invitee(event, target, now=now)
        except (store.Refused, store.Contended):
            raise TryAgain() from None  # the guest replied, was seated or changed role meanwhile
        # the line may move: spots were given back, or the party that left was one waiting (at its head, say)
        return bool(event.waiting_count) and (freed > 0 or bool(target.wait_key)), now

    try:
        line_may_move, removed = retry(attempt, attempts=ATTEMPTS, pause=jittered(PAUSE_SECONDS))
    except AttemptsSpent:
        raise Conflict("The guest's reply changed meanwhile, try again.") from None
    if line_may_move:
        promote_waiting(event_id, caller.id)
    if notify:
        removal_notices.ask_to_tell(event_id, user_id, caller.id, removed)
