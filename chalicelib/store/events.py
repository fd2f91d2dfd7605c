"""The events table's partitions: reading one whole, and writes to every invitation in it.

An event's partition ``EVENT#<id>`` holds its META, the invitations (``INV#<user id>``), messages,
polls and time suggestions. Services read it through :func:`load_partition` and change many
invitations at once through :func:`update_all` (transactions of at most 100 items, retried when
another transaction held an item).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from pynamodb.exceptions import TransactWriteError

from chalicelib.aws_errors import conflicted
from chalicelib.models.base import transact_write
from chalicelib.models.events import (
    OWNER,
    SUGGESTION_PREFIX,
    Event,
    EventsTable,
    Invitation,
    Message,
    Poll,
    event_pk,
)
from chalicelib.models.users import User
from chalicelib.parallel import chunks, parallel_map

TRANSACTION_ITEMS = 100  # DynamoDB's limit of items in one TransactWriteItems
CONFLICT_ATTEMPTS = 5


@dataclass
class EventView:
    """An event with everything said about it, and the people needed to show it."""

    event: Event
    invitations: list[Invitation]  # the owner first, then guests in the order they were invited
    messages: list[Message] = field(default_factory=list)  # oldest first
    polls: list[Poll] = field(default_factory=list)
    users: dict[int, User] = field(default_factory=dict)

    def invitation_of(self, user_id: int) -> Invitation | None:
        return next((inv for inv in self.invitations if inv.user_id == user_id), None)

    def attendees_count(self) -> int:
        """Everyone coming: the owner and the guests whose last reply was an accept."""
        return sum(1 for inv in self.invitations if inv.role == OWNER or inv.has_accepted is True)

    def people(self) -> set[int]:
        ids = {inv.user_id for inv in self.invitations} | {msg.user_id for msg in self.messages}
        ids.add(self.event.owner_id)
        return ids


def load_partition(event_id: int, *, consistent: bool = True) -> EventView | None:
    """The event's META, invitations, messages and polls in one Query (more pages only when huge).

    The time suggestions sort after them (``TS#``) and are left out by the key condition: no event
    representation carries them, so they cost an event read nothing."""
    event, invitations, messages, polls = None, [], [], []
    before_suggestions = EventsTable.sk < SUGGESTION_PREFIX
    for item in EventsTable.query(event_pk(event_id), before_suggestions, consistent_read=consistent):
        if isinstance(item, Event):
            event = item
        elif isinstance(item, Invitation):
            invitations.append(item)
        elif isinstance(item, Message):
            messages.append(item)
        elif isinstance(item, Poll):
            polls.append(item)
    if event is None:
        return None
    invitations.sort(key=lambda inv: (inv.role != OWNER, inv.created, inv.id))
    messages.sort(key=lambda message: (message.created, message.id))  # oldest first
    polls.sort(key=lambda poll: (poll.created, poll.id))
    return EventView(event, invitations, messages, polls)


def update_all(invitations: list[Invitation], actions: list) -> None:
    for attempt in range(CONFLICT_ATTEMPTS):
        try:
            with transact_write() as transaction:
                for invitation in invitations:
                    transaction.update(invitation, actions=actions, condition=Invitation.pk.exists())
            return
        except TransactWriteError as exc:
            if not conflicted(exc) or attempt == CONFLICT_ATTEMPTS - 1:
                raise
            time.sleep(0.05 * (attempt + 1))


def flag_invitations_cancelled(view: EventView) -> None:
    """Copy the cancel onto each invitation not flagged yet: ceil(n / 100) transactions in parallel."""
    pending = [inv for inv in view.invitations if not inv.cancelled]
    parallel_map(
        lambda chunk: update_all(chunk, [Invitation.cancelled.set(True)]),
        chunks(pending, TRANSACTION_ITEMS),
    )
    for invitation in pending:
        invitation.cancelled = True
