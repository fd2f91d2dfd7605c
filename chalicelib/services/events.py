"""Events and invitations: create, invite, edit and cancel (openapi.yaml, tag "events"). No chalice imports.

Reading events is in event_reads.py, a guest's reply in replies.py, invitation texts in
event_texts.py; the storage they share in chalicelib/store.

Writes that have limits are conditional: filling spots by hand is conditional on the total read;
an edit of the spots is conditional on the counters it read. Cancel marks META (which every read
of an event checks); the flag on every invitation item (so the ``by_user`` reads can drop it
without reading META) is written off the request path, by the notifications queue handler.

Each trigger of a notification (create and invite: new invite; edit; cancel) hands one message
to ``notifications.enqueue`` after its own writes; people without an account are texted instead,
and pushes skip them.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from pynamodb.exceptions import PutError, TransactWriteError, UpdateError

from chalicelib.config import get_settings
from chalicelib.errors import Conflict, NotFound, ValidationError
from chalicelib.ids import MAX_ID, new_id
from chalicelib.models.base import transact_write
from chalicelib.models.events import (
    GUEST,
    META_SK,
    OWNER,
    Event,
    Invitation,
    Location,
    date_key,
    event_pk,
    invitation_sk,
)
from chalicelib.models.users import PHONE_SK, PhoneClaim, User, phone_of, phone_pk, user_pk
from chalicelib.parallel import chunks, parallel_map
from chalicelib.services import event_calendar, invite_links, notifications
from chalicelib.services.event_reads import participant_view, require_live, require_owner, with_users
from chalicelib.services.event_texts import send_invitation_texts
from chalicelib.services.users import find_or_create_user
from chalicelib.store.batch import batch_get
from chalicelib.store.conditions import condition_failed
from chalicelib.store.events import (
    TRANSACTION_ITEMS,
    EventView,
    flag_invitations_cancelled,
    update_all,
)
from chalicelib.store.users import get_users
from chalicelib.timeutil import format_datetime, utcnow

log = logging.getLogger("invites")

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
    time_zone: str | None = None  # an IANA name; "" to clear
    utc_offset_minutes: int | None = None  # the offset event_date was sent with (0 for Z or none)
    duration_minutes: int | None = None


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
            time_zone=data.time_zone or None,
            utc_offset_minutes=data.utc_offset_minutes,
            duration_minutes=data.duration_minutes,
            calendar_sequence=0,
            calendar_modified=now,
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
    send_invitation_texts(owner, event, invitees.to_text, links)
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


# --------------------------------------------------------------------------- edits and cancel


def update_event(caller: User, event_id: int, data: EventInput) -> EventView:
    """Owner only: invite more numbers, fill spots by hand, edit the event. 409 once cancelled."""
    view = participant_view(caller, event_id)
    require_owner(caller, view)
    require_live(view.event)
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
            view = participant_view(caller, event_id)  # counters moved or the event was cancelled
            require_live(view.event)
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
    return with_users([view])[0]


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
    actions += event_calendar.edit_actions(data, now)
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
    send_invitation_texts(owner, view.event, [user for user in invitees.to_text if user.id in invited], links)
    _enqueue_new_invites(owner, view.event, [user for user in invitees.users if user.id in invited])
    return sorted(invited)


def cancel_event(caller: User, event_id: int) -> None:
    """Owner only, idempotent: one Query and one UpdateItem of META, whatever the number of invitees.

    Every read of the event checks META (detail, lists, timeline), so it is cancelled from here on.
    The ``cancelled`` copy on each invitation (for the ``by_user`` COUNT of stats) and the pushes to
    the invitees are one ``event_cancelled`` message; the queue handler writes the flags
    (ceil(invitations / 100) TransactWriteItems). If the message cannot be queued, the flags are
    written here instead. A repeated cancel queues it again while any flag is missing."""
    view = participant_view(caller, event_id)
    require_owner(caller, view)
    was_live = not view.event.cancelled
    if was_live:
        now = utcnow()
        actions = [Event.cancelled.set(True), Event.remind_day.remove(), Event.modified.set(now)]
        view.event.update(actions=actions + event_calendar.revised(now), condition=Event.pk.exists())
    if was_live or any(not inv.cancelled for inv in view.invitations):
        if not notifications.enqueue(notifications.EVENT_CANCELLED, event_id=event_id, actor_id=caller.id):
            flag_invitations_cancelled(view)
