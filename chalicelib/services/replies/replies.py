"""A guest's reply (accept or reject, with the people they bring), the waitlist of a full event, and
marking an invitation seen. No chalice imports.

A reply starts from the invitation and META read together (one BatchGetItem), then writes one
transaction conditional on what it read: the previous reply (so a repeated accept never counts twice),
the event live, and for a party that grows, room under the total read and nobody waiting. A party that
does not go in joins the waitlist when the event keeps one (services/replies/waitlist.py seats it later), else
409. A refused transaction is read again and decided again.
"""

from __future__ import annotations

from dataclasses import dataclass

from chalicelib import store
from chalicelib.config import get_settings
from chalicelib.domain import capacity, questions, visibility
from chalicelib.domain import waitlist as line_rules
from chalicelib.domain.roles import Action, Role, require, role_of
from chalicelib.errors import Conflict, NotFound, OutOfRange, PermissionDenied, ValidationError
from chalicelib.messaging import notifications
from chalicelib.messaging.notifications.kinds import kind_named
from chalicelib.retry import AttemptsSpent, TryAgain, jittered, retry
from chalicelib.services.participants import cohosts
from chalicelib.services.participants.event_reads import REPLIES_CLOSED, replies_closed, require_live
from chalicelib.services.replies.waitlist import fits, promote_waiting, spots_left
from chalicelib.store import invitations as invitation_store
from chalicelib.store import users as user_store
from chalicelib.store import waitlist as waitlist_store
from chalicelib.store.records import Event, Invitation, User
from chalicelib.timeutil import utcnow

# The queue kinds sent from here (each declared with its handler)
INVITE_RSVP = kind_named("invite_rsvp")

EVENT_FULL = "This event is full."
# Replies of one guest racing each other (two phones, a double tap, the web page and the app) each
# lose only to a reply that landed; a short random pause before trying again lets them take turns.
REPLY_ATTEMPTS = 10
REPLY_BACKOFF_SECONDS = 0.01


@dataclass
class Reply:
    """The invitation as the reply left it, and its place on the waitlist (None when not waiting)."""

    invitation: Invitation
    waitlist_position: int | None = None
    guest: User | None = None  # the person replied for, when a host replied


# --------------------------------------------------------------------------- RSVP


def rsvp(
    caller,
    event_id: int,
    *,
    accept: bool,
    message: str | None,
    extra_guests: int | None = None,
    answers: object = None,
) -> Reply:
    """Accept (bringing ``extra_guests``: when not sent, the number already given, else 0, and answering
    the event's questions: ``answers`` over those already given) or reject; the last reply counts. A full
    event with a waitlist puts an accepting party in line instead of a 409."""

    def state() -> tuple[Invitation, Event]:
        return _guest_state(caller, event_id)

    return _reply(state, accept, message or "", extra_guests, by_host=False, answers=answers)


def say_maybe(caller, event_id: int, *, message: str | None) -> Reply:
    """Maybe: the invitation holds no spot (a going or waiting party gives its place back, as a decline
    does, and the line moves) and shows ``answer: maybe``; has_accepted stays null."""

    def state() -> tuple[Invitation, Event]:
        return _guest_state(caller, event_id)

    return _reply(state, False, message or "", None, by_host=False, maybe=True)


def reply_for_guest(caller, event_id: int, user_id: int, *, accept: bool, extra_guests: int | None = None) -> Reply:
    """A host records the reply of invitee ``user_id`` (who answered by voice, say) under the very rules of
    the guest's own reply: capacity, waitlist, deadline. The invitation shows ``replied_by_host`` until the
    guest replies themself. Nobody is told: the guest gave the answer to the host, and the hosts see it."""
    caller_role = role_of(invitation_store.own_invitation(event_id, caller.id))
    require(caller_role, Action.REPLY_FOR_GUEST)
    if user_id == caller.id:  # a co-host's own reply
        return rsvp(caller, event_id, accept=accept, message=None, extra_guests=extra_guests)

    def state() -> tuple[Invitation, Event]:
        invitation, event = invitation_store.reply_state(event_id, user_id)
        if invitation is None or event is None:
            raise NotFound()
        guest_role = role_of(invitation)
        require(guest_role, Action.REPLY)  # the owner's own invitation takes no reply: 403
        if guest_role == Role.COHOST:  # a co-host's reply, and so their role, is the owner's to change
            require(caller_role, Action.REPLY_FOR_COHOST)
        return invitation, event

    reply = _reply(state, accept, None, extra_guests, by_host=True)
    reply.guest = user_store.get_user(user_id)
    return reply


def _reply(
    state,
    accept: bool,
    text: str | None,
    extra_guests: int | None,
    *,
    by_host: bool,
    answers: object = None,
    maybe: bool = False,
) -> Reply:
    """One reply, read and written again until it lands on what it read. ``text`` None keeps the message
    the invitation holds (a host's reply carries none of its own)."""

    def reply(_attempt: int) -> Reply:
        invitation, event = state()
        require_live(event)
        if accept and replies_closed(event, utcnow()):
            raise Conflict(REPLIES_CLOSED)
        words = (invitation.rsvp_message or "") if text is None else text
        try:
            if not accept:
                return _decline(invitation, event, words, by_host, maybe=maybe)
            extra = _extra_guests(invitation, event, extra_guests)
            given = _answers(invitation, event, answers, by_host)
            if not capacity.could_ever_fit(1 + extra, event.total_spots, _settings_cap()):
                raise Conflict(EVENT_FULL)  # in line it would block everyone behind it
            if invitation.wait_key:
                return _change_waiting(invitation, event, extra, words, by_host, given)
            return _accept(invitation, event, extra, words, by_host, given)
        except (store.Contended, store.Refused):
            raise TryAgain() from None  # the reply, the line or the counters moved: read again

    try:
        return retry(reply, attempts=REPLY_ATTEMPTS, pause=jittered(REPLY_BACKOFF_SECONDS))
    except AttemptsSpent:
        raise Conflict("The reply changed meanwhile, try again.") from None


def _guest_state(caller, event_id: int) -> tuple[Invitation, Event]:
    """The caller's invitation and META, read consistently, when the caller's role may reply (domain.roles)."""
    invitation, event = invitation_store.reply_state(event_id, caller.id)
    if event is None:
        raise NotFound()
    require(role_of(invitation), Action.REPLY)
    return invitation, event


def _extra_guests(invitation: Invitation, event: Event, wanted: int | None) -> int:
    """The people the guest brings: a number sent must fit the event's ``max_extra_guests`` (else 400); none
    sent keeps the number already given, whatever the maximum became since."""
    held = invitation.has_accepted is True or bool(invitation.wait_key)
    extra, checked = capacity.extra_guests_kept(wanted, invitation.extra_guests if held else None)
    allowed = int(event.max_extra_guests or 0)
    if checked and extra > allowed:
        raise OutOfRange("extra_guests", most=allowed)
    return extra


def _answers(invitation: Invitation, event: Event, sent: object, by_host: bool) -> dict | None:
    """The answers an accept leaves (None: nothing to write). A guest's accept must answer every required
    question (400 ``{"answers": {"<id>": [...]}}``); a host replying for a guest has no answers to give."""
    asked = list(event.questions or [])
    if by_host or (not asked and sent is None):
        return None
    try:
        return questions.checked_answers(asked, sent, invitation.answers)
    except questions.AnswersInvalid as invalid:
        raise ValidationError({"answers": invalid.errors}) from None


def _settings_cap() -> int:
    return get_settings().max_spots_filled


def _accept(invitation: Invitation, event: Event, extra: int, text: str, by_host: bool, given: dict | None) -> Reply:
    previous = invitation.has_accepted
    grows = 1 + extra - invitation_store.party_of(invitation)
    if grows > 0 and (event.waiting_count or not fits(event, grows)):
        if previous is not True and event.waitlist:
            return _join(invitation, event, extra, text, by_host, given)
        raise Conflict(EVENT_FULL)
    now = utcnow()
    delta = invitation_store.write_reply(
        invitation,
        event,
        accept=True,
        extra_guests=extra,
        message=text,
        now=now,
        max_spots_filled=_settings_cap(),
        by_host=by_host,
        answers=given,
    )
    invitation.answers = given if given is not None else invitation.answers
    invitation.has_accepted, invitation.maybe, invitation.extra_guests = True, None, extra
    invitation.rsvp_message, invitation.rsvp_time, invitation.replied_by_host = text, now, by_host or None
    if previous is not True and not by_host:
        _tell_owner(invitation, accepted=True, message=text)
    _promote_if_open(event, invitation, delta)
    return Reply(invitation)


def _join(invitation: Invitation, event: Event, extra: int, text: str, by_host: bool, given: dict | None) -> Reply:
    now = utcnow()
    key = waitlist_store.join(
        invitation,
        event,
        extra_guests=extra,
        message=text,
        now=now,
        max_spots_filled=_settings_cap(),
        by_host=by_host,
        answers=given,
    )
    invitation.answers = given if given is not None else invitation.answers
    invitation.has_accepted, invitation.wait_key, invitation.extra_guests = None, key, extra
    invitation.maybe = None
    invitation.rsvp_message, invitation.rsvp_time, invitation.replied_by_host = text, now, by_host or None
    if spots_left(event) > 0:  # others were waiting though spots were open: let the line move
        return _after_line_moved(invitation, event)
    return Reply(invitation, waitlist_store.position(event.id, key))


def _change_waiting(
    invitation: Invitation, event: Event, extra: int, text: str, by_host: bool, given: dict | None
) -> Reply:
    now = utcnow()
    waitlist_store.change(invitation, extra_guests=extra, message=text, now=now, by_host=by_host, answers=given)
    invitation.answers = given if given is not None else invitation.answers
    invitation.extra_guests, invitation.rsvp_message, invitation.rsvp_time = extra, text, now
    invitation.replied_by_host = by_host or None
    if spots_left(event) > 0:  # a smaller party may fit now
        return _after_line_moved(invitation, event)
    return Reply(invitation, waitlist_store.position(event.id, invitation.wait_key))


def _after_line_moved(invitation: Invitation, event: Event) -> Reply:
    """Promote, then tell the caller where they stand: seated, or still at a place in line."""
    if invitation.user_id in promote_waiting(event.id, invitation.user_id):
        invitation.has_accepted, invitation.wait_key = True, None
        return Reply(invitation)
    return Reply(invitation, waitlist_store.position(event.id, invitation.wait_key))


def _decline(invitation: Invitation, event: Event, text: str, by_host: bool, *, maybe: bool = False) -> Reply:
    """A decline, or a maybe: the party gives back what it held (its spots or its place in line)."""
    previous = invitation.has_accepted
    now = utcnow()
    if invitation.wait_key:
        waitlist_store.leave(invitation, message=text, now=now, by_host=by_host, maybe=maybe)
        invitation.wait_key, delta = None, 0
        if spots_left(event) > 0:  # the head of the line may have been this party
            promote_waiting(event.id, invitation.user_id)
    else:
        delta = invitation_store.write_reply(
            invitation,
            event,
            accept=False,
            extra_guests=0,
            message=text,
            now=now,
            max_spots_filled=_settings_cap(),
            by_host=by_host,
            maybe=maybe,
        )
    invitation.has_accepted, invitation.maybe, invitation.extra_guests = (None, True, 0) if maybe else (False, None, 0)
    invitation.rsvp_message, invitation.rsvp_time, invitation.replied_by_host = text, now, by_host or None
    if maybe:  # a maybe keeps a co-host's role and is nothing the owner is told about
        _promote_if_open(event, invitation, delta)
        return Reply(invitation)
    if invitation.cohost:  # a co-host who declines is no longer one
        cohosts.step_down(event.id, invitation)
    if previous is not False and not by_host:
        _tell_owner(invitation, accepted=False, message=text)
    _promote_if_open(event, invitation, delta)
    return Reply(invitation)


def _promote_if_open(event: Event, invitation: Invitation, delta: int) -> None:
    """Seat waiting parties when this reply gave spots back, or when spots were open with a line already
    (a promotion cut short by an AWS fault: the client's retry of the same reply finishes it)."""
    if event.waiting_count and (delta < 0 or spots_left(event) > 0):
        promote_waiting(event.id, invitation.user_id)


def _tell_owner(invitation: Invitation, *, accepted: bool, message: str) -> None:
    notifications.enqueue(
        INVITE_RSVP,
        event_id=invitation.event_id,
        actor_id=invitation.user_id,
        accepted=accepted,
        message=message,
    )


def mark_seen(caller, event_id: int, invitation_id: int) -> tuple[Invitation, int | None]:
    """Only the invited person marks their invitation seen. The caller's own invitation and META come first
    (one BatchGetItem: someone outside the event reads none of its rows), then one Query and one UpdateItem.
    Someone else's invitation the caller cannot see in the guest list is 404 like an unknown id; one they
    can see, 403. Returns the invitation and its place on the waitlist."""
    own, event = invitation_store.reply_state(event_id, caller.id)
    require(role_of(own if event is not None else None), Action.READ)
    invitations = invitation_store.invitations_of(event_id)
    target = next((inv for inv in invitations if inv.id == invitation_id), None)
    if target is None or not visibility.seen_by(event, own).sees_row(target):
        raise NotFound()
    if target.user_id != caller.id:  # each person marks only their own invitation, the owner too
        raise PermissionDenied()
    if not target.has_seen:
        invitation_store.mark_seen(target)
    return target, waitlist_positions(invitations).get(target.user_id)


def waitlist_positions(invitations: list[Invitation]) -> dict[int, int]:
    """{user id: place in line (1 = next)} of the waiting guests among ``invitations`` (all of an event's)."""
    return line_rules.places_by_user(invitations)
