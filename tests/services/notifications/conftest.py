"""The hourly schedule and the queue as deployed, on the test's clock: ``hours.now`` is what the scheduled side
reads, ``hours.run()`` runs the hourly function and hands each message it queued to the queue handler."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from chalicelib.jobs import queue_handler, schedule
from chalicelib.messaging.notifications import queueing
from chalicelib.messaging.notifications.messages import RetryLater
from chalicelib.services.hosting import events as events_service
from chalicelib.services.notifications import attendance_steps, reminders
from chalicelib.services.replies import attendance
from chalicelib.store import due_steps


@pytest.fixture
def hours(monkeypatch):
    handed = queueing.send_many

    class Hours:
        now = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
        retried: list[dict] = []  # messages whose handler asked the queue to deliver them again

        @classmethod
        def run(cls) -> list[dict]:
            """The hourly function, then each ``due_step`` message it queued through the queue handler."""
            queued: list[dict] = []
            monkeypatch.setattr(queueing, "send_many", queued.extend)
            try:
                schedule.run_hourly()
            finally:
                monkeypatch.setattr(queueing, "send_many", handed)
            steps = [message for message in queued if message["type"] == "due_step"]
            for message in steps:
                try:
                    queue_handler.process(message)
                except RetryLater:
                    cls.retried.append(message)
            return steps

    for module in (attendance_steps, reminders, due_steps, events_service, attendance):
        monkeypatch.setattr(module, "utcnow", lambda: Hours.now)
    return Hours
