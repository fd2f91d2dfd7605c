"""A second edition of an event (POST /events/{id}/clone): a new event with the same fields on a new date,
made by ``events.create_event`` so every rule and quota of a create holds. No chalice imports.

Every declared event field (domain/event_fields.py) is carried: the ones stored as sent by name, so a field
added there is cloned without a change here; the others by their kind. What people said (replies, messages,
polls, suggestions) stays with the original. The reply deadline keeps its distance to the event's date; the
cover is copied (services/hosting/covers.py), so each edition's can change or go on its own.
With ``invite_same_guests`` the original's invitees' numbers are invited again, under the owner's limits
of today (the invitees per event, the rolling allowances, the stop list and the month's text budget).
"""

from __future__ import annotations

import logging
from datetime import datetime

from chalicelib.domain import event_fields
from chalicelib.domain.roles import Action
from chalicelib.services.hosting import covers, events
from chalicelib.services.participants import cohosts
from chalicelib.services.participants.event_reads import permitted_view, with_users
from chalicelib.store.events import OWNER, EventView

log = logging.getLogger("invites")


def clone_event(caller, event_id: int, event_date: datetime, utc_offset_minutes: int, invite_same_guests: bool):
    """The new event's view (as create_event answers it); the owner only (a co-host 403, a stranger 404)."""
    source = permitted_view(caller, event_id, Action.CLONE)
    if invite_same_guests:
        source = with_users([source])[0]
    data = events.EventInput(**{field.name: _carried(source, field) for field in event_fields.EVENT_FIELDS})
    data.event_date = event_date
    data.utc_offset_minutes = utc_offset_minutes
    data.rsvp_deadline = _deadline(source.event, event_date)
    data.invite_phone_numbers = _invitee_numbers(source) if invite_same_guests else []
    view = events.create_event(caller, data)
    _copy_cover(source.event, view.event)
    if invite_same_guests:
        view = carry_cohosts(caller, source, view)
    return view


def _copy_cover(source, clone) -> None:
    """The clone stands without a cover when the copy fails (logged): the event is made, and a retry would
    make another."""
    if not source.cover_key:
        return
    try:
        covers.copy_cover(source, clone)
    except Exception:  # noqa: BLE001 - the clone is stored; the host can set the cover again
        log.warning("the cover of event %s was not copied to its clone %s", source.id, clone.id, exc_info=True)


def _carried(source: EventView, field: event_fields.EventField):
    """The original's value of ``field`` as a create takes it (None: not carried)."""
    event = source.event
    if field.stored:
        return getattr(event, field.name, None)
    if field.kind == "location":
        return {"latitude": event.location.latitude, "longitude": event.location.longitude} if event.location else None
    if field.kind == "time_zone":
        return event.time_zone or None
    if field.kind == "questions":  # the same questions, numbered afresh by the create; no answers
        return [dict(question) for question in event.questions or []]
    if field.name == "duration_minutes":
        return int(event.duration_minutes) if event.duration_minutes else None
    return None  # the date, the deadline and the invitees are set by clone_event


def _deadline(event, event_date: datetime) -> datetime | None:
    """The original's reply deadline moved with the date (the same time before the event)."""
    if event.rsvp_deadline is None:
        return None
    return event_date - (event.event_date - event.rsvp_deadline)


def _invitee_numbers(source: EventView) -> list[str]:
    """The numbers of the original's invitees, in the order they were invited."""
    numbers = []
    for inv in source.invitations:
        user = source.users.get(inv.user_id)
        if inv.role != OWNER and user is not None and user.phone_number:
            numbers.append(user.phone_number)
    return numbers


def carry_cohosts(caller, source: EventView, clone: EventView) -> EventView:
    """Make the original's co-hosts co-hosts of the clone (they were just invited again), through the owner's
    own appointing; returns the clone as it now is. One who could not be invited again (stop list, limits)
    is left out."""
    for inv in source.invitations:
        if inv.cohost and clone.invitation_of(inv.user_id) is not None:
            clone = cohosts.appoint(caller, clone.event.id, inv.user_id)
    return clone
