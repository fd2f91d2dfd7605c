"""Messages, polls and time suggestions on an event (openapi.yaml, tag "conversation").

Each post is one TransactWriteItems that checks the caller's invitation (owner or guest), changes
the event's counter under its limit and "not cancelled", and stores the item; so limits hold under
parallel posts, and a refused post stores nothing. Only a refused post reads the event again, to
say why.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime

from chalicelib import store
from chalicelib.config import get_settings
from chalicelib.domain.roles import Action, require, role_of
from chalicelib.errors import Conflict, NotFound, Required, ServiceUnavailable, ValidationError
from chalicelib.ids import new_id
from chalicelib.retry import linear, retry
from chalicelib.services.participants.event_reads import EVENT_CANCELLED
from chalicelib.store import conversation as conversation_store
from chalicelib.store.conversation import COUNTER, MEMBERSHIP, NEW_ITEM
from chalicelib.timeutil import format_datetime, utcnow
from chalicelib.validation import comparable_text

POLL_LIMIT = 3
POLL_LIMIT_BODY = {"_error_message": f"No more than {POLL_LIMIT} polls can be submitted."}
POST_ATTEMPTS = 5  # posts tried again while a parallel transaction holds the event or the invitation


class _LimitReached(Exception):
    def __init__(self, event):
        super().__init__(event.id)
        self.event = event


class _AlreadyStored(Exception):
    pass


def _store_counted(user, event_id: int, item, counter: str, limit: int) -> None:
    """Store ``item`` (a new key) and add 1 to the event's ``counter`` under ``limit``, in one transaction
    that also checks the caller is invited and the event not cancelled.

    Raises NotFound (not a participant), Conflict (cancelled), _LimitReached or _AlreadyStored; a transaction
    conflict is tried again, and after the last try is a 503 (nothing was written).
    """

    def post(_attempt: int) -> None:
        try:
            conversation_store.store_counted(user.id, event_id, item, counter, limit)
        except store.Refused as refused:
            if refused.item_failed(MEMBERSHIP):  # no invitation of the caller: a stranger to the event
                require(role_of(None), Action.TALK)
            if refused.item_failed(COUNTER):
                event = _live_event_or_raise(event_id)
                if (getattr(event, counter) or 0) >= limit:
                    raise _LimitReached(event) from None
            if refused.item_failed(NEW_ITEM):
                raise _AlreadyStored() from None
            raise

    try:
        retry(post, attempts=POST_ATTEMPTS, pause=linear(0.02), retry_on=lambda exc: isinstance(exc, store.Contended))
    except store.Contended:
        raise ServiceUnavailable() from None


def _live_event_or_raise(event_id: int):
    """After a refused post whose invitation check passed: the event as it is now."""
    event = conversation_store.find_event(event_id)
    if event is None:
        raise NotFound()
    if event.cancelled:
        raise Conflict(EVENT_CANCELLED)
    return event


# --------------------------------------------------------------------------- messages


def _message_result(body: str, event, user, *, refused: bool, limit: int) -> dict:
    """The spec's 201 and 409 bodies share these fields."""
    return {
        "body": body,
        "is_owner": event.owner_id == user.id,
        "error_message": f"The limit of {limit} messages for this event has been reached." if refused else None,
        "error": refused,
        "user_id": user.id,
        "number_messages": event.message_count,
    }


def post_message(user, event_id: int, body: str) -> dict:
    limit = get_settings().messages_per_event
    now = utcnow()
    message_id = new_id()
    message = conversation_store.new_message(event_id, message_id, user.id, body, now)
    try:
        _store_counted(user, event_id, message, conversation_store.MESSAGE_COUNT, limit)
    except _LimitReached as full:
        raise Conflict(answer=_message_result(body, full.event, user, refused=True, limit=limit)) from None
    event = conversation_store.find_event(event_id)
    # The spec's body, with the stored message's id and time (extension) for a client to match it in the detail.
    return {"id": message_id, "created": format_datetime(message.created)} | _message_result(
        body, event, user, refused=False, limit=limit
    )


# --------------------------------------------------------------------------- polls


def poll_dedupe_key(suggested_date: datetime, suggested_venue: str) -> str:
    """Same instant and same venue (``comparable_text``): the same poll."""
    return f"{format_datetime(suggested_date)}|{comparable_text(suggested_venue)}"


def post_poll(user, event_id: int, suggested_date: datetime, suggested_venue: str):
    now = utcnow()
    dedupe_key = poll_dedupe_key(suggested_date, suggested_venue)
    poll = conversation_store.new_poll(
        event_id, new_id(), user.id, suggested_date, suggested_venue.strip(), dedupe_key, now
    )
    try:
        _store_counted(user, event_id, poll, conversation_store.POLL_COUNT, POLL_LIMIT)
    except _LimitReached:
        raise ValidationError(POLL_LIMIT_BODY) from None
    except _AlreadyStored:
        raise Required("body") from None
    return poll


# --------------------------------------------------------------------------- time suggestions


@dataclass(frozen=True)
class SuggestionInput:
    suggested_time: datetime
    comment: str = ""
    like_count: int = 0
    is_set: bool = False


def suggest_time(user, event_id: int, data: SuggestionInput):
    """Stored with the event's ``suggestion_count`` raised under its limit, in one transaction, so parallel
    posts never store more than ``TIME_SUGGESTIONS_PER_EVENT``."""
    suggestion_id = new_id()
    suggestion = conversation_store.new_suggestion(event_id, suggestion_id, user.id, asdict(data), utcnow())
    limit = get_settings().time_suggestions_per_event
    try:
        _store_counted(user, event_id, suggestion, conversation_store.SUGGESTION_COUNT, limit)
    except _LimitReached:
        raise ValidationError({"_error_message": f"No more than {limit} time suggestions can be submitted."}) from None
    return suggestion


def list_time_suggestions(user, event_id: int):
    """Oldest first; 404 unless the caller is the owner or an invitee."""
    if not conversation_store.is_invited(event_id, user.id):
        require(role_of(None), Action.READ)
    return conversation_store.time_suggestions(event_id)
