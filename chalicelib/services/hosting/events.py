"""Events and invitations: create, invite, edit and cancel (openapi.yaml, tag "events"). No chalice imports.

Reading events is in event_reads.py, a guest's reply in replies.py, invitation texts in
services/texts/invitation_texts.py; the storage they share in chalicelib/store.

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
from dataclasses import dataclass, field
from datetime import datetime

from chalicelib import invite_links, store
from chalicelib.config import get_settings
from chalicelib.domain import capacity, event_fields, questions
from chalicelib.domain.recurrence import Cadence
from chalicelib.domain.roles import Action, Role
from chalicelib.errors import Conflict, ValidationError
from chalicelib.ids import new_id
from chalicelib.messaging import notifications
from chalicelib.messaging.notifications.kinds import kind_named
from chalicelib.retry import AttemptsSpent, TryAgain, retry
from chalicelib.services.hosting import series_plan
from chalicelib.services.hosting.event_values import (
    EventInput,
    check_deadline,
    check_spots,
    edit_of,
    remind_day,
    whole_seconds,
)
from chalicelib.services.hosting.guest_invites import GuestCharge
from chalicelib.services.hosting.invitees import Invitees, check_invitees_fit, give_back_charges, resolve_invitees
from chalicelib.services.participants.event_reads import (
    participant_view,
    permitted_view,
    require_live,
    role_in,
    with_users,
)
from chalicelib.services.replies.waitlist import fit_line_to_event, promote_waiting
from chalicelib.services.texts import guest_texts, repeat_words, text_outbox
from chalicelib.services.texts.invitation_texts import reachable, send_invitation_texts
from chalicelib.store import events as event_store
from chalicelib.store import series as series_store
from chalicelib.store.events import GUEST, OWNER, EventView, flag_invitations_cancelled
from chalicelib.store.invitations import save_new_invitations, take_back_invitees
from chalicelib.timeutil import utcnow

# The queue kinds sent from here (each declared with its handler)
NEW_INVITE = kind_named("new_invite")
EVENT_CHANGED = kind_named("event_changed")
EVENT_CANCELLED = kind_named("event_cancelled")

log = logging.getLogger("invites")

CREATE_ATTEMPTS = 5  # new event ids drawn before giving up (a clash is all but impossible)
EDIT_ATTEMPTS = 5  # edits re-read after a parallel change of the counters


# --------------------------------------------------------------------------- invitees and texts


def _enqueue_new_invites(owner, event, invited: list) -> None:
    """One push message for the invitees who have an account (the others were texted)."""
    with_account = [user.id for user in invited if user.is_active]
    if with_account:
        notifications.enqueue(NEW_INVITE, event_id=event.id, actor_id=owner.id, user_ids=with_account)


def _distinct_ids(count: int) -> list[int]:
    ids: set[int] = set()
    while len(ids) < count:
        ids.add(new_id())
    return sorted(ids)


# --------------------------------------------------------------------------- create


EVENT_ALREADY_MADE = "This event was already made."


def create_event(
    owner, data: EventInput, *, event_id: int | None = None, wording=None, links_out: dict | None = None
) -> EventView:
    """Store the event, the owner's invitation and one per invitee; text those without an account.

    ``event_id``: the id the event must have (a plan's decision): an event already there under it is a
    Conflict, so the same decision never makes two events. ``wording(owner, event, link)``: the text those
    without an account get instead of the invitation text; ``links_out`` is given their links by user id."""
    return create_events(owner, data, event_id=event_id, wording=wording, links_out=links_out)[0]


def create_events(
    owner,
    data: EventInput,
    plan: series_plan.SeriesPlan | None = None,
    *,
    event_id: int | None = None,
    wording=None,
    links_out: dict | None = None,
) -> list[EventView]:
    """The event, or with ``plan`` one per date of a series: invitees resolved, checked and charged once (a
    series is one event to the quotas), each date stored with its invitations, then people told once, by the
    first date. A date that cannot be stored undoes those stored before it: nothing half-written stays.
    ``event_id``, ``wording`` and ``links_out`` as for :func:`create_event` (the first date's)."""
    first_date = whole_seconds(data.event_date)
    dates = [whole_seconds(date) for date in plan.dates] if plan else [first_date]
    check_deadline(data.rsvp_deadline, first_date)
    invitees = resolve_invitees(
        owner, data.invite_phone_numbers or [], skip_user_ids={owner.id}, more_charges=plan.charges if plan else ()
    )
    textable = reachable(invitees.to_text)  # before the event is written: a 503 here stores no event
    now = utcnow()
    fields = {
        **{field.name: getattr(data, field.name) for field in event_fields.STORED},  # stored as sent
        "location": data.location,
        "invitee_count": len(invitees.users),
        "time_zone": data.time_zone,
        "utc_offset_minutes": data.utc_offset_minutes,
        "duration_minutes": data.duration_minutes,
    }
    deadline = whole_seconds(data.rsvp_deadline) if data.rsvp_deadline else None
    asked, last_id = questions.assign_ids(data.questions or [], [], 0)
    texted = {user.id for user in invitees.to_text}
    stored: list[tuple] = []

    def draw(event_date: datetime, occurrence: int | None):
        first = not stored
        dated = {**fields, "event_date": event_date, "rsvp_deadline": deadline and deadline + (event_date - first_date)}
        fixed_id = event_id if first else None

        def attempt(_attempt: int):
            event = event_store.new_event(
                fixed_id or new_id(), owner.id, dated, remind_day=remind_day(event_date), now=now
            )
            if asked:
                event.questions, event.question_last_id = asked, last_id
            if plan:
                event.series_id, event.occurrence = plan.series_id, occurrence
            ids = _distinct_ids(len(invitees.users) + 1)
            invitations = [event_store.new_invitation(event, owner.id, OWNER, ids[0], now)]
            invitations += [
                event_store.new_invitation(event, user.id, GUEST, inv_id, now)
                for user, inv_id in zip(invitees.users, ids[1:], strict=True)
            ]
            links = {}
            if first:
                links = invite_links.attach_links(inv for inv in invitations if inv.user_id in texted)
                text_outbox.plan(inv for inv in invitations if inv.user_id in texted)
            if not event_store.save_new_event(event, invitations, invitees.marks if first else ()):
                if fixed_id:
                    raise Conflict(EVENT_ALREADY_MADE)
                raise TryAgain()
            return event, invitations, links

        try:
            return retry(attempt, attempts=CREATE_ATTEMPTS)
        except AttemptsSpent:
            raise RuntimeError("could not draw a free event id") from None

    try:
        for occurrence, event_date in enumerate(dates, start=1):
            stored.append(draw(event_date, occurrence if plan else None))
        if plan:
            plan.save_series([event for event, _, _ in stored])
    except Exception:
        if stored:
            series_store.remove_new_events([(event, invitations) for event, invitations, _ in stored])
        raise
    event, invitations, links = stored[0]
    if links_out is not None:
        links_out.update(links)
    if plan:
        sent = plan.send_texts(owner, event, textable, links)
    else:
        sent = send_invitation_texts(owner, event, textable, links, wording=wording)
    text_outbox.shown_in(invitations, sent)
    _enqueue_new_invites(owner, event, invitees.users)
    users = {**{user.id: user for user in invitees.users}, owner.id: owner}
    return [EventView(event, invitations, users=users) for event, invitations, _ in stored]


# --------------------------------------------------------------------------- edits and cancel


def update_event(caller, event_id: int, data: EventInput, *, tell: bool = True) -> EventView:
    """The owner and co-hosts invite more numbers, fill spots by hand, edit the event; a guest only invites,
    within the event's ``guest_invites`` (domain.roles). 409 once cancelled. Without ``tell`` (the other dates
    of a series edit) nobody is texted or pushed about it."""
    view = permitted_view(caller, event_id, _edit_action(data))
    require_live(view.event)
    charge = GuestCharge(caller, view) if role_in(caller, view) == Role.GUEST else None
    if charge is not None:
        charge.check_room()
    told_before = guest_texts.told_in_full(view)  # what guests without the app were told, for change texts
    kept_deadline = None if data.rsvp_deadline == "" else (data.rsvp_deadline or view.event.rsvp_deadline)
    check_deadline(kept_deadline, data.event_date or view.event.event_date)
    new_total = data.total_spots if data.total_spots is not None else view.event.total_spots
    check_spots(view.event, new_total, data.spot_filled or 0)
    if charge is None:
        return _resolve_edit_and_invite(caller, event_id, data, view, told_before, tell=tell)[0]
    charge.before_resolving(data.invite_phone_numbers)
    try:
        view, added = _resolve_edit_and_invite(caller, event_id, data, view, told_before, charge, tell=tell)
    except ValidationError as error:
        charge.give_back()
        raise charge.refusal(error) from None
    except Exception:
        charge.give_back()
        raise
    charge.settle(len(added))
    return view


def _resolve_edit_and_invite(
    caller,
    event_id: int,
    data: EventInput,
    view: EventView,
    told_before,
    charge: GuestCharge | None = None,
    *,
    tell: bool = True,
) -> tuple[EventView, list[int]]:
    """The numbers made into users (before the event changes), the edit, then the new invitations. What was
    charged and counted for invitations that end up not stored is taken back before the error goes on."""
    existing = {inv.user_id for inv in view.invitations}
    invitees = resolve_invitees(caller, data.invite_phone_numbers or [], skip_user_ids=existing, view=view)
    progress = _InviteProgress()
    try:
        textable = reachable(invitees.to_text) if tell else []  # before the edit: a 503 leaves the event as it was
        if charge is not None:
            charge.after_resolving(len(invitees.users))
        return _edit_and_invite(caller, event_id, data, view, invitees, textable, told_before, tell, progress)
    except Exception:
        if not progress.saving:
            give_back_charges(invitees)
        if not progress.stored:
            counted = next((edit for edit in reversed(progress.edits) if edit.counted), None)
            if counted is not None and counted.invitees_added:
                take_back_invitees(view.event, counted.invitees_added)
        raise


@dataclass
class _InviteProgress:
    """How far an edit that invites got: what to take back when it fails."""

    edits: list = field(default_factory=list)  # the edits tried (store.events.EventEdit), the last maybe applied
    saving: bool = False  # the numbers' marks may be stored (a retry charges them no more): the charge stays
    stored: bool = False  # the new invitations are stored: what was counted for them stays


def _edit_and_invite(
    caller, event_id: int, data: EventInput, view: EventView, invitees, textable, told_before, tell, progress
) -> tuple[EventView, list[int]]:
    """The edit, then the new invitations: the event as it is now and the user ids invited (``progress`` kept)."""
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
        check_spots(event, new_total, data.spot_filled or 0)
        edit = edit_of(data)
        if data.questions is not None:
            held = list(event.questions or [])
            since = max(int(event.question_last_id or 0), questions.last_id_of(held))
            edit.questions, edit.question_last_id = questions.assign_ids(data.questions, held, since)
            edit.questions_read = event.questions or None
        if adding:
            edit.invitees_read = check_invitees_fit(view, adding)
            edit.invitees_added, edit.max_invitees = adding, get_settings().invitees_per_event
        progress.edits.append(edit)
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
    added = _invite_more(caller, view, invitees, textable, tell, progress) if invitees.users else []
    changed = [name for name in notifications.FIELD_WORDS if getattr(data, name) is not None]
    if changed and tell:
        notifications.enqueue(
            EVENT_CHANGED,
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


def _invite_more(inviter, view: EventView, invitees: Invitees, textable: list, tell: bool, progress) -> list[int]:
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
    text_outbox.plan(inv for inv in added if inv.user_id in texted)

    progress.saving = True
    stored = save_new_invitations(added, invitees.marks)
    progress.stored = True
    view.invitations += stored
    invited = {inv.user_id for inv in stored}
    sent = send_invitation_texts(inviter, view.event, [user for user in textable if user.id in invited], links)
    text_outbox.shown_in(stored, sent)
    if tell:
        _enqueue_new_invites(inviter, view.event, [user for user in invitees.users if user.id in invited])
    return sorted(invited)


def cancel_event(caller, event_id: int, *, tell: bool = True, series: Cadence | None = None) -> bool:
    """Owner only, idempotent: one Query and one UpdateItem of META, whatever the number of invitees. Every
    read of the event checks META, so it is cancelled from here on. The ``cancelled`` copy on each invitation
    (for stats) and the pushes are one ``event_cancelled`` message (texts say the ``series``' cadence when given);
    the queue handler writes the flags (ceil(n / 100) TransactWriteItems). Not queued (or not ``tell``: a series'
    other dates), they are written here; a repeated cancel queues it again while any flag is missing. True
    when this call cancelled it and its guests are being told."""
    view = permitted_view(caller, event_id, Action.CANCEL)
    was_live = not view.event.cancelled
    if was_live:
        event_store.mark_cancelled(view.event, utcnow())
    if view.event.photo_count:
        from chalicelib.services.the_day import photos  # only a cancel with photos needs it: off every edit's start

        photos.remove_album(view.event)  # S3 down: 503, and the photos go with the cancel's retry
    if not was_live and all(inv.cancelled for inv in view.invitations):
        return False
    message = {"event_id": event_id, "actor_id": caller.id, **repeat_words.as_message(series)}
    told = tell and notifications.enqueue(EVENT_CANCELLED, **message)
    if not told:
        flag_invitations_cancelled(view)
    return told and was_live
