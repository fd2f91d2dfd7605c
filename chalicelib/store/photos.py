"""An event's album (``~PHOTO#`` items): granting an upload against the event's and the uploader's counts in
one transaction, marking a processed photo ready once, removing one with its counts, and the album's pages."""

from __future__ import annotations

from datetime import datetime

from chalicelib.models.base import transact_write
from chalicelib.models.events import (
    META_SK,
    PHOTO_PREFIX,
    Event,
    Invitation,
    Photo,
    event_id_of,
    event_pk,
    invitation_sk,
    photo_sk,
)
from chalicelib.store import Refused, refusals
from chalicelib.store.once import update_once

PENDING, READY = "pending", "ready"
EVENT_POSITION, PERSON_POSITION = 1, 2  # in grant's transaction: which count refused


def grant(
    event_id: int, user_id: int, photo_id: int, upload_key: str, *, now: datetime, per_event: int, per_person: int
) -> Photo:
    """Store a pending photo on condition the event is live with fewer than ``per_event`` photos and the
    uploader's invitation holds fewer than ``per_person``. Raises Refused (``item_failed`` tells which count:
    EVENT_POSITION or PERSON_POSITION) or Contended."""
    photo = Photo(event_pk(event_id), photo_sk(photo_id), id=photo_id, user_id=user_id, state=PENDING)
    photo.upload_key, photo.created = upload_key, now
    under_event = Event.photo_count.does_not_exist() | (Event.photo_count < per_event)
    under_person = Invitation.photo_count.does_not_exist() | (Invitation.photo_count < per_person)
    with refusals(), transact_write() as transaction:
        transaction.save(photo, condition=Photo.pk.does_not_exist())
        transaction.update(
            Event(event_pk(event_id), META_SK),
            actions=[Event.photo_count.add(1)],
            condition=(Event.cancelled == False) & under_event,  # noqa: E712
        )
        transaction.update(
            Invitation(event_pk(event_id), invitation_sk(user_id)),
            actions=[Invitation.photo_count.add(1)],
            condition=Invitation.pk.exists() & under_person,
        )
    return photo


def event_id_of_photo(photo: Photo) -> int:
    return event_id_of(photo.pk)


def find(event_id: int, photo_id: int) -> Photo | None:
    try:
        return Photo.get(event_pk(event_id), photo_sk(photo_id), consistent_read=True)
    except Photo.DoesNotExist:
        return None


def mark_ready(photo: Photo, thumb_key: str, big_key: str) -> bool:
    """Point the pending photo at its JPEGs; False when it is no longer pending (processed already, or gone)."""
    try:
        with refusals():
            photo.update(
                actions=[Photo.state.set(READY), Photo.thumb_key.set(thumb_key), Photo.big_key.set(big_key)],
                condition=Photo.state == PENDING,
            )
    except Refused:
        return False
    return True


def remove(photo: Photo) -> bool:
    """Delete the photo and take it off the event's and the uploader's counts; False when it was gone already.
    The uploader's count is left alone once their invitation is gone (their account deleted)."""
    event_id = event_id_of(photo.pk)
    try:
        with refusals(), transact_write() as transaction:
            transaction.delete(photo, condition=Photo.pk.exists())
            transaction.update(Event(event_pk(event_id), META_SK), actions=[Event.photo_count.add(-1)])
    except Refused:
        return False
    try:  # applied once, even when its answer is lost and the SDK sends it again
        update_once(
            Invitation(event_pk(event_id), invitation_sk(photo.user_id)),
            [Invitation.photo_count.add(-1)],
            condition=Invitation.pk.exists(),
        )
    except Refused:
        pass
    return True


def page(event_id: int, *, before_id: int | None, size: int) -> tuple[list[Photo], int | None]:
    """Up to ``size`` ready photos, newest first, older than ``before_id`` when given; and the cursor of the
    next page (None on the last). Pending photos are read past (at most the event's photo limit)."""
    upper = photo_sk(before_id - 1) if before_id is not None else PHOTO_PREFIX + "~"
    found = list(
        Photo.query(
            event_pk(event_id),
            Photo.sk.between(PHOTO_PREFIX, upper),
            filter_condition=Photo.state == READY,
            scan_index_forward=False,
            consistent_read=True,
            limit=size + 1,
        )
    )
    return found[:size], (found[size - 1].id if len(found) > size else None)


def of_event(event_id: int, *, user_id: int | None = None, state: str | None = None) -> list[Photo]:
    """Every photo item of the event (at most its photo limit), of one uploader and in one state when given."""
    condition = None
    if user_id is not None:
        condition = Photo.user_id == user_id
    if state is not None:
        condition = (Photo.state == state) if condition is None else condition & (Photo.state == state)
    return list(
        Photo.query(
            event_pk(event_id), Photo.sk.startswith(PHOTO_PREFIX), filter_condition=condition, consistent_read=True
        )
    )


def event_of(event_id: int) -> Event | None:
    """The event's META, read consistently (None once deleted)."""
    try:
        return Event.get(event_pk(event_id), META_SK, consistent_read=True)
    except Event.DoesNotExist:
        return None
