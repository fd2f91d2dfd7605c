"""The offline guests of an event (OFF# items): people without a phone a host counts in. Adding one and
its spots is one transaction with the event's counters, removing one likewise."""

from __future__ import annotations

from datetime import datetime

from chalicelib.models.base import transact_write
from chalicelib.models.events import META_SK, Event, OfflineGuest, event_pk, offline_sk
from chalicelib.store import refusals
from chalicelib.store.events import nobody_waiting
from chalicelib.store.invitations import room_for


def add(
    event: Event, guest_id: int, *, name: str, extra_guests: int, now: datetime, max_spots_filled: int, most: int
) -> OfflineGuest:
    """Store the guest on condition the event is live, its party fits under the total read (with nobody
    waiting, who would be passed over) and the event holds fewer than ``most`` offline guests. Raises
    Refused or Contended."""
    spots = 1 + extra_guests
    guest = OfflineGuest(event_pk(event.id), offline_sk(guest_id), id=guest_id, name=name, extra_guests=extra_guests)
    guest.created = now
    below_most = Event.offline_count.does_not_exist() | (Event.offline_count < most)
    live = Event.cancelled == False  # noqa: E712
    with refusals(), transact_write() as transaction:
        transaction.save(guest, condition=OfflineGuest.pk.does_not_exist())
        transaction.update(
            Event(event_pk(event.id), META_SK),
            actions=[
                Event.spots_filled.add(spots),
                Event.offline_spots.add(spots),
                Event.offline_count.add(1),
                Event.modified.set(now),
            ],
            condition=live & room_for(event, spots, max_spots_filled) & nobody_waiting() & below_most,
        )
    return guest


def find(event_id: int, guest_id: int) -> OfflineGuest | None:
    try:
        return OfflineGuest.get(event_pk(event_id), offline_sk(guest_id), consistent_read=True)
    except OfflineGuest.DoesNotExist:
        return None


def remove(event_id: int, guest: OfflineGuest, *, now: datetime) -> None:
    """Delete the guest and give its spots back, on condition it is still there. Raises Refused or Contended."""
    spots = 1 + int(guest.extra_guests or 0)
    with refusals(), transact_write() as transaction:
        transaction.delete(guest, condition=OfflineGuest.pk.exists())
        transaction.update(
            Event(event_pk(event_id), META_SK),
            actions=[
                Event.spots_filled.add(-spots),
                Event.offline_spots.add(-spots),
                Event.offline_count.add(-1),
                Event.modified.set(now),
            ],
        )
