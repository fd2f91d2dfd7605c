"""An event's conversation: messages (``MSG#<created>#<id>``), polls (``POLL#<hash of date and venue>``)
and time suggestions (``TS#<id>``) in the event's partition, each stored with the event's counter
raised under its limit in one transaction that also checks the poster is invited."""

from __future__ import annotations

import hashlib
from datetime import datetime

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
from chalicelib.store import refusals

# Positions of :func:`store_counted`'s items in Refused.items (PynamoDB sends condition checks first,
# then puts, then updates).
MEMBERSHIP, NEW_ITEM, COUNTER = 0, 1, 2
MESSAGE_COUNT, POLL_COUNT, SUGGESTION_COUNT = "message_count", "poll_count", "suggestion_count"


def find_event(event_id: int) -> Event | None:
    """The event's META, read consistently."""
    try:
        return Event.get(event_pk(event_id), META_SK, consistent_read=True)
    except Event.DoesNotExist:
        return None


def new_message(event_id: int, message_id: int, user_id: int, body: str, now: datetime) -> Message:
    return Message(
        event_pk(event_id), message_sk(now, message_id), id=message_id, user_id=user_id, body=body, created=now
    )


def new_poll(
    event_id: int, poll_id: int, user_id: int, suggested_date: datetime, venue: str, dedupe_key: str, now: datetime
) -> Poll:
    """A poll keyed by its dedupe key, so the same date and venue twice is one item."""
    return Poll(
        event_pk(event_id),
        POLL_PREFIX + hashlib.sha256(dedupe_key.encode()).hexdigest()[:32],
        id=poll_id,
        user_id=user_id,
        suggested_date=suggested_date,
        suggested_venue=venue,
        dedupe_key=dedupe_key,
        created=now,
    )


def new_suggestion(event_id: int, suggestion_id: int, user_id: int, fields: dict, now: datetime) -> TimeSuggestion:
    """``fields``: suggested_time, comment, like_count, is_set."""
    return TimeSuggestion(
        event_pk(event_id),
        f"{SUGGESTION_PREFIX}{suggestion_id:016d}",
        id=suggestion_id,
        user_id=user_id,
        created=now,
        **fields,
    )


def _not_cancelled():
    return Event.cancelled.does_not_exist() | (Event.cancelled == False)  # noqa: E712 - a DynamoDB condition


def store_counted(user_id: int, event_id: int, item, counter: str, limit: int) -> None:
    """Store ``item`` (a new key) and add 1 to the event's ``counter`` under ``limit``, in one transaction that
    also checks the user is invited and the event not cancelled. Raises Refused (items MEMBERSHIP,
    NEW_ITEM, COUNTER) or Contended."""
    count = getattr(Event, counter)
    with refusals(), transact_write() as transaction:
        transaction.condition_check(Invitation, event_pk(event_id), invitation_sk(user_id), Invitation.pk.exists())
        transaction.save(item, condition=type(item).pk.does_not_exist())
        transaction.update(
            Event(event_pk(event_id), META_SK),
            actions=[count.add(1)],
            # events stored before a counter existed have none yet: they count from 0
            condition=Event.pk.exists() & _not_cancelled() & (count.does_not_exist() | (count < limit)),
        )


def is_invited(event_id: int, user_id: int) -> bool:
    try:
        Invitation.get(event_pk(event_id), invitation_sk(user_id))
    except Invitation.DoesNotExist:
        return False
    return True


def time_suggestions(event_id: int) -> list[TimeSuggestion]:
    """Oldest first: one Query of the partition's ``TS#`` items."""
    return list(TimeSuggestion.query(event_pk(event_id), TimeSuggestion.sk.startswith(SUGGESTION_PREFIX)))
