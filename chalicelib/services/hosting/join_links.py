"""Joining an event by its link: the hosts' link, joining (open events) or asking to join (events that want
approval), and the hosts' decisions on the requests. No chalice imports.

A link's code is 24 random bytes (192 bits), URL-safe; only its SHA-256 is stored, on the event and as the
key of a lookup item, so a join is one GetItem and one Query of the event's partition. A new link replaces
the old one in the same transaction: the old code finds nothing from then on.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import secrets
from dataclasses import dataclass

from chalicelib import invite_links, kept_secrets, limits, store
from chalicelib.config import get_settings
from chalicelib.domain import invitation_insight
from chalicelib.domain.event_fields import JOIN_MODES
from chalicelib.domain.roles import Action, Role, require
from chalicelib.errors import Conflict, NotFound, Throttled
from chalicelib.ids import new_id
from chalicelib.messaging import notifications
from chalicelib.messaging.notifications.kinds import kind_named
from chalicelib.retry import AttemptsSpent, TryAgain, retry
from chalicelib.services.guards.ratelimit import RollingLimit, charge_together
from chalicelib.services.hosting.invitees import guest_count
from chalicelib.services.participants.event_reads import permitted_view, require_live, role_in
from chalicelib.services.texts import text_outbox
from chalicelib.services.texts.invitation_texts import reachable, send_invitation_texts
from chalicelib.store import join_links as store_links
from chalicelib.store import removals as removal_store
from chalicelib.store.events import GUEST, load_partition, new_invitation
from chalicelib.store.users import get_users
from chalicelib.timeutil import utcnow

# The queue kinds sent from here (each declared with its handler)
JOIN_REQUESTED = kind_named("join_requested")
NEW_INVITE = kind_named("new_invite")

OPEN, APPROVAL, INVITE_ONLY = "open", "approval", "invite_only"
CODE_BYTES = 24
_CODE = re.compile(r"[A-Za-z0-9_-]{32}")
OVER = "This event is over."
NO_ROOM = "This event cannot take more guests."
# A host who lets 200 requests pile up decides some of them before more are taken; an hour is a fair wait.
PENDING_FULL_RETRY_SECONDS = 3600
REPLACE_ATTEMPTS = 5


@dataclass
class JoinOutcome:
    event_id: int
    joined: bool  # True: the caller is an invitee now (or was); False: their request is pending


def _hash(code: str) -> str:
    return hashlib.sha256(code.encode("ascii")).hexdigest()


def join_url(code: str) -> str:
    return f"{get_settings().public_base_url.rstrip('/')}/j/{code}"


def join_mode_of(event) -> str:
    return event.join_mode or JOIN_MODES[0]


def new_join_link(caller, event_id: int) -> tuple[str, str]:
    """A new code for the event (owner, co-hosts), replacing any earlier one; its URL and the event's join mode."""

    def replace(_attempt: int) -> tuple[str, str]:
        view = permitted_view(caller, event_id, Action.SHARE_JOIN_LINK)
        require_live(view.event)
        code = kept_secrets.issued(secrets.token_urlsafe(CODE_BYTES))
        try:
            store_links.replace_code(view.event, _hash(code))
        except (store.Refused, store.Contended):
            raise TryAgain() from None  # another host replaced it meanwhile: read again
        return join_url(code), join_mode_of(view.event)

    try:
        return retry(replace, attempts=REPLACE_ATTEMPTS)
    except AttemptsSpent:
        raise Conflict("The event changed meanwhile, try again.") from None


def event_of_code(code: object):
    """The event view a current code opens to joining, or NotFound (unknown, replaced, invite-only, deleted)."""
    if not isinstance(code, str) or not _CODE.fullmatch(code):
        raise NotFound()
    code_hash = _hash(code)
    event_id = store_links.event_of_code(code_hash)
    view = load_partition(event_id) if event_id is not None else None
    if view is None or view.event.join_code_hash != code_hash or join_mode_of(view.event) == INVITE_ONLY:
        raise NotFound()
    return view


def _is_over(event) -> bool:
    return bool(event.cancelled) or event.event_date <= utcnow()


def join(caller, code: object) -> JoinOutcome:
    """Join by a link's code as the signed-in caller: an invitee of an ``open`` event at once, a pending
    request for an ``approval`` one. Someone invited already gets the event, unchanged. 404 for a code that
    opens nothing, 409 for a cancelled or past event, 429 past the pending or per-number limits."""
    view = event_of_code(code)
    event = view.event
    role = role_in(caller, view)
    if role in (Role.GUEST, Role.COHOST):
        return JoinOutcome(event.id, joined=True)
    require(Role.LINK_HOLDER if role == Role.STRANGER else role, Action.JOIN)
    if role == Role.STRANGER and removal_store.is_removed(view, caller.id):
        raise NotFound()  # a host removed them: the link opens nothing for them until they are invited again
    if _is_over(event):
        raise Conflict(OVER)
    if join_mode_of(event) == OPEN:
        return _join_now(caller, view)
    return _ask_to_join(caller, event)


def _join_now(caller, view) -> JoinOutcome:
    settings = get_settings()
    if guest_count(view) >= settings.invitees_per_event:
        raise Conflict(NO_ROOM)
    invitation = new_invitation(view.event, caller.id, GUEST, new_id(), utcnow())
    invitation.invited_via = invitation_insight.LINK
    try:
        store_links.save_joined(view.event.id, invitation, settings.invitees_per_event)
    except store.Refused as refused:
        if refused.item_failed(store_links.FIRST_ITEM):
            return JoinOutcome(view.event.id, joined=True)  # a parallel join of the same person landed first
        raise Conflict(OVER if _cancelled(view.event.id) else NO_ROOM) from None
    return JoinOutcome(view.event.id, joined=True)


def _cancelled(event_id: int) -> bool:
    view = load_partition(event_id)
    return view is None or bool(view.event.cancelled)


def _number_limit(caller) -> RollingLimit:
    return RollingLimit.of(limits.JOIN_REQUESTS_PER_NUMBER, caller.phone_number)


def _ask_to_join(caller, event) -> JoinOutcome:
    """One pending request per person and event; asking again answers the same and costs nothing."""
    if any(request.user_id == caller.id for request in store_links.pending_requests(event.id)):
        return JoinOutcome(event.id, joined=False)
    charge_together([(_number_limit(caller), 1)])
    settings = get_settings()
    try:
        store_links.save_request(event.id, caller.id, utcnow(), settings.join_requests_per_event)
    except store.Refused as refused:
        if refused.item_failed(store_links.FIRST_ITEM):
            return JoinOutcome(event.id, joined=False)
        if _cancelled(event.id):
            raise Conflict(OVER) from None
        raise Throttled(PENDING_FULL_RETRY_SECONDS) from None
    notifications.enqueue(JOIN_REQUESTED, event_id=event.id, actor_id=caller.id)
    return JoinOutcome(event.id, joined=False)


def pending(caller, event_id: int) -> list[tuple]:
    """The event's pending requests, oldest first, for its hosts: ``(request, user)`` pairs. A request of a
    deleted account is removed here, so it holds no place under the pending limit."""
    permitted_view(caller, event_id, Action.DECIDE_JOIN_REQUESTS)
    requests = store_links.pending_requests(event_id)
    users = get_users({request.user_id for request in requests}) if requests else {}
    for gone in [request for request in requests if request.user_id not in users]:
        with contextlib.suppress(store.Refused):  # decided meanwhile
            store_links.delete_request(event_id, gone.user_id)  # the account was deleted: its request goes too
    return [(request, users[request.user_id]) for request in requests if request.user_id in users]


def approve(caller, event_id: int, user_id: int) -> None:
    """Make the person who asked an invitee and tell them (a push, or a text with their page link). 404 when
    they have no pending request."""
    view = permitted_view(caller, event_id, Action.DECIDE_JOIN_REQUESTS)
    require_live(view.event)
    settings = get_settings()
    person = get_users({user_id}).get(user_id)
    if person is None:
        raise NotFound()
    invitation = new_invitation(view.event, user_id, GUEST, new_id(), utcnow())
    invitation.invited_via = invitation_insight.LINK  # asked by the join link, approved by a host
    texted = not person.is_active
    links = invite_links.attach_links([invitation]) if texted else {}
    textable = reachable([person]) if texted else []  # before the write: a 503 here changes nothing
    if texted:
        text_outbox.plan([invitation])
    try:
        store_links.approve_request(event_id, invitation, settings.invitees_per_event)
    except store.Refused as refused:
        if refused.item_failed(store_links.FIRST_ITEM):
            raise NotFound() from None
        if refused.item_failed(
            store_links.THIRD_ITEM
        ):  # invited by number meanwhile: the request has nothing left to do
            decline(caller, event_id, user_id)
            return
        raise Conflict(NO_ROOM) from None
    if texted:
        send_invitation_texts(caller, view.event, textable, links, kind=text_outbox.JOIN_APPROVAL)
    else:
        notifications.enqueue(NEW_INVITE, event_id=event_id, actor_id=caller.id, user_ids=[user_id])


def decline(caller, event_id: int, user_id: int) -> None:
    """Remove the request without telling anyone. 404 when there is none."""
    permitted_view(caller, event_id, Action.DECIDE_JOIN_REQUESTS)
    try:
        store_links.delete_request(event_id, user_id)
    except store.Refused:
        raise NotFound() from None
