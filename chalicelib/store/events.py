"""The events table's partitions: reading one whole, and writes to every invitation in it.

An event's partition ``EVENT#<id>`` holds its META, the invitations (``INV#<user id>``), messages,
polls and time suggestions. Services read it through :func:`load_partition` and change many
invitations at once through :func:`update_all` (transactions of at most 100 items, retried when
another transaction held an item).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from chalicelib.aws_errors import conflicted
from chalicelib.domain import event_fields
from chalicelib.domain import waitlist as line_rules
from chalicelib.domain.event_fields import DeclaredValues
from chalicelib.errors import InvalidToken
from chalicelib.models.base import transact_write
from chalicelib.models.events import GUEST as GUEST  # an invitation's roles, for the services
from chalicelib.models.events import (
    META_SK,
    OWNER,
    SUGGESTION_PREFIX,
    Event,
    EventsTable,
    Invitation,
    Location,
    Message,
    OfflineGuest,
    Poll,
    Removal,
    date_key,
    event_id_of,
    event_pk,
    invitation_sk,
)
from chalicelib.models.users import User, user_pk
from chalicelib.parallel import chunks, parallel_map
from chalicelib.retry import linear, retry
from chalicelib.store import Refused, refusals
from chalicelib.store.batch import index_keys
from chalicelib.store.once import update_once

TRANSACTION_ITEMS = 100  # DynamoDB's limit of items in one TransactWriteItems
CONFLICT_ATTEMPTS = 5


@dataclass
class EventView:
    """An event with everything said about it, and the people needed to show it."""

    event: Event
    invitations: list[Invitation]  # the owner first, then guests in the order they were invited
    messages: list[Message] = field(default_factory=list)  # oldest first
    polls: list[Poll] = field(default_factory=list)
    users: dict[int, User] = field(default_factory=dict)
    offline_guests: list[OfflineGuest] = field(default_factory=list)  # in the order they were added
    removals: list[Removal] = field(default_factory=list)  # the people hosts removed (store/removals.py)

    def invitation_of(self, user_id: int) -> Invitation | None:
        return next((inv for inv in self.invitations if inv.user_id == user_id), None)

    def attendees_count(self) -> int:
        """Everyone coming: the owner, the guests whose last reply was an accept and the offline guests, each
        with the people they bring."""
        invited = sum(
            1 if inv.role == OWNER else 1 + int(inv.extra_guests or 0)
            for inv in self.invitations
            if inv.role == OWNER or inv.has_accepted is True
        )
        return invited + sum(1 + int(guest.extra_guests or 0) for guest in self.offline_guests)

    def waitlist_positions(self) -> dict[int, int]:
        """{user id: place in line (1 = next)} of the guests waiting, by arrival."""
        return line_rules.places_by_user(self.invitations)

    def people(self) -> set[int]:
        ids = {inv.user_id for inv in self.invitations} | {msg.user_id for msg in self.messages}
        ids.add(self.event.owner_id)
        return ids


def load_partition(event_id: int, *, consistent: bool = True) -> EventView | None:
    """The event's META, invitations, messages and polls in one Query (more pages only when huge).

    The time suggestions sort after them (``TS#``) and are left out by the key condition: no event
    representation carries them, so they cost an event read nothing."""
    event, invitations, messages, polls, offline, removals = None, [], [], [], [], []
    before_suggestions = EventsTable.sk < SUGGESTION_PREFIX
    for item in EventsTable.query(event_pk(event_id), before_suggestions, consistent_read=consistent):
        if isinstance(item, Event):
            event = item
        elif isinstance(item, Invitation):
            invitations.append(item)
        elif isinstance(item, Message):
            messages.append(item)
        elif isinstance(item, Poll):
            polls.append(item)
        elif isinstance(item, OfflineGuest):
            offline.append(item)
        elif isinstance(item, Removal):
            removals.append(item)
    if event is None:
        return None
    invitations.sort(key=lambda inv: (inv.role != OWNER, inv.created, inv.id))
    messages.sort(key=lambda message: (message.created, message.id))  # oldest first
    polls.sort(key=lambda poll: (poll.created, poll.id))
    return EventView(event, invitations, messages, polls, offline_guests=offline, removals=removals)


def update_all(invitations: list[Invitation], actions: list) -> None:
    """``actions`` on every invitation in one transaction (at most 100), tried again while another
    transaction holds one of them."""

    def attempt(_number: int) -> None:
        with transact_write() as transaction:
            for invitation in invitations:
                transaction.update(invitation, actions=actions, condition=Invitation.pk.exists())

    retry(attempt, attempts=CONFLICT_ATTEMPTS, pause=linear(0.05), retry_on=conflicted)


def flag_invitations_cancelled(view: EventView) -> None:
    """Copy the cancel onto each invitation not flagged yet: ceil(n / 100) transactions in parallel."""
    pending = [inv for inv in view.invitations if not inv.cancelled]
    parallel_map(
        lambda chunk: update_all(chunk, [Invitation.cancelled.set(True)]),
        chunks(pending, TRANSACTION_ITEMS),
    )
    for invitation in pending:
        invitation.cancelled = True


def upcoming_on(day: str, start: str, end: str) -> list[tuple[int, str]]:
    """``(event id, date key)`` of the live, not yet reminded events of UTC ``day`` whose date key lies
    between ``start`` and ``end``: one Query of the sparse ``upcoming`` index (keys only, every page)."""
    window = Event.date_key.between(start, end)
    return [(event_id_of(item["pk"]), item["date_key"]) for item in index_keys(EventsTable, "upcoming", day, window)]


def mark_reminded(event: Event, date_key: str) -> bool:
    """Take the event out of the ``upcoming`` index, unless its date moved meanwhile (then False)."""
    try:
        with refusals():
            event.update(actions=[Event.remind_day.remove()], condition=Event.date_key == date_key)
    except Refused:
        return False
    return True


# --------------------------------------------------------------------------- create, edit, cancel


def new_event(event_id: int, owner_id: int, fields: dict, *, remind_day: str, now: datetime) -> Event:
    """A new event's META item (not stored yet): ``fields`` are title, event_date, is_time_specified,
    total_spots, location ({"latitude", "longitude"} or None), address, venue_name, invitee_count,
    max_extra_guests, waitlist, and the optional time_zone, utc_offset_minutes and duration_minutes. Its
    calendar entry starts at SEQUENCE 0."""
    location = fields.get("location")
    return Event(
        event_pk(event_id),
        META_SK,
        id=event_id,
        owner_id=owner_id,
        **{each.name: event_fields.stored_value(each, fields.get(each.name)) for each in event_fields.STORED},
        event_date=fields["event_date"],
        accepted_count=0,
        spots_filled_by_hand=0,
        spots_filled=0,
        invitee_count=fields.get("invitee_count") or 0,
        location=Location(latitude=location["latitude"], longitude=location["longitude"]) if location else None,
        waiting_count=0,
        cancelled=False,
        message_count=0,
        poll_count=0,
        remind_day=remind_day,
        date_key=date_key(fields["event_date"], event_id),
        created=now,
        modified=now,
        rsvp_deadline=fields.get("rsvp_deadline"),
        time_zone=fields.get("time_zone") or None,
        utc_offset_minutes=fields.get("utc_offset_minutes"),
        duration_minutes=fields.get("duration_minutes"),
        calendar_sequence=0,
        calendar_modified=now,
    )


def new_invitation(event: Event, user_id: int, role: str, invitation_id: int, now: datetime) -> Invitation:
    """A new invitation item (not stored yet); the owner's is seen and accepted from the start."""
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


def save_new_event(event: Event, invitations: list[Invitation], marks: Sequence = ()) -> bool:
    """META, the owner's record of it (store/owned_events.py) and the first other items in one transaction
    (False on an id clash; InvalidToken when the owner's account was closed meanwhile), the rest 100 a
    transaction side by side: the invitations, then ``marks`` (store.users.invited_marks)."""
    from chalicelib.store import due_steps, owned_events  # only writes use them: off the cold start of the reads

    items = [*due_steps.new_steps(event), *invitations, *marks]  # the steps before its start: with META
    first = items[: TRANSACTION_ITEMS - 1 - owned_events.ITEMS_PER_CREATION]
    rest = chunks(items[len(first) :], TRANSACTION_ITEMS)
    try:
        with refusals(), transact_write() as transaction:
            transaction.save(event, condition=Event.pk.does_not_exist())
            owned_events.add_to_creation(transaction, event.owner_id, event.id)
            for item in first:
                transaction.save(item)
    except Refused as refused:
        if refused.item_failed(owned_events.META_POSITION):
            return False
        if refused.item_failed(owned_events.OWNER_CHECK_POSITION):
            raise InvalidToken() from None
        raise
    parallel_map(_save_all, rest)
    return True


def _save_all(items: list) -> None:
    with transact_write() as transaction:
        for item in items:
            transaction.save(item)


class EventEdit(DeclaredValues):
    """What an edit writes to META: every field declared stored as sent (domain/event_fields.py) and the
    ones below with writes of their own; None means "unchanged". ``location`` {} removes it."""

    event_date: datetime | None = None
    remind_day: str | None = None  # with event_date
    location: dict | None = None
    spots_filled_by_hand: int = 0  # added to spots_filled too
    invitees_added: int = 0  # added to invitee_count, on condition it stays within max_invitees
    invitees_read: int = 0  # the count read (events stored before the count have none)
    max_invitees: int = 0
    counted: bool = False  # set by edit_event once a write that moves counters went through
    time_zone: str | None = None  # "" removes it
    utc_offset_minutes: int | None = None
    duration_minutes: int | None = None
    calendar_revised: bool = False  # what the calendar entry shows changed: SEQUENCE + 1, LAST-MODIFIED now
    rsvp_deadline: datetime | str | None = None  # "" removes it
    questions: list[dict] | None = None  # with their ids; [] removes them
    question_last_id: int | None = None  # with questions
    questions_read: list[dict] | None = None  # with questions: the questions the ids were given against

    @classmethod
    def declared_names(cls) -> tuple[str, ...]:
        return tuple(field.name for field in event_fields.STORED)


def nobody_waiting():
    return Event.waiting_count.does_not_exist() | (Event.waiting_count == 0)


def edit_event(
    event: Event, edit: EventEdit, *, counters_unchanged: bool, max_spots_filled: int, now: datetime
) -> None:
    """Write ``edit`` on condition the event is live (and, with ``counters_unchanged``, its spot counters are
    those read; filling by hand keeps spots_filled within ``max_spots_filled``). Raises Refused."""
    actions = [Event.modified.set(now)]
    condition = Event.cancelled == False  # noqa: E712
    if counters_unchanged:
        condition &= (Event.total_spots == event.total_spots) & (Event.spots_filled == event.spots_filled)
        waiting = int(event.waiting_count or 0)  # so a bigger total knows whether anyone is to be promoted
        condition &= (Event.waiting_count == waiting) if waiting else nobody_waiting()
    if edit.spots_filled_by_hand:
        condition &= Event.spots_filled <= max_spots_filled - edit.spots_filled_by_hand
    for declared in event_fields.STORED:  # the fields kept as sent; the others have writes of their own
        value = getattr(edit, declared.name)
        if value is not None:
            actions.append(getattr(Event, declared.name).set(value))
    if edit.questions is not None:
        actions += [Event.questions.set(edit.questions), Event.question_last_id.set(edit.question_last_id or 0)]
        read = edit.questions_read
        condition &= (Event.questions == read) if read else Event.questions.does_not_exist()  # ids given on it
    if edit.event_date is not None:
        actions += [
            Event.event_date.set(edit.event_date),
            Event.date_key.set(date_key(edit.event_date, event.id)),
            Event.remind_day.set(edit.remind_day),
        ]
    if edit.location is not None:
        if edit.location:
            location = Location(latitude=edit.location["latitude"], longitude=edit.location["longitude"])
            actions.append(Event.location.set(location))
        else:
            actions.append(Event.location.remove())
    if edit.rsvp_deadline == "":
        actions.append(Event.rsvp_deadline.remove())
    elif edit.rsvp_deadline is not None:
        actions.append(Event.rsvp_deadline.set(edit.rsvp_deadline))
    if edit.spots_filled_by_hand:
        actions += [
            Event.spots_filled_by_hand.add(edit.spots_filled_by_hand),
            Event.spots_filled.add(edit.spots_filled_by_hand),
        ]
    if edit.invitees_added:
        # holds only if no parallel edit added invitees meanwhile (events stored before the count: the
        # caller's check of the invitations read is all there is)
        actions.append(Event.invitee_count.set((Event.invitee_count | edit.invitees_read) + edit.invitees_added))
        most = edit.max_invitees - edit.invitees_added
        condition &= Event.invitee_count.does_not_exist() | (Event.invitee_count <= most)
    actions += _time_actions(edit)
    if edit.calendar_revised:
        actions += _calendar_revision(now)
    from chalicelib.store import due_steps  # only writes schedule the steps: off the cold start of the reads

    steps = due_steps.rescheduled(event, edit)  # written with META: the steps before the start follow it
    if edit.invitees_added or edit.spots_filled_by_hand or steps:  # counters moved, or more items: applied once
        update_once(event, actions, condition, also=steps)
        edit.counted = True
        event.refresh(consistent_read=True)
        return
    with refusals():
        event.update(actions=actions, condition=condition)


def move_invitations(view: EventView, event: Event) -> None:
    """A new date moves every invitation in the ``by_user`` index: ceil(n / 100) transactions."""
    new_key = date_key(event.event_date, event.id)
    for invitation in view.invitations:
        invitation.date_key = new_key
    parallel_map(
        lambda chunk: update_all(chunk, [Invitation.date_key.set(new_key)]),
        chunks(view.invitations, TRANSACTION_ITEMS),
    )


def _time_actions(edit: EventEdit) -> list:
    actions = []
    if edit.utc_offset_minutes is not None:
        actions.append(Event.utc_offset_minutes.set(edit.utc_offset_minutes))
    if edit.time_zone is not None:
        actions.append(Event.time_zone.set(edit.time_zone) if edit.time_zone else Event.time_zone.remove())
    if edit.duration_minutes is not None:
        actions.append(Event.duration_minutes.set(edit.duration_minutes))
    return actions


def _calendar_revision(now: datetime) -> list:
    """The calendar entry's SEQUENCE (an atomic ADD, from 0 on items stored before it) and LAST-MODIFIED."""
    return [Event.calendar_sequence.add(1), Event.calendar_modified.set(now)]


def mark_cancelled(event: Event, now: datetime) -> None:
    """META cancelled and out of the reminders' ``upcoming`` index; calendars take it as a new revision."""
    actions = [Event.cancelled.set(True), Event.remind_day.remove(), Event.modified.set(now)]
    event.update(actions=actions + _calendar_revision(now), condition=Event.pk.exists())


def _same_cover_keys(event: Event):
    """META still holds the cover keys read into ``event``."""
    condition = Event.pk.exists()
    for attribute, value in ((Event.cover_key, event.cover_key), (Event.cover_card_key, event.cover_card_key)):
        condition &= attribute.does_not_exist() if value is None else attribute == value
    return condition


def set_cover_keys(event: Event, key: str, card_key: str, now: datetime) -> None:
    """Point META at a new cover, on condition it still holds the keys read and is live (else Refused)."""
    actions = [Event.cover_key.set(key), Event.cover_card_key.set(card_key), Event.modified.set(now)]
    live = Event.cancelled.does_not_exist() | (Event.cancelled == False)  # noqa: E712 (a condition)
    with refusals():
        event.update(actions=actions, condition=_same_cover_keys(event) & live)


def clear_cover_keys(event: Event, now: datetime) -> None:
    """Remove META's cover keys, on condition it still holds the keys read (else Refused)."""
    actions = [Event.cover_key.remove(), Event.cover_card_key.remove(), Event.modified.set(now)]
    with refusals():
        event.update(actions=actions, condition=_same_cover_keys(event))


def reread_event(event: Event) -> None:
    event.refresh(consistent_read=True)
