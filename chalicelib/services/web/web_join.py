"""Joining an event on the web page /j/<code>, without the app. No chalice imports.

The page shows the event (the place only when its ``place_visibility`` is ``everyone``), then the person
proves their number with a pin texted to it, under the limits of ``POST /auth`` and ``verify_pin``
(services/identity/auth.py), and joins as ``POST /events/join`` does. A number without an account becomes an
inactive user, as an invitee by text does, so an approval reaches them by text. Each form carries a signed
token bound to the code (and the pin form to the number too). Every page view counts against the guest
page's per-address limit.
"""

from __future__ import annotations

from dataclasses import dataclass

from chalicelib import invite_links, limits
from chalicelib.domain import visibility
from chalicelib.errors import NotFound
from chalicelib.services.guards import ratelimit
from chalicelib.services.guards.ratelimit import Limit, address_subject
from chalicelib.services.hosting import join_links
from chalicelib.services.hosting.join_answers import built_or_none
from chalicelib.services.identity import auth
from chalicelib.services.identity.users import find_or_create_user, update_profile
from chalicelib.services.texts.host_label import host_label
from chalicelib.services.web.form_tokens import signed_token, signed_token_valid
from chalicelib.store import invitations as invitation_store
from chalicelib.store.users import get_user
from chalicelib.timeutil import utcnow

SUBJECT = "join"


@dataclass
class JoinPage:
    code: str
    event: object
    host_name: str
    seen: visibility.SeenEvent  # as someone not invited yet sees it
    over: bool
    approval: bool


def open_page(code: str, source_ip: str) -> JoinPage:
    """Count the view against the caller's address (429 beyond), then the page's data (404 for a code that
    opens nothing)."""
    ratelimit.hit(Limit.of(limits.GUEST_PAGE_PER_ADDRESS, address_subject(source_ip)))
    view = join_links.event_of_code(code)
    event = view.event
    host = get_user(event.owner_id)
    return JoinPage(
        code=code,
        event=event,
        host_name=host_label(host),
        seen=visibility.as_seen(event, None),
        over=bool(event.cancelled) or event.event_date <= utcnow(),
        approval=join_links.join_mode_of(event) == join_links.APPROVAL,
    )


def number_form_token(code: str) -> str:
    return signed_token(f"{SUBJECT}:{code}")


def number_form_valid(code: str, token: str | None) -> bool:
    return signed_token_valid(f"{SUBJECT}:{code}", token)


def pin_form_token(code: str, e164: str) -> str:
    return signed_token(f"{SUBJECT}:{code}:pin:{e164}")


def pin_form_valid(code: str, e164: str, token: str | None) -> bool:
    return signed_token_valid(f"{SUBJECT}:{code}:pin:{e164}", token)


def send_pin(code: str, e164: str, source_ip: str, language: str | None = None) -> None:
    """Text a pin worded for joining, in the page's ``language``, as ``POST /auth`` does (its limits: 429 beyond;
    the month's text budget: 503), once the code still opens an event."""
    join_links.event_of_code(code)
    auth.request_pin(e164, source_ip, purpose=auth.PinPurpose.JOIN, language=language)


def join_with_pin(code: str, e164: str, pin: str, source_ip: str, full_name: str = "") -> str | None:
    """Check the pin (400 when wrong, 429 past the address's tries), then join. The code of the person's own
    guest page when they are an invitee now (or were), None when their request waits for the hosts, and
    ``JOINED_WITHOUT_PAGE`` when they joined but the page link could not be made (a saved join answers).
    ``full_name`` (validated by the caller) names the person to the hosts, unless their app account has a name."""
    join_links.event_of_code(code)  # 404 before the pin is spent when the link was replaced meanwhile
    user_id = auth.prove_number(e164, pin, source_ip, auth.PinPurpose.JOIN)
    user = get_user(user_id) if user_id is not None else None
    if user is None:
        user, _ = find_or_create_user(e164, active=False)
    if full_name and (not user.is_active or not user.full_name):
        user = update_profile(user, {"full_name": full_name})
    outcome = join_links.join(user, code)
    if not outcome.joined:
        return None
    page_code = built_or_none(lambda: _page_link(outcome.event_id, user.id))
    return JOINED_WITHOUT_PAGE if page_code is None else page_code


JOINED_WITHOUT_PAGE = ""  # joined, but the link to the guest's page could not be made just then (an AWS fault)


def _page_link(event_id: int, user_id: int) -> str:
    """A new code of the guest page of ``user_id``'s invitation."""
    invitation = invitation_store.find_invitation(event_id, user_id)
    if invitation is None:
        raise NotFound()
    page_code = invite_links.new_code(event_id)
    invitation_store.give_page_link(invitation, invite_links.hash_code(page_code))
    return page_code
