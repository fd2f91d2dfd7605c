"""Push notifications (docs: "Notifications"), one module per job.

queueing.py: a request that causes notifications calls :func:`enqueue` once per trigger, after its own
writes. queue_handler.py: the queue's Lambda (:func:`handle_queue_batch`) expands each message to its
recipients (recipients.py: who, which flag, what words) and delivers each push once per device
(delivery.py, behind delivery claims kept by store/claims.py). reminders.py: the hourly schedule
queues one message per event starting soon (:func:`enqueue_reminders`). messages.py: the message types
and what they share.
"""

from chalicelib.messaging.notifications.messages import (
    CONTACT_JOINED,
    EVENT_CANCELLED,
    EVENT_CHANGED,
    EVENT_FULL,
    FIELD_WORDS,
    INVITE_RSVP,
    NEW_INVITE,
    UPCOMING_EVENT,
    WAITLIST_DROPPED,
    WAITLIST_PROMOTED,
    Outcome,
    RetryLater,
)
from chalicelib.messaging.notifications.queueing import enqueue

__all__ = [
    "CONTACT_JOINED",
    "EVENT_CANCELLED",
    "EVENT_CHANGED",
    "EVENT_FULL",
    "FIELD_WORDS",
    "INVITE_RSVP",
    "NEW_INVITE",
    "UPCOMING_EVENT",
    "WAITLIST_DROPPED",
    "WAITLIST_PROMOTED",
    "Outcome",
    "RetryLater",
    "enqueue",
]
