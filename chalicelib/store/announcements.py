"""The owner's announcements of an event: ``UPDATE#<created>#<id>`` items in the event's partition."""

from __future__ import annotations

from datetime import datetime

from chalicelib.models.events import ANNOUNCEMENT_PREFIX, Announcement, EventsTable, announcement_sk, event_pk
from chalicelib.store.once import save_new


def save_announcement(event_id: int, announcement_id: int, user_id: int, text: str, audience: list[str], now: datetime):
    announcement = Announcement(
        event_pk(event_id),
        announcement_sk(now, announcement_id),
        id=announcement_id,
        user_id=user_id,
        text=text,
        audience=audience,
        created=now,
    )
    save_new(announcement, Announcement.pk.does_not_exist())
    return announcement


def announcements_of(event_id: int) -> list[Announcement]:
    """Every announcement of the event, newest first (one Query; at most 5 a day are made)."""
    query = EventsTable.query(
        event_pk(event_id), EventsTable.sk.startswith(ANNOUNCEMENT_PREFIX), scan_index_forward=False
    )
    return [item for item in query if isinstance(item, Announcement)]


def latest_announcements(event_id: int, count: int) -> list[Announcement]:
    """The event's ``count`` newest announcements, newest first: one Query of at most ``count`` items."""
    query = EventsTable.query(
        event_pk(event_id), EventsTable.sk.startswith(ANNOUNCEMENT_PREFIX), scan_index_forward=False, limit=count
    )
    return [item for item in query if isinstance(item, Announcement)][:count]


def find_announcement(event_id: int, announcement_id: int) -> Announcement | None:
    return next((item for item in announcements_of(event_id) if item.id == announcement_id), None)
