"""Co-hosts: the owner makes an invitee a co-host (at most ``MAX_COHOSTS``) and ends the role; a co-host
may step down. What a co-host may do is in domain.roles. No chalice imports.

The count on META and the flag on the invitation change together in one transaction, so the limit holds
when appointments race; a co-host who declines or deletes their account gives their place back."""

from __future__ import annotations

from chalicelib import store
from chalicelib.domain.roles import Action, Role, require, role_of
from chalicelib.errors import ServiceUnavailable, ValidationError
from chalicelib.retry import AttemptsSpent, TryAgain, linear, retry
from chalicelib.services.participants.event_reads import permitted_view, require_live, role_in, with_users
from chalicelib.store import invitations as invitation_store
from chalicelib.store.events import EventView, load_partition

MAX_COHOSTS = 5
ONLY_INVITEES = "Only an invitee can be a co-host."
NOT_DECLINED = "Only an invitee who has not declined can be a co-host."
TOO_MANY = f"An event has at most {MAX_COHOSTS} co-hosts."
ATTEMPTS = 5


def appoint(caller, event_id: int, user_id: int) -> EventView:
    """The owner makes the invitee ``user_id`` a co-host (again: no change). 400 keyed by ``user_id`` for
    anyone who is not a guest of the event, a guest who declined, or past ``MAX_COHOSTS``."""

    def attempt(_attempt: int) -> EventView:
        view = permitted_view(caller, event_id, Action.APPOINT_COHOSTS)
        require_live(view.event)
        target = view.invitation_of(user_id)
        if target is None or role_of(target) == Role.OWNER:
            raise ValidationError.field("user_id", ONLY_INVITEES)
        if target.cohost:
            return view
        if target.has_accepted is False:
            raise ValidationError.field("user_id", NOT_DECLINED)
        if int(view.event.cohost_count or 0) >= MAX_COHOSTS:
            raise ValidationError.field("user_id", TOO_MANY)
        try:
            invitation_store.make_cohost(view.event, target, MAX_COHOSTS)
        except (store.Refused, store.Contended):
            raise TryAgain() from None  # another appointment or a reply moved first: read again
        target.cohost = True
        return view

    try:
        return with_users([retry(attempt, attempts=ATTEMPTS, pause=linear(0.02))])[0]
    except AttemptsSpent:
        raise ServiceUnavailable() from None


def end(caller, event_id: int, user_id: int) -> None:
    """The owner ends anyone's co-host role, a co-host their own; nothing to end is no change."""
    view = permitted_view(caller, event_id, Action.READ)
    caller_role = role_in(caller, view)
    own = user_id == caller.id and caller_role == Role.COHOST
    require(caller_role, Action.STEP_DOWN if own else Action.APPOINT_COHOSTS)
    target = view.invitation_of(user_id)
    if target is not None and target.cohost:
        step_down(event_id, target)


def step_down(event_id: int, invitation) -> None:
    """End the co-host role of ``invitation`` (declined, leaving, or removed), giving its place back."""
    if not invitation.cohost:
        return
    view = load_partition(event_id)
    if view is not None:
        invitation_store.end_cohost(view.event, invitation)
    invitation.cohost = None
