"""Check-in at the door: each going party's pass (a code and its QR, made by segno as SVG) and the hosts'
check-in by code, by user id or by offline guest id. No chalice imports.

A code is ``<user id>.<128 random bits>``: the random part is stored on that one invitation the first time
the pass is asked for, so a code opens one party of one event and cannot be guessed. Checking in is a
conditional write with META's ``checked_in_count`` in the same transaction: a second scan, or parallel
ones, find the party checked in and answer it unchanged, so the count stays exact.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from chalicelib.domain import the_day
from chalicelib.domain.roles import Action
from chalicelib.errors import Conflict, NotFound, PermissionDenied
from chalicelib.retry import AttemptsSpent, TryAgain, retry
from chalicelib.services.participants.event_reads import permitted_view
from chalicelib.store import Contended
from chalicelib.store import check_ins as check_in_store
from chalicelib.store import invitations as invitation_store
from chalicelib.store import offline_guests as offline_store
from chalicelib.store.records import Invitation, OfflineGuest
from chalicelib.store.users import get_user
from chalicelib.timeutil import format_datetime, utcnow

TOKEN_BYTES = 16
NO_PASS = "Only guests who are going have a pass."
CHECK_IN_ATTEMPTS = 6


@dataclass(frozen=True)
class Pass:
    code: str
    qr_svg: str


def qr_svg(text: str) -> str:
    """``text`` as a QR code, an SVG document that scales to its box (error correction M, black on white)."""
    import segno  # off the API's cold start

    return segno.make_qr(text, error="m").svg_inline(scale=4, border=4, dark="#000", light="#fff", omitsize=True)


def pass_of(invitation: Invitation) -> Pass:
    """The party's pass; its token is made and stored the first time."""
    token = invitation.checkin_token or check_in_store.give_token(invitation, secrets.token_urlsafe(TOKEN_BYTES))
    code = the_day.checkin_code(invitation.user_id, token)
    return Pass(code=code, qr_svg=qr_svg(code))


def my_pass(caller, event_id: int) -> Pass:
    """A co-host's or a going guest's own pass (a guest not going: 403; a cancelled event: 409)."""
    view = permitted_view(caller, event_id, Action.SHOW_PASS)
    mine = view.invitation_of(caller.id)
    if not the_day.is_going(mine):
        raise PermissionDenied(NO_PASS)
    if view.event.cancelled:
        raise Conflict("This event has been cancelled.")
    return pass_of(mine)


def page_pass(event, invitation: Invitation) -> Pass | None:
    """The pass on a guest's page: a guest who is going, of a live event; else None."""
    if event.cancelled or invitation.role == "owner" or not the_day.is_going(invitation):
        return None
    return pass_of(invitation)


def _party(event_id: int, *, code: str | None, user_id: int | None, offline_guest_id: int | None):
    """The invitation or offline guest named; NotFound for an unknown or mismatching code, or nobody."""
    if offline_guest_id is not None:
        party = offline_store.find(event_id, offline_guest_id)
    else:
        token = None
        if code is not None:
            parsed = the_day.parse_checkin_code(code)
            if parsed is None:
                raise NotFound()
            user_id, token = parsed
        party = invitation_store.find_invitation(event_id, user_id)
        if party is not None and token is not None:
            if not party.checkin_token or not secrets.compare_digest(party.checkin_token, token):
                party = None
        if party is not None and not the_day.is_going(party):
            party = None  # declined, waiting or not answered: nobody to let in
    if party is None:
        raise NotFound()
    return party


def check_in(caller, event_id: int, *, undo: bool = False, **named) -> Invitation | OfflineGuest:
    """Hosts only. Check the named party in (or, with ``undo``, out); doing it again changes nothing."""
    permitted_view(caller, event_id, Action.CHECK_IN)
    now = utcnow()

    def attempt(number: int):
        party = _party(event_id, **named)
        done = party.checked_in_at is None if undo else party.checked_in_at is not None
        if done:
            return party
        try:
            changed = check_in_store.undo(party, event_id) if undo else check_in_store.check_in(party, event_id, now)
        except Contended:
            raise TryAgain() from None
        if not changed:
            raise TryAgain()  # changed meanwhile: read again
        party.checked_in_at = None if undo else now
        return party

    try:
        return retry(attempt, attempts=CHECK_IN_ATTEMPTS)
    except AttemptsSpent:
        raise Conflict("The guest changed meanwhile, try again.") from None


def party_json(party: Invitation | OfflineGuest) -> dict:
    """The party as the door sees it: who, how many people, when they arrived."""
    if isinstance(party, OfflineGuest):
        return {
            "offline_guest_id": party.id,
            "user_id": None,
            "full_name": party.name,
            "people": 1 + int(party.extra_guests or 0),
            "checked_in_at": format_datetime(party.checked_in_at),
        }
    return {
        "offline_guest_id": None,
        "user_id": party.user_id,
        "full_name": getattr(get_user(party.user_id), "full_name", "") or "",
        "people": 1 + int(party.extra_guests or 0),
        "checked_in_at": format_datetime(party.checked_in_at),
    }
