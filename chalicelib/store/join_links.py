"""Join links and join requests: the code's lookup item, the pending requests of an event, and the writes
that turn a request or a join into an invitation together with the event's counters.

Every write that a limit bounds is one transaction conditional on the counter it moves (``invitee_count``
below the invitee limit, ``join_request_count`` below the pending-request limit), so parallel joins never
pass a limit. :class:`~chalicelib.store.Refused` carries which item was refused.
"""

from __future__ import annotations

from datetime import datetime

from pynamodb.exceptions import DoesNotExist

from chalicelib.models.base import transact_write
from chalicelib.models.events import (
    JOIN_CODE_PREFIX,
    JOIN_REQUEST_PREFIX,
    META_SK,
    Event,
    Invitation,
    JoinCode,
    JoinRequest,
    event_pk,
)
from chalicelib.store import refusals

# Positions of the items in the transactions below, for Refused.item_failed.
FIRST_ITEM, SECOND_ITEM, THIRD_ITEM = 0, 1, 2


def _code_key(code_hash: str) -> str:
    return f"{JOIN_CODE_PREFIX}{code_hash}"


def _request_sk(user_id: int) -> str:
    return f"{JOIN_REQUEST_PREFIX}{user_id}"


def _meta(event_id: int) -> Event:
    return Event(event_pk(event_id), META_SK)


def replace_code(event: Event, new_hash: str) -> None:
    """Make ``new_hash`` the event's only join code: its lookup item saved, the earlier one deleted, and the
    event's hash moved, in one transaction conditional on the hash read (Refused when another replace won)."""
    old_hash = event.join_code_hash
    with refusals(), transact_write() as transaction:
        transaction.save(
            JoinCode(_code_key(new_hash), META_SK, event_id=event.id), condition=JoinCode.pk.does_not_exist()
        )
        unchanged = Event.join_code_hash == old_hash if old_hash else Event.join_code_hash.does_not_exist()
        transaction.update(event, actions=[Event.join_code_hash.set(new_hash)], condition=unchanged)
        if old_hash:
            transaction.delete(JoinCode(_code_key(old_hash), META_SK))
    event.join_code_hash = new_hash


def event_of_code(code_hash: str) -> int | None:
    """The event id a code's hash opens (one GetItem); None for a code never made or replaced since."""
    try:
        return JoinCode.get(_code_key(code_hash), META_SK).event_id
    except DoesNotExist:
        return None


def forget_code(code_hash: str) -> None:
    """Delete a code's lookup item (its event is gone)."""
    JoinCode(_code_key(code_hash), META_SK).delete()


def _invitee_room(most_invitees: int):
    return (Event.invitee_count < most_invitees) | Event.invitee_count.does_not_exist()


def save_joined(event_id: int, invitation: Invitation, most_invitees: int) -> None:
    """Store a new invitation and count it among the event's invitees, while the event is live and has room.
    Refused: item FIRST_ITEM (already an invitee) or SECOND_ITEM (cancelled, or full)."""
    with refusals(), transact_write() as transaction:
        transaction.save(invitation, condition=Invitation.pk.does_not_exist())
        transaction.update(
            _meta(event_id),
            actions=[Event.invitee_count.add(1)],
            condition=(Event.cancelled == False) & _invitee_room(most_invitees),  # noqa: E712 - a condition
        )


def save_request(event_id: int, user_id: int, now: datetime, most_pending: int) -> None:
    """Store a pending request and count it, while the event has fewer than ``most_pending``.
    Refused: item FIRST_ITEM (asked already) or SECOND_ITEM (too many pending, or the event cancelled)."""
    pending_room = (Event.join_request_count < most_pending) | Event.join_request_count.does_not_exist()
    with refusals(), transact_write() as transaction:
        transaction.save(
            JoinRequest(event_pk(event_id), _request_sk(user_id), user_id=user_id, requested=now),
            condition=JoinRequest.pk.does_not_exist(),
        )
        transaction.update(
            _meta(event_id),
            actions=[Event.join_request_count.add(1)],
            condition=(Event.cancelled == False) & pending_room,  # noqa: E712 - a condition
        )


def pending_requests(event_id: int) -> list[JoinRequest]:
    """The event's pending requests, oldest first (one Query of the partition's ``~JOINREQ#`` items)."""
    items = JoinRequest.query(event_pk(event_id), JoinRequest.sk.startswith(JOIN_REQUEST_PREFIX), consistent_read=True)
    return sorted(items, key=lambda item: (item.requested, item.user_id))


def approve_request(event_id: int, invitation: Invitation, most_invitees: int) -> None:
    """The request of ``invitation``'s person becomes that invitation, in one transaction.
    Refused: item FIRST_ITEM (no such request), SECOND_ITEM (the event full of invitees or cancelled),
    THIRD_ITEM (already an invitee)."""
    with refusals(), transact_write() as transaction:
        transaction.delete(
            JoinRequest(event_pk(event_id), _request_sk(invitation.user_id)), condition=JoinRequest.pk.exists()
        )
        transaction.update(
            _meta(event_id),
            actions=[Event.invitee_count.add(1), Event.join_request_count.add(-1)],
            condition=(Event.cancelled == False) & _invitee_room(most_invitees),  # noqa: E712 - a condition
        )
        transaction.save(invitation, condition=Invitation.pk.does_not_exist())


def delete_request(event_id: int, user_id: int) -> None:
    """Remove a pending request and uncount it. Refused when there is none."""
    with refusals(), transact_write() as transaction:
        transaction.delete(JoinRequest(event_pk(event_id), _request_sk(user_id)), condition=JoinRequest.pk.exists())
        transaction.update(_meta(event_id), actions=[Event.join_request_count.add(-1)])
