"""Events, invitations and RSVPs: the rules (openapi.yaml, tag "events"). No chalice imports.

Reads:
- one event (detail, edits, RSVP checks): one Query of its partition, then one BatchGetItem of
  the people in it (100 keys a call, in parallel beyond that);
- a person's events (list, timeline, stats): a Query of the ``by_user`` index, then the page's
  partitions queried in parallel, then one parallel round of BatchGetItem for all the people.

Writes that have limits are conditional: accept is a transaction of the invitation (its previous
reply as condition, so a repeated accept never counts twice) and the META counters (condition
``total_spots = 0 OR spots_filled < total_spots``); filling spots by hand is conditional on the
total read. Cancel marks META (which every read of an event checks); the flag on every invitation
item (so the ``by_user`` reads can drop it without reading META) is written off the request path,
by the notifications queue handler.

Each trigger of a notification (create and invite: new invite; RSVP; edit; cancel) hands one
message to ``notifications.enqueue`` after its own writes; people without an account are texted
here instead, and pushes skip them.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime

from pynamodb.exceptions import PutError, TransactGetError, TransactWriteError, UpdateError

from chalicelib import notify, sms
from chalicelib.config import get_settings
from chalicelib.errors import Conflict, NotFound, PermissionDenied, Throttled, ValidationError
from chalicelib.ids import MAX_ID, new_id
from chalicelib.models.auth import RateCounter
from chalicelib.models.base import transact_get, transact_write
from chalicelib.models.events import (
    GUEST,
    INVITATION_PREFIX,
    META_SK,
    OWNER,
    Event,
    Invitation,
    Location,
    date_key,
    date_of_key,
    event_pk,
    invitation_sk,
)
from chalicelib.models.users import PHONE_SK, PhoneClaim, User, phone_of, phone_pk, user_pk
from chalicelib.parallel import chunks, parallel_map
from chalicelib.services import invite_links, notifications
from chalicelib.services.ratelimit import Limit, RollingLimit
from chalicelib.services.users import find_or_create_user
from chalicelib.store.batch import batch_get
from chalicelib.store.conditions import condition_failed, conflicted
from chalicelib.store.events import (
    TRANSACTION_ITEMS,
    EventView,
    flag_invitations_cancelled,
    load_partition,
    update_all,
)
from chalicelib.store.users import get_users
from chalicelib.timeutil import format_datetime, utcnow

log = logging.getLogger("invites")

EVENT_FULL = "This event is full."
EVENT_CANCELLED = "This event has been cancelled."
INVALID_PAGE = "Invalid page."
TIMELINE_PAGE = 30
_ATTEMPTS = 5

SAMPLE_RSVP_REPLIES = (
    {"id": 1, "text": "Count me in!", "type": "accept"},
    {"id": 2, "text": "See you there.", "type": "accept"},
    {"id": 3, "text": "Wouldn't miss it.", "type": "accept"},
    {"id": 4, "text": "I'll bring snacks.", "type": "accept"},
    {"id": 5, "text": "Sorry, I can't make it.", "type": "reject"},
    {"id": 6, "text": "Maybe next time.", "type": "reject"},
    {"id": 7, "text": "I have other plans.", "type": "reject"},
    {"id": 8, "text": "Have fun without me!", "type": "reject"},
)


# --------------------------------------------------------------------------- values in and out


@dataclass
class EventInput:
    """Validated fields of a create or an edit; None means "not sent"."""

    title: str | None = None
    event_date: datetime | None = None
    is_time_specified: bool | None = None
    total_spots: int | None = None
    invite_phone_numbers: list[str] | None = None
    location: dict | None = None  # {"latitude", "longitude"}; {} to clear
    address: str | None = None
    venue_name: str | None = None
    spot_filled: int | None = None


@dataclass
class EventPage:
    count: int
    views: list[EventView]


def parse_id(raw: str | None) -> int:
    """A path id; anything that is not a positive 53-bit integer is simply not found."""
    if not raw or not raw.isascii() or not raw.isdigit() or len(raw) > 16:
        raise NotFound()
    value = int(raw)
    if value <= 0 or value > MAX_ID:
        raise NotFound()
    return value


def whole_seconds(value: datetime) -> datetime:
    return value.replace(microsecond=0)


# --------------------------------------------------------------------------- parallel reads


def _with_users(views: list[EventView]) -> list[EventView]:
    people: set[int] = set()
    for view in views:
        people |= view.people()
    users = get_users(people)
    for view in views:
        view.users = users
    return views


def _participant_view(caller: User, event_id: int) -> EventView:
    """The event as its owner or an invitee may see it (no people yet); 404 for anyone else."""
    view = load_partition(event_id)
    if view is None or view.invitation_of(caller.id) is None and view.event.owner_id != caller.id:
        raise NotFound()
    return view


def get_event(caller: User, event_id: int) -> EventView:
    """Detail: one Query plus one BatchGetItem."""
    return _with_users([_participant_view(caller, event_id)])[0]


def _require_owner(caller: User, view: EventView) -> None:
    if view.event.owner_id != caller.id:
        raise PermissionDenied()


def _require_live(event: Event) -> None:
    if event.cancelled:
        raise Conflict(EVENT_CANCELLED)


# --------------------------------------------------------------------------- invitees and texts


@dataclass
class _Invitees:
    users: list[User]
    to_text: list[User]  # people without an active account: they learn of the invitation by SMS


def _find_users_by_phone(numbers: list[str]) -> dict[str, User]:
    """Registered (or invited) users of ``numbers``: two BatchGetItem rounds, no writes."""
    claims: dict[str, int] = {}

    for claim in batch_get(PhoneClaim, [(phone_pk(number), PHONE_SK) for number in numbers], consistent_read=True):
        claims[phone_of(claim.pk)] = claim.user_id
    users = get_users(claims.values())
    return {number: users[uid] for number, uid in claims.items() if uid in users}


def _take_owner_texts(limit: Limit, now: float, wanted: int) -> int:
    """Take up to ``wanted`` texts from the owner's hourly quota; how many it had left (maybe 0).

    Never a 429: an answer that changed when the quota runs out would tell the owner which numbers
    have no account (they are the ones texted). Each add is conditional on the room it assumes, so
    parallel requests never take more than the quota: all ``wanted`` first, else what a read shows."""
    counter = RateCounter(limit.key(now))
    take = wanted
    for _ in range(_ATTEMPTS):
        if take <= 0:
            return 0
        condition = RateCounter.pk.does_not_exist() | (RateCounter.count <= limit.limit - take)
        try:
            counter.update(actions=limit.increment_actions(now, by=take), condition=condition)
            return take
        except UpdateError as exc:
            if not condition_failed(exc):
                raise
        try:
            used = RateCounter.get(limit.key(now), consistent_read=True).count
        except RateCounter.DoesNotExist:
            used = 0
        take = min(wanted, limit.limit - used)
    return 0


def _stranger_limit(person: User) -> RollingLimit:
    """Invitation texts to a number without an active user, from all owners together: a few in any
    24 hours, so nobody can use the service to flood a stranger's phone."""
    return RollingLimit("invite-sms-to", person.phone_number, get_settings().invite_sms_per_stranger_per_day)


def _texts_allowed(owner: User, people: list[User]) -> list[User]:
    """Those of ``people`` the limits let text now, counted: the owner's hourly quota (the first as
    far as it goes), then each number's daily cap. Two rounds: the owner's quota and the numbers'
    counts read side by side, then the numbers' adds; texts the caps refuse go back to the owner."""
    owner_limit = Limit("invite-sms", str(owner.id), get_settings().invite_sms_per_owner_per_hour)
    now = time.time()
    jobs = [lambda: _take_owner_texts(owner_limit, now, len(people))]
    jobs += [lambda person=person: _stranger_limit(person).read(now) for person in people]
    taken, *counts = parallel_map(lambda job: job(), jobs)

    def charge(index: int) -> bool:
        limit = _stranger_limit(people[index])
        try:
            limit.check(counts[index], 1, now)
            limit.commit(counts[index], 1, now)
        except Throttled:
            return False
        return True

    allowed = parallel_map(charge, list(range(taken)))
    chosen = [people[index] for index in range(taken) if allowed[index]]
    if len(chosen) < taken:
        RateCounter(owner_limit.key(now)).update(actions=[RateCounter.count.add(len(chosen) - taken)])
    return chosen


def _resolve_invitees(owner: User, numbers: list[str], *, skip_user_ids: set[int]) -> _Invitees:
    """Users for ``numbers`` (made inactive when unknown); those without an active account are to be texted."""
    numbers = [number for number in dict.fromkeys(numbers) if number != owner.phone_number]
    if not numbers:
        return _Invitees([], [])
    known = _find_users_by_phone(numbers)
    new_numbers = [number for number in numbers if number not in known]
    fresh = [number for number in numbers if number not in known or known[number].id not in skip_user_ids]
    made = parallel_map(lambda number: find_or_create_user(number, active=False)[0], new_numbers)
    known.update(dict(zip(new_numbers, made, strict=True)))
    users = [known[number] for number in fresh if known[number].id not in skip_user_ids]
    return _Invitees(users, [user for user in users if not user.is_active])


def invitation_text(owner: User, event: Event, link: str = "") -> str:
    """The invitation SMS: the service's own words first, the inviter's name and the title made one
    line and cut so the whole text (``link`` included, kept whole) takes at most the allowed segments.
    With a link (the guest's event page) it asks to answer there, else to get the app."""
    settings = get_settings()
    when = event.event_date.strftime("%b %d, %Y at %H:%M UTC" if event.is_time_specified else "%b %d, %Y")
    service = settings.service_name
    reply = f"Answer here: {link}" if link else f"Get the {service} app to reply."

    def template(who: str, title: str) -> str:
        return f'{service} invitation: {who} invited you to "{title}" on {when}. {reply}'

    return sms.fit(template, owner.full_name or owner.phone_number, event.title, settings.invite_sms_max_segments)


def _send_invitation_texts(owner: User, event: Event, people: list[User], links: dict[int, str]) -> None:
    """Text the invitees without an account, each with the link to their event page, as far as the
    limits allow; the invitations stand either way, and the answer is the same. A failed text is
    logged, never undoes the invitation."""
    if not people:
        return
    chosen = _texts_allowed(owner, people)
    if len(chosen) < len(people):
        log.info("invitation texts not sent: %d of %d over a limit", len(people) - len(chosen), len(people))

    def send(person: User) -> None:
        try:
            notify.send_sms(person.phone_number, invitation_text(owner, event, links.get(person.id, "")))
        except Exception:  # noqa: BLE001 - the invitation stands; the text is best effort
            log.warning("invitation text failed for user %s", person.id)

    parallel_map(send, chosen)


def _enqueue_new_invites(owner: User, event: Event, invited: list[User]) -> None:
    """One push message for the invitees who have an account (the others were texted)."""
    with_account = [user.id for user in invited if user.is_active]
    if with_account:
        notifications.enqueue(notifications.NEW_INVITE, event_id=event.id, actor_id=owner.id, user_ids=with_account)


def _distinct_ids(count: int) -> list[int]:
    ids: set[int] = set()
    while len(ids) < count:
        ids.add(new_id())
    return sorted(ids)


def _new_invitation(event: Event, user_id: int, role: str, invitation_id: int, now: datetime) -> Invitation:
    return Invitation(
        event_pk(event.id),
        invitation_sk(user_id),
        id=invitation_id,
        event_id=event.id,
        user_id=user_id,
        owner_id=event.owner_id,
        role=role,
        has_seen=role == OWNER,
        has_accepted=True if role == OWNER else None,
        rsvp_message="",
        cancelled=False,
        user_pk=user_pk(user_id),
        date_key=date_key(event.event_date, event.id),
        created=now,
    )


# --------------------------------------------------------------------------- create


def _location(value: dict | None) -> Location | None:
    if not value:
        return None
    return Location(latitude=value["latitude"], longitude=value["longitude"])


def _remind_day(event_date: datetime) -> str:
    return format_datetime(event_date)[:10]


def create_event(owner: User, data: EventInput) -> EventView:
    """Store the event, the owner's invitation and one per invitee; text those without an account."""
    event_date = whole_seconds(data.event_date)
    invitees = _resolve_invitees(owner, data.invite_phone_numbers or [], skip_user_ids={owner.id})
    now = utcnow()
    for _ in range(_ATTEMPTS):
        event_id = new_id()
        event = Event(
            event_pk(event_id),
            META_SK,
            id=event_id,
            owner_id=owner.id,
            title=data.title,
            event_date=event_date,
            is_time_specified=bool(data.is_time_specified),
            total_spots=data.total_spots or 0,
            accepted_count=0,
            spots_filled_by_hand=0,
            spots_filled=0,
            location=_location(data.location),
            address=data.address or "",
            venue_name=data.venue_name or "",
            cancelled=False,
            message_count=0,
            poll_count=0,
            remind_day=_remind_day(event_date),
            date_key=date_key(event_date, event_id),
            created=now,
            modified=now,
        )
        ids = _distinct_ids(len(invitees.users) + 1)
        invitations = [_new_invitation(event, owner.id, OWNER, ids[0], now)]
        invitations += [
            _new_invitation(event, user.id, GUEST, inv_id, now)
            for user, inv_id in zip(invitees.users, ids[1:], strict=True)
        ]
        texted = {user.id for user in invitees.to_text}
        links = invite_links.attach_links(inv for inv in invitations if inv.user_id in texted)
        if _write_new_event(event, invitations):
            break
    else:
        raise RuntimeError("could not draw a free event id")
    _send_invitation_texts(owner, event, invitees.to_text, links)
    _enqueue_new_invites(owner, event, invitees.users)
    users = {user.id: user for user in invitees.users}
    users[owner.id] = owner
    return EventView(event, invitations, users=users)


def _write_new_event(event: Event, invitations: list[Invitation]) -> bool:
    """META and the first 99 invitations in one transaction (False on an id clash), the rest after."""
    first = invitations[: TRANSACTION_ITEMS - 1]
    rest = chunks(invitations[len(first) :], TRANSACTION_ITEMS)
    try:
        with transact_write() as transaction:
            transaction.save(event, condition=Event.pk.does_not_exist())
            for invitation in first:
                transaction.save(invitation)
    except TransactWriteError as exc:
        if condition_failed(exc, 0):
            return False
        raise
    parallel_map(_save_all, rest)
    return True


def _save_all(items: list) -> None:
    with transact_write() as transaction:
        for item in items:
            transaction.save(item)


# --------------------------------------------------------------------------- lists


def _by_user_filter(role: str | None):
    condition = Invitation.cancelled == False  # noqa: E712 - a PynamoDB condition, not a comparison
    if role is not None:
        condition &= Invitation.role == role
    return condition


def _after_key(moment: datetime) -> str:
    """Every date_key of an event strictly after ``moment`` sorts above this."""
    return f"{format_datetime(moment)}#~"


def _before_key(moment: datetime) -> str:
    """Every date_key of an event strictly before ``moment`` sorts below this."""
    if moment.microsecond:  # the events of its whole second are before it (no +1 s: 9999-12-31T23:59:59.5 is valid)
        return f"{format_datetime(moment)}#~"
    return format_datetime(moment)


def _load_events(event_ids: list[int]) -> list[EventView]:
    """Round 2 and 3: the partitions in parallel, then everyone in them in one parallel round."""
    views = parallel_map(lambda event_id: load_partition(event_id, consistent=False), event_ids)
    return _with_users([view for view in views if view is not None and not view.event.cancelled])


def list_events(
    caller: User,
    *,
    after: datetime | None = None,
    before: datetime | None = None,
    i_am_owner: bool | None = None,
    page: int = 1,
    per_page: int = 30,
) -> EventPage:
    """The caller's live events by date then id; ``page`` past the end is 404 "Invalid page."."""
    if after is not None and before is not None:
        range_condition = Invitation.date_key.between(_after_key(after), _before_key(before))
    elif after is not None:
        range_condition = Invitation.date_key > _after_key(after)
    elif before is not None:
        range_condition = Invitation.date_key < _before_key(before)
    else:
        range_condition = None
    role = None if i_am_owner is None else (OWNER if i_am_owner else GUEST)
    if after is not None and before is not None and _after_key(after) >= _before_key(before):
        keys = []
    else:
        keys = [
            inv.event_id
            for inv in Invitation.by_user.query(
                user_pk(caller.id), range_key_condition=range_condition, filter_condition=_by_user_filter(role)
            )
        ]
    count = len(keys)
    pages = max(1, -(-count // per_page))
    if page < 1 or page > pages:
        raise NotFound(INVALID_PAGE)
    return EventPage(count, _load_events(keys[(page - 1) * per_page : page * per_page]))


def timeline(caller: User, kind: str, cursor: datetime | None) -> list[EventView]:
    """Newest first, 30 a page, never ending inside a run of equal dates; ``cursor`` exclusive."""
    role = OWNER if kind == "sent" else GUEST
    range_condition = Invitation.date_key < _before_key(cursor) if cursor is not None else None
    picked: list[Invitation] = []
    for inv in Invitation.by_user.query(
        user_pk(caller.id),
        range_key_condition=range_condition,
        filter_condition=_by_user_filter(role),
        scan_index_forward=False,
    ):
        if len(picked) >= TIMELINE_PAGE and _date_of(inv) != _date_of(picked[-1]):
            break
        picked.append(inv)
    return _load_events([inv.event_id for inv in picked])


def _date_of(inv: Invitation) -> str:
    return date_of_key(inv.date_key)


def unresponded_count(caller: User) -> int:
    """Invitations (not as owner) to live future events with no reply: one COUNT Query."""
    condition = _by_user_filter(GUEST) & Invitation.has_accepted.does_not_exist()
    return Invitation.count(
        user_pk(caller.id),
        range_key_condition=Invitation.date_key > _after_key(utcnow()),
        filter_condition=condition,
        index_name=Invitation.by_user.Meta.index_name,
    )


# --------------------------------------------------------------------------- RSVP


def rsvp(caller: User, event_id: int, *, accept: bool, message: str | None) -> Invitation:
    """Accept or reject; the last reply counts. Counts a guest once however often they accept.

    One transaction writes the reply on the condition that the previous one is still there, and moves
    the event's counters when the reply changes whether the guest comes; a refused transaction is read
    again to tell "cancelled" or "full" from "the reply moved meanwhile" (then tried again)."""
    for _ in range(_ATTEMPTS):
        invitation = _guest_invitation(caller, event_id)
        previous_reply = invitation.has_accepted
        now = utcnow()
        try:
            _write_reply(invitation, event_id, accept=accept, message=message or "", now=now)
        except TransactWriteError as exc:
            _raise_unless_worth_retrying(exc, event_id, caller.id, joining=accept and previous_reply is not True)
            continue
        invitation.has_accepted, invitation.rsvp_message, invitation.rsvp_time = accept, message or "", now
        if previous_reply is not accept:  # a repeated reply tells the owner nothing new
            notifications.enqueue(
                notifications.INVITE_RSVP, event_id=event_id, actor_id=caller.id, accepted=accept, message=message or ""
            )
        return invitation
    raise Conflict("The reply changed meanwhile, try again.")


def _guest_invitation(caller: User, event_id: int) -> Invitation:
    """The caller's invitation, read consistently: 404 when not invited, 403 for the owner."""
    try:
        invitation = Invitation.get(event_pk(event_id), invitation_sk(caller.id), consistent_read=True)
    except Invitation.DoesNotExist:
        raise NotFound() from None
    if invitation.role == OWNER:
        raise PermissionDenied()
    return invitation


def _write_reply(invitation: Invitation, event_id: int, *, accept: bool, message: str, now: datetime) -> None:
    """The reply and the counters in one transaction, on condition the reply read is unchanged and the
    event live (and, joining, not full)."""
    was_accepted = invitation.has_accepted is True
    if was_accepted:
        unchanged = Invitation.has_accepted == True  # noqa: E712
    else:
        unchanged = Invitation.has_accepted.does_not_exist() | (Invitation.has_accepted == False)  # noqa: E712
    live = Event.cancelled == False  # noqa: E712
    actions = [Invitation.has_accepted.set(accept), Invitation.rsvp_message.set(message), Invitation.rsvp_time.set(now)]
    event_key = Event(event_pk(event_id), META_SK)
    with transact_write() as transaction:
        transaction.update(invitation, actions=actions, condition=unchanged)
        if accept and not was_accepted:
            room = (Event.total_spots == 0) | (Event.spots_filled < Event.total_spots)
            room &= Event.spots_filled < get_settings().max_spots_filled
            transaction.update(event_key, actions=_counter_actions(1, now), condition=live & room)
        elif was_accepted and not accept:
            transaction.update(event_key, actions=_counter_actions(-1, now), condition=live)
        else:
            transaction.condition_check(Event, event_pk(event_id), META_SK, condition=live)


def _raise_unless_worth_retrying(exc: TransactWriteError, event_id: int, user_id: int, *, joining: bool) -> None:
    """After a refused reply: 409 when the event is cancelled, or full for a guest joining it; returns when
    the reply moved meanwhile or another transaction held an item (try again); re-raises anything else.

    Which condition failed is decided by reading again, not by the reasons' positions (emulators do not
    always report them per item)."""
    if conflicted(exc):
        return
    if not condition_failed(exc):
        raise exc
    snapshot = _event_and_reply(event_id, user_id)
    if snapshot is None:
        return
    event, reply = snapshot
    _require_live(event)
    if joining and _is_full(event) and reply is not True:
        raise Conflict(EVENT_FULL) from None


def _is_full(event: Event) -> bool:
    full = bool(event.total_spots) and event.spots_filled >= event.total_spots
    return full or event.spots_filled >= get_settings().max_spots_filled


def _event_and_reply(event_id: int, user_id: int) -> tuple[Event, bool | None] | None:
    """META and the caller's reply at one instant (TransactGetItems), so "full" means full of others' spots:
    two reads could straddle a parallel reply of the caller's own. None when a write held them (try again)."""
    try:
        with transact_get() as transaction:
            event = transaction.get(Event, event_pk(event_id), META_SK)
            invitation = transaction.get(Invitation, event_pk(event_id), invitation_sk(user_id))
    except TransactGetError as exc:
        if conflicted(exc):
            return None
        raise
    return event.get(), invitation.get().has_accepted


def _counter_actions(delta: int, now: datetime) -> list:
    return [Event.accepted_count.add(delta), Event.spots_filled.add(delta), Event.modified.set(now)]


def mark_seen(caller: User, event_id: int, invitation_id: int) -> Invitation:
    """Only the invited person marks their invitation seen; one Query and one UpdateItem."""
    invitations = list(
        Invitation.query(event_pk(event_id), Invitation.sk.startswith(INVITATION_PREFIX), consistent_read=True)
    )
    if not any(inv.user_id == caller.id for inv in invitations):
        raise NotFound()
    target = next((inv for inv in invitations if inv.id == invitation_id), None)
    if target is None:
        raise NotFound()
    if target.user_id != caller.id:
        raise PermissionDenied()
    if not target.has_seen:
        target.update(actions=[Invitation.has_seen.set(True)], condition=Invitation.pk.exists())
    return target


# --------------------------------------------------------------------------- edits and cancel


def update_event(caller: User, event_id: int, data: EventInput) -> EventView:
    """Owner only: invite more numbers, fill spots by hand, edit the event. 409 once cancelled."""
    view = _participant_view(caller, event_id)
    _require_owner(caller, view)
    _require_live(view.event)
    new_total = data.total_spots if data.total_spots is not None else view.event.total_spots
    _check_spots(view.event, new_total, data.spot_filled or 0)
    # unknown numbers are made into users before the event changes
    existing = {inv.user_id for inv in view.invitations}
    invitees = _resolve_invitees(caller, data.invite_phone_numbers or [], skip_user_ids=existing)
    for _ in range(_ATTEMPTS):
        event = view.event
        new_total = data.total_spots if data.total_spots is not None else event.total_spots
        _check_spots(event, new_total, data.spot_filled or 0)
        actions, condition = _edit_actions(event, data, new_total)
        try:
            event.update(actions=actions, condition=condition)
            break
        except UpdateError as exc:
            if not condition_failed(exc):
                raise
            view = _participant_view(caller, event_id)  # counters moved or the event was cancelled
            _require_live(view.event)
    else:
        raise Conflict("The event changed meanwhile, try again.")
    if data.event_date is not None:
        _move_invitations(view, event)
    added = _invite_more(caller, view, invitees) if invitees.users else []
    changed = [name for name in notifications.FIELD_WORDS if getattr(data, name) is not None]
    if changed:
        notifications.enqueue(
            notifications.EVENT_CHANGED, event_id=event_id, actor_id=caller.id, fields=changed, exclude=added
        )
    return _with_users([view])[0]


def _check_spots(event: Event, new_total: int, filling: int) -> None:
    """400 when filling by hand, or lowering total_spots, would put spots_filled past the total, or
    filling would put it past ``MAX_SPOTS_FILLED`` (beyond what every client's numbers hold exactly)."""
    room = get_settings().max_spots_filled - event.spots_filled
    if filling > room:
        raise ValidationError.field("spot_filled", f"Ensure this value is less than or equal to {max(0, room)}.")
    if new_total and event.spots_filled + filling > new_total:
        if filling:
            left = max(0, new_total - event.spots_filled)
            raise ValidationError.field("spot_filled", f"Only {left} spots are left.")
        raise ValidationError.field(
            "total_spots", f"Ensure this value is greater than or equal to {event.spots_filled}."
        )


def _edit_actions(event: Event, data: EventInput, new_total: int) -> tuple[list, object]:
    now = utcnow()
    actions = [Event.modified.set(now)]
    condition = Event.cancelled == False  # noqa: E712
    if data.total_spots is not None or data.spot_filled:
        # the check of _check_spots holds only for the counters it read; the cap is written out as well
        condition &= (Event.total_spots == event.total_spots) & (Event.spots_filled == event.spots_filled)
    if data.spot_filled:
        condition &= Event.spots_filled <= get_settings().max_spots_filled - data.spot_filled
    if data.title is not None:
        actions.append(Event.title.set(data.title))
    if data.event_date is not None:
        event_date = whole_seconds(data.event_date)
        actions += [
            Event.event_date.set(event_date),
            Event.date_key.set(date_key(event_date, event.id)),
            Event.remind_day.set(_remind_day(event_date)),
        ]
    if data.is_time_specified is not None:
        actions.append(Event.is_time_specified.set(data.is_time_specified))
    if data.total_spots is not None:
        actions.append(Event.total_spots.set(new_total))
    if data.location is not None:
        location = _location(data.location)
        actions.append(Event.location.set(location) if location else Event.location.remove())
    if data.address is not None:
        actions.append(Event.address.set(data.address))
    if data.venue_name is not None:
        actions.append(Event.venue_name.set(data.venue_name))
    if data.spot_filled:
        actions += [Event.spots_filled_by_hand.add(data.spot_filled), Event.spots_filled.add(data.spot_filled)]
    return actions, condition


def _move_invitations(view: EventView, event: Event) -> None:
    """A new date moves every invitation in the ``by_user`` index: ceil(n / 100) transactions."""
    new_key = date_key(event.event_date, event.id)
    for invitation in view.invitations:
        invitation.date_key = new_key
    parallel_map(
        lambda chunk: update_all(chunk, [Invitation.date_key.set(new_key)]),
        chunks(view.invitations, TRANSACTION_ITEMS),
    )


def _invite_more(owner: User, view: EventView, invitees: _Invitees) -> list[int]:
    """Store the new invitations (text or push their people); returns their user ids."""
    now = utcnow()
    ids = _distinct_ids(len(invitees.users))
    added = [
        _new_invitation(view.event, user.id, GUEST, inv_id, now)
        for user, inv_id in zip(invitees.users, ids, strict=True)
    ]
    texted = {user.id for user in invitees.to_text}
    links = invite_links.attach_links(inv for inv in added if inv.user_id in texted)

    def save(chunk: list[Invitation]) -> list[Invitation]:
        # a person invited by a parallel edit keeps that invitation (and its reply)
        try:
            with transact_write() as transaction:
                for invitation in chunk:
                    transaction.save(invitation, condition=Invitation.pk.does_not_exist())
            return chunk
        except TransactWriteError as exc:
            if not condition_failed(exc):
                raise
        saved = []
        for invitation in chunk:
            try:
                invitation.save(condition=Invitation.pk.does_not_exist())
                saved.append(invitation)
            except PutError as exc:
                if not condition_failed(exc):
                    raise
        return saved

    stored = [inv for chunk in parallel_map(save, chunks(added, TRANSACTION_ITEMS)) for inv in chunk]
    view.invitations += stored
    invited = {inv.user_id for inv in stored}
    _send_invitation_texts(owner, view.event, [user for user in invitees.to_text if user.id in invited], links)
    _enqueue_new_invites(owner, view.event, [user for user in invitees.users if user.id in invited])
    return sorted(invited)


def cancel_event(caller: User, event_id: int) -> None:
    """Owner only, idempotent: one Query and one UpdateItem of META, whatever the number of invitees.

    Every read of the event checks META (detail, lists, timeline), so it is cancelled from here on.
    The ``cancelled`` copy on each invitation (for the ``by_user`` COUNT of stats) and the pushes to
    the invitees are one ``event_cancelled`` message; the queue handler writes the flags
    (ceil(invitations / 100) TransactWriteItems). If the message cannot be queued, the flags are
    written here instead. A repeated cancel queues it again while any flag is missing."""
    view = _participant_view(caller, event_id)
    _require_owner(caller, view)
    was_live = not view.event.cancelled
    if was_live:
        view.event.update(
            actions=[Event.cancelled.set(True), Event.remind_day.remove(), Event.modified.set(utcnow())],
            condition=Event.pk.exists(),
        )
    if was_live or any(not inv.cancelled for inv in view.invitations):
        if not notifications.enqueue(notifications.EVENT_CANCELLED, event_id=event_id, actor_id=caller.id):
            flag_invitations_cancelled(view)
