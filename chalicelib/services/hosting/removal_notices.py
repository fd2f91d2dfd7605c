"""Telling a person a host removed them from an event, when the host asked (``?notify=true``): a push to an app
user, a text to someone without the app (services/texts/removal_texts.py). The request hands the queue a
``guest_removed`` message naming the removal (its time); each repeat of the request hands it again, and the
notice's claim, keyed by the removal, lets only the first through. Nothing is sent when the person was invited
again meanwhile."""

from __future__ import annotations

from datetime import datetime

from chalicelib.errors import ServiceUnavailable
from chalicelib.languages.catalogues import N_
from chalicelib.messaging.notifications import queueing
from chalicelib.messaging.notifications.kinds import handles, queue_kind
from chalicelib.messaging.notifications.messages import Outcome, Push, event_expiry
from chalicelib.messaging.notifications.push_words import PushWords
from chalicelib.services.push.push_delivery import deliver
from chalicelib.services.texts.host_label import host_label
from chalicelib.services.texts.removal_texts import text_removed
from chalicelib.store.events import load_partition
from chalicelib.store.users import get_users

# A host removed someone and asked that they be told: a push, or a text to someone without the app
GUEST_REMOVED = queue_kind("guest_removed")


def _stamp(removed: datetime) -> int:
    """The removal's time in microseconds: what tells this removal from a later one of the same person."""
    return round(removed.timestamp() * 1_000_000)


def ask_to_tell(event_id: int, user_id: int, host_id: int, removed: datetime) -> None:
    """Queue the notice of this removal; 503 when the queue could not take it (the removal stands, and a repeat
    of the request queues it again)."""
    handed = queueing.enqueue(
        GUEST_REMOVED, event_id=event_id, user_id=user_id, actor_id=host_id, removed=_stamp(removed)
    )
    if not handed:
        raise ServiceUnavailable("The guest was removed but could not be told yet; try again.")


@handles(GUEST_REMOVED)
def _guest_removed(message: dict) -> Outcome:
    event_id, user_id, host_id = int(message["event_id"]), int(message["user_id"]), int(message["actor_id"])
    view = load_partition(event_id)
    if view is None or view.invitation_of(user_id) is not None:
        return Outcome()  # the event is gone, or the person was invited again
    removal = next((item for item in view.removals if item.user_id == user_id), None)
    if removal is None or _stamp(removal.removed) != int(message["removed"]):
        return Outcome()
    event = view.event
    users = get_users([user_id, host_id, event.owner_id])
    person, owner = users.get(user_id), users.get(event.owner_id)
    host = users.get(host_id) or owner
    if person is None or host is None:
        return Outcome()
    occurrence = f"{event_id}:{user_id}:{message['removed']}"
    if person.is_active:
        words = PushWords("push.guest_removed", N_("{name} removed you from the event."), {"name": host_label(host)})
        push = Push(GUEST_REMOVED, occurrence, event.title, words, event.id, event_expiry(event))
        return deliver([(person, push)], "notify_event_change")
    if owner is None:
        return Outcome()
    return text_removed(owner, host, event, person, occurrence)
