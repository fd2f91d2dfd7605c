"""Messages, polls and time suggestions on an event (openapi.yaml, tag "conversation").

Each post is one TransactWriteItems that checks the caller's invitation (owner or guest), changes
the event's counter under its limit and "not cancelled", and stores the item; so limits hold under
parallel posts, and a refused post stores nothing. Only a refused post reads the event again, to
say why.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from datetime import datetime

from pynamodb.exceptions import TransactWriteError

from chalicelib.config import get_settings
from chalicelib.errors import Conflict, NotFound, ServiceUnavailable, ValidationError
from chalicelib.ids import new_id
from chalicelib.models.base import transact_write
from chalicelib.models.events import (
    META_SK,
    POLL_PREFIX,
    SUGGESTION_PREFIX,
    Event,
    Invitation,
    Message,
    Poll,
    TimeSuggestion,
    event_pk,
    invitation_sk,
    message_sk,
)
from chalicelib.models.users import User
from chalicelib.services.event_reads import EVENT_CANCELLED
from chalicelib.store.conditions import condition_failed, conflicted
from chalicelib.timeutil import format_datetime, utcnow
from chalicelib.validation import comparable_text

POLL_LIMIT = 3
POLL_REQUIRED = {"body": ["This field is required."]}
POLL_LIMIT_BODY = {"_error_message": f"No more than {POLL_LIMIT} polls can be submitted."}
_ATTEMPTS = 5


def _not_cancelled():
    return Event.cancelled.does_not_exist() | (Event.cancelled == False)  # noqa: E712 - a DynamoDB condition


def _event(event_id: int) -> Event | None:
    try:
        return Event.get(event_pk(event_id), META_SK, consistent_read=True)
    except Event.DoesNotExist:
        return None


def _check_membership(transaction, event_id: int, user: User) -> None:
    transaction.condition_check(Invitation, event_pk(event_id), invitation_sk(user.id), Invitation.pk.exists())


class _LimitReached(Exception):
    def __init__(self, event: Event):
        super().__init__(event.id)
        self.event = event


class _AlreadyStored(Exception):
    pass


def _store_counted(user: User, event_id: int, item, counter, limit: int) -> None:
    """Store ``item`` (a new key) and add 1 to the event's ``counter`` under ``limit``, in one transaction
    that also checks the caller is invited and the event not cancelled.

    Raises NotFound (not a participant), Conflict (cancelled), _LimitReached or _AlreadyStored; a transaction
    conflict is tried again, and after the last try is a 503 (nothing was written).
    """
    for attempt in range(_ATTEMPTS):
        try:
            with transact_write() as transaction:
                _check_membership(transaction, event_id, user)
                transaction.save(item, condition=type(item).pk.does_not_exist())
                transaction.update(
                    Event(event_pk(event_id), META_SK),
                    actions=[counter.add(1)],
                    # events stored before a counter existed have none yet: they count from 0
                    condition=Event.pk.exists() & _not_cancelled() & (counter.does_not_exist() | (counter < limit)),
                )
            return
        except TransactWriteError as exc:
            # reasons in PynamoDB's order: the membership check, the new item, the counter
            if condition_failed(exc, 0):
                raise NotFound() from None
            if condition_failed(exc, 2):
                event = _live_event_or_raise(event_id)
                if (getattr(event, counter.attr_name) or 0) >= limit:
                    raise _LimitReached(event) from None
            if condition_failed(exc, 1):
                raise _AlreadyStored() from None
            _raise_unless_conflict(exc, attempt)
    raise ServiceUnavailable()


def _raise_unless_conflict(exc: TransactWriteError, attempt: int) -> None:
    """A transaction conflict (a parallel write held an item: nothing was written) is worth another try
    after a pause."""
    if not conflicted(exc):
        raise exc
    time.sleep(0.02 * (attempt + 1))


def _live_event_or_raise(event_id: int) -> Event:
    """After a refused post whose invitation check passed: the event as it is now."""
    event = _event(event_id)
    if event is None:
        raise NotFound()
    if event.cancelled:
        raise Conflict(EVENT_CANCELLED)
    return event


# --------------------------------------------------------------------------- messages


def _message_result(body: str, event: Event, user: User, *, refused: bool, limit: int) -> dict:
    """The spec's 201 and 409 bodies share these fields."""
    return {
        "body": body,
        "is_owner": event.owner_id == user.id,
        "error_message": f"The limit of {limit} messages for this event has been reached." if refused else None,
        "error": refused,
        "user_id": user.id,
        "number_messages": event.message_count,
    }


def post_message(user: User, event_id: int, body: str) -> dict:
    limit = get_settings().messages_per_event
    now = utcnow()
    message_id = new_id()
    message = Message(
        event_pk(event_id),
        message_sk(now, message_id),
        id=message_id,
        user_id=user.id,
        body=body,
        created=now,
    )
    try:
        _store_counted(user, event_id, message, Event.message_count, limit)
    except _LimitReached as full:
        raise Conflict(body=_message_result(body, full.event, user, refused=True, limit=limit)) from None
    event = _event(event_id)
    return _message_result(body, event, user, refused=False, limit=limit)


# --------------------------------------------------------------------------- polls


def poll_dedupe_key(suggested_date: datetime, suggested_venue: str) -> str:
    """Same instant and same venue (``comparable_text``): the same poll."""
    return f"{format_datetime(suggested_date)}|{comparable_text(suggested_venue)}"


def post_poll(user: User, event_id: int, suggested_date: datetime, suggested_venue: str) -> Poll:
    now = utcnow()
    dedupe_key = poll_dedupe_key(suggested_date, suggested_venue)
    poll = Poll(
        event_pk(event_id),
        POLL_PREFIX + hashlib.sha256(dedupe_key.encode()).hexdigest()[:32],
        id=new_id(),
        user_id=user.id,
        suggested_date=suggested_date,
        suggested_venue=suggested_venue.strip(),
        dedupe_key=dedupe_key,
        created=now,
    )
    try:
        _store_counted(user, event_id, poll, Event.poll_count, POLL_LIMIT)
    except _LimitReached:
        raise ValidationError(POLL_LIMIT_BODY) from None
    except _AlreadyStored:
        raise ValidationError(POLL_REQUIRED) from None
    return poll


# --------------------------------------------------------------------------- time suggestions


@dataclass(frozen=True)
class SuggestionInput:
    suggested_time: datetime
    comment: str = ""
    like_count: int = 0
    is_set: bool = False


def suggest_time(user: User, event_id: int, data: SuggestionInput) -> TimeSuggestion:
    """Stored with the event's ``suggestion_count`` raised under its limit, in one transaction, so parallel
    posts never store more than ``TIME_SUGGESTIONS_PER_EVENT``."""
    suggestion_id = new_id()
    suggestion = TimeSuggestion(
        event_pk(event_id),
        f"{SUGGESTION_PREFIX}{suggestion_id:016d}",
        id=suggestion_id,
        user_id=user.id,
        suggested_time=data.suggested_time,
        comment=data.comment,
        like_count=data.like_count,
        is_set=data.is_set,
        created=utcnow(),
    )
    limit = get_settings().time_suggestions_per_event
    try:
        _store_counted(user, event_id, suggestion, Event.suggestion_count, limit)
    except _LimitReached:
        raise ValidationError({"_error_message": f"No more than {limit} time suggestions can be submitted."}) from None
    return suggestion


def list_time_suggestions(user: User, event_id: int) -> list[TimeSuggestion]:
    """Oldest first; 404 unless the caller is the owner or an invitee."""
    try:
        Invitation.get(event_pk(event_id), invitation_sk(user.id))
    except Invitation.DoesNotExist:
        raise NotFound() from None
    return list(TimeSuggestion.query(event_pk(event_id), TimeSuggestion.sk.startswith(SUGGESTION_PREFIX)))


def time_suggestion_json(suggestion: TimeSuggestion) -> dict:
    return {
        "id": suggestion.id,
        "user_id": suggestion.user_id,
        "suggested_time": format_datetime(suggestion.suggested_time),
        "comment": suggestion.comment,
        "like_count": suggestion.like_count,
        "is_set": suggestion.is_set,
        "created": format_datetime(suggestion.created),
    }
