"""Live calendar links: the token's hash, found from the token (CalendarFeedKey) and kept on the user (CalendarFeed,
the current one); and the reads a feed is made of (models/users.py, models/events.py)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from chalicelib.models.base import transact_write
from chalicelib.models.events import META_SK, OWNER, Event, Invitation, date_key, event_pk, invitation_sk
from chalicelib.models.users import (
    CALENDAR_FEED_SK,
    CalendarFeed,
    CalendarFeedKey,
    calendar_feed_pk,
    user_pk,
)
from chalicelib.store import refusals
from chalicelib.store.batch import batch_get


def current_hash(user_id: int) -> str | None:
    try:
        return CalendarFeed.get(user_pk(user_id), CALENDAR_FEED_SK, consistent_read=True).token_hash
    except CalendarFeed.DoesNotExist:
        return None


def replace_token(user_id: int, old_hash: str | None, new_hash: str, now: datetime) -> None:
    """One transaction: the new token's key item, the old one's gone, the user's link pointing at the new one
    (on condition it still points at ``old_hash``: Refused when a parallel call replaced it first)."""
    pointer = CalendarFeed(user_pk(user_id), CALENDAR_FEED_SK, token_hash=new_hash, created=now)
    unchanged = CalendarFeed.token_hash == old_hash if old_hash else CalendarFeed.pk.does_not_exist()
    with refusals(), transact_write() as transaction:
        transaction.save(pointer, condition=unchanged)
        transaction.save(CalendarFeedKey(calendar_feed_pk(new_hash), CALENDAR_FEED_SK, user_id=user_id))
        if old_hash:
            transaction.delete(CalendarFeedKey(calendar_feed_pk(old_hash), CALENDAR_FEED_SK))


def user_of(token_hash: str) -> int | None:
    """The user whose current feed token has this hash: one GetItem."""
    try:
        return int(CalendarFeedKey.get(calendar_feed_pk(token_hash), CALENDAR_FEED_SK).user_id)
    except CalendarFeedKey.DoesNotExist:
        return None


def invitations_since(user_id: int, since: datetime) -> Iterator[Invitation]:
    """The person's invitations (owner or guest; cancelled events too) to events dated from ``since`` on, by
    date, leaving out the ones they declined: a Query of the ``by_user`` index, paged lazily."""
    accepted = Invitation.has_accepted == True  # noqa: E712 (a condition)
    wanted = (Invitation.role == OWNER) | accepted | Invitation.has_accepted.does_not_exist()
    return Invitation.by_user.query(
        user_pk(user_id), range_key_condition=Invitation.date_key >= date_key(since, 0), filter_condition=wanted
    )


def metas(event_ids: list[int]) -> dict[int, Event]:
    """The events' META items by id: one BatchGetItem per 100, side by side."""
    return {event.id: event for event in batch_get(Event, [(event_pk(eid), META_SK) for eid in event_ids])}


def full_invitations(user_id: int, event_ids: list[int]) -> dict[int, Invitation]:
    """The person's whole invitation items in these events (the index holds only part of them)."""
    keys = [(event_pk(eid), invitation_sk(user_id)) for eid in event_ids]
    return {inv.event_id: inv for inv in batch_get(Invitation, keys)}
