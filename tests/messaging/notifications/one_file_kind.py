"""A queue kind as a feature adds one: this file is all of it (its declaration, its handler and what sends it).

tests/messaging/notifications/test_kinds.py drops it among the services' modules, as a new module of a
capability package, and runs it through the queue with no other edit.
"""

from chalicelib.messaging import notifications
from chalicelib.messaging.notifications.kinds import handles, queue_kind
from chalicelib.messaging.notifications.messages import Outcome

GUEST_WAVED = queue_kind("guest_waved")

handled: list[dict] = []


def wave(event_id: int, user_id: int) -> bool:
    """What a request calls after its own writes: one message of the new kind."""
    return notifications.enqueue(GUEST_WAVED, event_id=event_id, user_id=user_id)


@handles(GUEST_WAVED)
def _guest_waved(message: dict) -> Outcome:
    handled.append({"event_id": message["event_id"], "user_id": message["user_id"]})
    return Outcome(sent=1)
