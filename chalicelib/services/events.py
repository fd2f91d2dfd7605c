"""Events and invitations: create, invite, edit and cancel (openapi.yaml, tag "events"). No chalice imports.

Reading events is in event_reads.py, a guest's reply in replies.py, invitation texts in
services/invitation_texts.py; the storage they share in chalicelib/store.

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

from chalicelib import invite_links, store
from chalicelib.config import get_settings
from chalicelib.domain import capacity, event_fields, questions
from chalicelib.domain.roles import Action, Role
from chalicelib.errors import Conflict, OutOfRange, PermissionDenied, ValidationError
from chalicelib.ids import new_id
from chalicelib.messaging import notifications
from chalicelib.retry import AttemptsSpent, TryAgain, retry
from chalicelib.services import guest_texts
from chalicelib.services.event_reads import participant_view, permitted_view, require_live, role_in, with_users
from chalicelib.services.invitation_texts import reachable, send_invitation_texts
from chalicelib.services.invitees import Invitees, check_invitees_fit, resolve_invitees
from chalicelib.services.waitlist import fit_line_to_event, promote_waiting
from chalicelib.store import events as event_store
from chalicelib.store import invitations as invitation_store
from chalicelib.store.events import GUEST, OWNER, EventEdit, EventView, flag_invitations_cancelled
from chalicelib.store.invitations import save_new_invitations
from chalicelib.timeutil import format_datetime, utcnow

log = logging.getLogger("invites")

CREATE_ATTEMPTS = 5  # new event ids drawn before giving up (a clash is all but impossible)
EDIT_ATTEMPTS = 5  # edits re-read after a parallel change of the counters


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
    max_extra_guests: int | None = None
    waitlist: bool | None = None
    spot_filled: int | None = None
    time_zone: str | None = None  # an IANA name; "" to clear
    utc_offset_minutes: int | None = None  # the offset event_date was sent with (0 for Z or none)
    duration_minutes: int | None = None
    rsvp_deadline: datetime | str | None = None  # "" to clear
    replies_paused: bool | None = None
    join_mode: str | None = None
    guest_invites: int | None = None
    guest_list: str | None = None
    place_visibility: str | None = None
    album: str | None = None
    questions: list[dict] | None = None  # as sent (ids not yet the service's); [] to remove them all


# Edits that change what a guest's calendar entry shows: each one grows its SEQUENCE (store.events.EventEdit).
CALENDAR_FIELDS = event_fields.CALENDAR_FIELDS


def whole_seconds(value: datetime) -> datetime:
    return value.replace(microsecond=0)


# --------------------------------------------------------------------------- invitees and texts


def _enqueue_new_invites(owner, event, invited: list) -> None:
    """One push message for the invitees who have an account (the others were texted)."""
    with_account = [user.id for user in invited if user.is_active]
    if with_account:
        notifications.enqueue(notifications.NEW_INVITE, event_id=event.id, actor_id=owner.id, user_ids=with_account)


def _distinct_ids(count: int) -> list[int]:
    ids: set[int] = set()
    while len(ids) < count:
        ids.add(new_id())
    return sorted(ids)


# --------------------------------------------------------------------------- create


def _remind_day(event_date: datetime) -> str:
    return format_datetime(event_date)[:10]


def create_event(owner, data: EventInput) -> EventView:
    """Store the event, the owner's invitation and one per invitee; text those without an account."""
    event_date = whole_seconds(data.event_date)
    _check_deadline(data.rsvp_deadline, event_date)
    invitees = resolve_invitees(owner, data.invite_phone_numbers or [], skip_user_ids={owner.id})
    textable = reachable(invitees.to_text)  # before the event is written: a 503 here stores no event
    now = utcnow()
    fields = {
        **{field.name: getattr(data, field.name) for field in event_fields.STORED},  # stored as sent
        "event_date": event_date,
        "location": data.location,
        "invitee_count": len(invitees.users),
        "time_zone": data.time_zone,
        "utc_offset_minutes": data.utc_offset_minutes,
        "duration_minutes": data.duration_minutes,
        "rsvp_deadline": whole_seconds(data.rsvp_deadline) if data.rsvp_deadline else None,
    }
    asked, last_id = questions.assign_ids(data.questions or [], [], 0)

    def draw(_attempt: int):
        event_id = new_id()
        event = event_store.new_event(event_id, owner.id, fields, remind_day=_remind_day(event_date), now=now)
        if asked:
            event.questions, event.question_last_id = asked, last_id
        ids = _distinct_ids(len(invitees.users) + 1)
        invitations = [event_store.new_invitation(event, owner.id, OWNER, ids[0], now)]
        invitations += [
            event_store.new_invitation(event, user.id, GUEST, inv_id, now)
            for user, inv_id in zip(invitees.users, ids[1:], strict=True)
        ]
        texted = {user.id for user in invitees.to_text}
        links = invite_links.attach_links(inv for inv in invitations if inv.user_id in texted)
        if not event_store.save_new_event(event, invitations, invitees.marks):
            raise TryAgain()
        return event, invitations, links

    try:
        event, invitations, links = retry(draw, attempts=CREATE_ATTEMPTS)
    except AttemptsSpent:
        raise RuntimeError("could not draw a free event id") from None
    send_invitation_texts(owner, event, textable, links)
    _enqueue_new_invites(owner, event, invitees.users)
    users = {user.id: user for user in invitees.users}
    users[owner.id] = owner
    return EventView(event, invitations, users=users)


# --------------------------------------------------------------------------- edits and cancel


def update_event(caller, event_id: int, data: EventInput) -> EventView:
    """The owner and co-hosts invite more numbers, fill spots by hand, edit the event; a guest only invites,
    within the event's ``guest_invites`` (domain.roles). 409 once cancelled."""
    view = permitted_view(caller, event_id, _edit_action(data))
    require_live(view.event)
    as_guest = role_in(caller, view) == Role.GUEST
    if as_guest:
        _guest_room(view, caller)
    told_before = guest_texts.told_state(view.event)  # what guests without the app were told, for change texts
    kept_deadline = None if data.rsvp_deadline == "" else (data.rsvp_deadline or view.event.rsvp_deadline)
    _check_deadline(kept_deadline, data.event_date or view.event.event_date)
    new_total = data.total_spots if data.total_spots is not None else view.event.total_spots
    _check_spots(view.event, new_total, data.spot_filled or 0)
    # unknown numbers are made into users before the event changes
    existing = {inv.user_id for inv in view.invitations}
    invitees = resolve_invitees(caller, data.invite_phone_numbers or [], skip_user_ids=existing, view=view)
    adding = len(invitees.users)
    textable = reachable(invitees.to_text)  # before the edit: a 503 here leaves the event as it was
    own = view.invitation_of(caller.id)
    if as_guest and adding and not invitation_store.charge_guest_invites(own, adding, _guest_allowance(view)):
        raise PermissionDenied(CANNOT_INVITE_MORE)
    try:
        view, added = _edit_and_invite(caller, event_id, data, view, invitees, textable, told_before)
    except Exception:
        if as_guest and adding:
            invitation_store.give_back_guest_invites(own, adding)
        raise
    if as_guest and len(added) < adding:  # some were invited by someone else meanwhile: not this guest's
        invitation_store.give_back_guest_invites(own, adding - len(added))
    return view


CANNOT_INVITE_MORE = "You cannot invite more people to this event."


def _guest_allowance(view: EventView) -> int:
    return int(view.event.guest_invites or 0)


def _guest_room(view: EventView, caller) -> None:
    """A guest adds numbers only while the event lets guests invite (else 403 as for any edit) and within
    what is left of their ``guest_invites`` (else 403 saying so). The stored count is checked again by the
    conditional write that charges it."""
    allowed = _guest_allowance(view)
    if not allowed:
        raise PermissionDenied()
    used = int(view.invitation_of(caller.id).guests_invited or 0)
    if used >= allowed:
        raise PermissionDenied(CANNOT_INVITE_MORE)


def _edit_and_invite(
    caller, event_id: int, data: EventInput, view: EventView, invitees, textable, told_before
) -> tuple[EventView, list[int]]:
    """The edit, then the new invitations: the event as it is now and the user ids invited."""
    adding = len(invitees.users)
    before: dict[str, int] = {}  # the total and maximum the edit replaced

    def edit(_attempt: int):
        nonlocal view
        if _attempt:
            view = participant_view(caller, event_id)  # counters moved or the event was cancelled
            require_live(view.event)
        event = view.event
        before.update(total=int(event.total_spots or 0), most=int(event.max_extra_guests or 0))
        new_total = data.total_spots if data.total_spots is not None else event.total_spots
        _check_spots(event, new_total, data.spot_filled or 0)
        edit = _edit_of(data)
        if data.questions is not None:
            held = list(event.questions or [])
            since = max(int(event.question_last_id or 0), questions.last_id_of(held))
            edit.questions, edit.question_last_id = questions.assign_ids(data.questions, held, since)
            edit.questions_read = event.questions or None
        if adding:
            edit.invitees_read = check_invitees_fit(view, adding)
            edit.invitees_added, edit.max_invitees = adding, get_settings().invitees_per_event
        try:
            event_store.edit_event(
                event,
                edit,
                counters_unchanged=data.total_spots is not None or bool(data.spot_filled),
                max_spots_filled=get_settings().max_spots_filled,
                now=utcnow(),
            )
        except store.Refused:
            raise TryAgain() from None
        return event

    try:
        event = retry(edit, attempts=EDIT_ATTEMPTS)
    except AttemptsSpent:
        raise Conflict("The event changed meanwhile, try again.") from None
    cap = get_settings().max_spots_filled
    smaller_total = data.total_spots is not None and (
        capacity.ceiling(data.total_spots, cap) < capacity.ceiling(before["total"], cap)
    )
    smaller_most = data.max_extra_guests is not None and data.max_extra_guests < before["most"]
    if event.waiting_count and (smaller_total or smaller_most):
        fit_line_to_event(event_id, caller.id)  # parties that no longer fit leave, the rest are cut, the line moves
        view = participant_view(caller, event_id)
    elif data.total_spots is not None and event.waiting_count:
        promote_waiting(event_id, caller.id)  # a bigger total seats parties from the line
        view = participant_view(caller, event_id)
    if data.event_date is not None:
        event_store.move_invitations(view, event)
    added = _invite_more(caller, view, invitees, textable) if invitees.users else []
    changed = [name for name in notifications.FIELD_WORDS if getattr(data, name) is not None]
    if changed:
        notifications.enqueue(
            notifications.EVENT_CHANGED,
            event_id=event_id,
            actor_id=caller.id,
            fields=changed,
            exclude=added,
            before=told_before,
            at=int(utcnow().timestamp()),
        )
    return with_users([view])[0], added


def _edit_action(data: EventInput) -> Action:
    """INVITE for an edit carrying only ``invite_phone_numbers``, else EDIT."""
    sent = [name for name, value in vars(data).items() if value is not None]
    return Action.INVITE if sent == ["invite_phone_numbers"] else Action.EDIT


DEADLINE_AFTER_EVENT = "The reply deadline must be at or before the event's date."


def _check_deadline(deadline: datetime | None, event_date: datetime) -> None:
    """400 when replies would close after the event starts."""
    if deadline is not None and deadline > event_date:
        raise ValidationError.field("rsvp_deadline", DEADLINE_AFTER_EVENT)


def _deadline_edit(data: EventInput) -> datetime | str | None:
    """The deadline as the edit writes it: "" removes it, None leaves it."""
    if data.rsvp_deadline == "":
        return ""
    return whole_seconds(data.rsvp_deadline) if data.rsvp_deadline else None


def _check_spots(event, new_total: int, filling: int) -> None:
    """400 when filling by hand, or lowering total_spots, would put spots_filled past the total, or
    filling would put it past ``MAX_SPOTS_FILLED`` (beyond what every client's numbers hold exactly)."""
    room = get_settings().max_spots_filled - event.spots_filled
    if filling > room:
        raise OutOfRange("spot_filled", most=max(0, room))
    if new_total and event.spots_filled + filling > new_total:
        if filling:
            left = max(0, new_total - event.spots_filled)
            raise ValidationError.field("spot_filled", f"Only {left} spots are left.")
        raise OutOfRange("total_spots", least=event.spots_filled)


def _edit_of(data: EventInput) -> EventEdit:
    event_date = whole_seconds(data.event_date) if data.event_date is not None else None
    return EventEdit(
        **{field.name: getattr(data, field.name) for field in event_fields.STORED},  # written as sent
        event_date=event_date,
        remind_day=_remind_day(event_date) if event_date is not None else None,
        location=data.location,
        spots_filled_by_hand=data.spot_filled or 0,
        time_zone=data.time_zone,
        utc_offset_minutes=data.utc_offset_minutes,
        duration_minutes=data.duration_minutes,
        rsvp_deadline=_deadline_edit(data),
        calendar_revised=any(getattr(data, name) is not None for name in CALENDAR_FIELDS),
    )


def _invite_more(inviter, view: EventView, invitees: Invitees, textable: list) -> list[int]:
    """Store the new invitations (text ``textable`` or push their people); returns their user ids."""
    now = utcnow()
    ids = _distinct_ids(len(invitees.users))
    added = [
        event_store.new_invitation(view.event, user.id, GUEST, inv_id, now)
        for user, inv_id in zip(invitees.users, ids, strict=True)
    ]
    if inviter.id != view.event.owner_id:
        for invitation in added:
            invitation.invited_by = inviter.id
    texted = {user.id for user in invitees.to_text}
    links = invite_links.attach_links(inv for inv in added if inv.user_id in texted)

    stored = save_new_invitations(added, invitees.marks)
    view.invitations += stored
    invited = {inv.user_id for inv in stored}
    send_invitation_texts(inviter, view.event, [user for user in textable if user.id in invited], links)
    _enqueue_new_invites(inviter, view.event, [user for user in invitees.users if user.id in invited])
    return sorted(invited)


def cancel_event(caller, event_id: int) -> None:
    """Owner only, idempotent: one Query and one UpdateItem of META, whatever the number of invitees.

    Every read of the event checks META (detail, lists, timeline), so it is cancelled from here on.
    The ``cancelled`` copy on each invitation (for the ``by_user`` COUNT of stats) and the pushes to
    the invitees are one ``event_cancelled`` message; the queue handler writes the flags
    (ceil(invitations / 100) TransactWriteItems). If the message cannot be queued, the flags are
    written here instead. A repeated cancel queues it again while any flag is missing."""
    view = permitted_view(caller, event_id, Action.CANCEL)
    was_live = not view.event.cancelled
    if was_live:
        event_store.mark_cancelled(view.event, utcnow())
    if view.event.photo_count:
        from chalicelib.services.photos import remove_album  # S3: only for an event with photos

        remove_album(view.event)  # S3 down: 503, and the photos go with the cancel's retry
    if was_live or any(not inv.cancelled for inv in view.invitations):
        if not notifications.enqueue(notifications.EVENT_CANCELLED, event_id=event_id, actor_id=caller.id):
            flag_invitations_cancelled(view)
