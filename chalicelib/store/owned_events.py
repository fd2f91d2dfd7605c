"""The events a user owns, read consistently: one ``OwnedEvent`` item under ``USER#<id>`` per event.

The ``by_user`` index answers eventually, so an event created a moment before its owner deleted the account
may be missing from it; a cascade that trusted it would end and leave the event behind with nobody to delete
it. The item is written in the event's own creation transaction, together with a check that the owner's
profile is still there, so once the account is closed no event of theirs can appear, and every one that
exists is found by a consistent Query of the user's partition."""

from __future__ import annotations

from chalicelib.models.users import OWNED_EVENT_PREFIX, PROFILE_SK, OwnedEvent, User, owned_event_sk, user_pk

# PynamoDB sends a transaction's condition checks before its puts: in an event's creation transaction the
# owner check is item 0 and META, the first put, item 1 (store/events.py).
OWNER_CHECK_POSITION, META_POSITION = 0, 1
ITEMS_PER_CREATION = 2


def add_to_creation(transaction, owner_id: int, event_id: int) -> None:
    """The owner's record of the event, and the condition that the owner's account is still open."""
    transaction.save(OwnedEvent(user_pk(owner_id), owned_event_sk(event_id), event_id=event_id))
    transaction.condition_check(User, user_pk(owner_id), PROFILE_SK, condition=User.pk.exists())


def recorded_event_ids(user_id: int) -> set[int]:
    items = OwnedEvent.query(
        user_pk(user_id), OwnedEvent.sk.startswith(OWNED_EVENT_PREFIX), consistent_read=True
    )
    return {item.event_id for item in items}


def forget(owner_id: int, event_id: int) -> None:
    """Drop the record once the event is deleted (deleting a missing item is fine)."""
    OwnedEvent(user_pk(owner_id), owned_event_sk(event_id)).delete()
