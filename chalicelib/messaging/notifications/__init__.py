"""Push notifications (docs: "Notifications"): the queue's messages and its sending side.

queueing.py: a request that causes notifications calls :func:`enqueue` once per trigger, after its own
writes. kinds.py: how a kind of queue message is declared beside its handler, and their registry. messages.py:
what the messages share. The queue's worker (chalicelib/jobs/queue_handler.py) hands each message to its handler; for a
notification that is services/notifications/notification_jobs.py (who, which flag, what words), which delivers
each push once per device through services/push/push_delivery.py (behind delivery claims kept by store/claims.py).
services/notifications/reminders.py: the hourly schedule queues one message per event starting soon.
"""

from chalicelib.messaging.notifications.messages import EVENT_FULL, FIELD_WORDS, Outcome, RetryLater
from chalicelib.messaging.notifications.queueing import enqueue

__all__ = ["EVENT_FULL", "FIELD_WORDS", "Outcome", "RetryLater", "enqueue"]
