"""Events deleted with their owner's account, remembered for their guests' links (``GONE#<event>`` items in
the auth table, expiring through TTL)."""

from __future__ import annotations

from datetime import datetime

from chalicelib.models.auth import GoneEvent, gone_pk


def remember(event_id: int, title: str, event_date: datetime, link_hashes: list[str], expires_at: datetime) -> None:
    GoneEvent(
        gone_pk(event_id), title=title, event_date=event_date, link_hashes=link_hashes, expires_at=expires_at
    ).save()


def find(event_id: int) -> GoneEvent | None:
    try:
        return GoneEvent.get(gone_pk(event_id))
    except GoneEvent.DoesNotExist:
        return None
