"""The hourly job: reminders of events starting soon, and account deletions whose message was lost."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from chalicelib.jobs import schedule
from chalicelib.messaging.notifications import queueing
from tests.utils.factories import make_event, make_person


def test_the_hourly_run_queues_a_reminder_per_event_starting_soon_and_says_how_many(aws, monkeypatch):
    alice = make_person("Alice")
    soon = make_event(alice, title="soon", when=datetime.now(UTC) + timedelta(hours=2))
    make_event(alice, title="later", when=datetime.now(UTC) + timedelta(days=5))
    queued = []
    monkeypatch.setattr(queueing, "send_many", queued.extend)
    assert schedule.run_hourly() == {"reminders": 1, "steps": 0, "deletions_requeued": 0}
    assert [(m["type"], m["event_id"]) for m in queued] == [("upcoming_event", soon.id)]
