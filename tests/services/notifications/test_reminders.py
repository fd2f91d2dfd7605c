"""The hourly reminders: one message per live event starting within the next 24 hours."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from chalicelib.messaging.notifications import queueing
from chalicelib.services.notifications import reminders
from tests.utils.factories import make_event, make_person


def test_reminder_window_crosses_midnight_and_stops_at_24_hours(aws, monkeypatch):
    alice = make_person("Alice")
    now = datetime.now(UTC).replace(hour=23, minute=30, second=0, microsecond=0) + timedelta(days=3)
    inside = [make_event(alice, title=f"in {h}", when=now + timedelta(hours=h)) for h in (0.5, 1, 23.5)]
    outside = [make_event(alice, title=f"out {h}", when=now + timedelta(hours=h)) for h in (-1, 24.5, 48)]
    seen = []
    monkeypatch.setattr(queueing, "send_many", seen.extend)
    assert reminders.enqueue_reminders(now) == 3
    assert sorted(m["event_id"] for m in seen) == sorted(e.id for e in inside)
    assert not {m["event_id"] for m in seen} & {e.id for e in outside}
    assert "Scan" not in aws.of("dynamodb")
