"""Fixtures of the change texts' tests: the scheduled side's clock, and the delayed messages held for the test."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from chalicelib.messaging.notifications import queueing
from chalicelib.services.hosting import events as events_service
from chalicelib.services.texts import guest_texts
from chalicelib.services.texts.guest_texts import CHANGE_TEXTS_DUE


@pytest.fixture
def clock(monkeypatch):
    """The scheduled side's clock: ``clock.now`` is what it reads."""

    class Clock:
        now = datetime(2030, 1, 5, 15, 0, tzinfo=UTC)  # 10:00 in New York

    monkeypatch.setattr(guest_texts, "utcnow", lambda: Clock.now)
    monkeypatch.setattr(events_service, "utcnow", lambda: Clock.now)
    return Clock


@pytest.fixture
def due(monkeypatch) -> list[dict]:
    """Delayed ``change_texts_due`` messages, held here instead of being processed at once."""
    held = []
    handed = queueing.enqueue

    def enqueue(message_type, *, delay_seconds=0, **fields):
        if message_type != CHANGE_TEXTS_DUE:
            return handed(message_type, delay_seconds=delay_seconds, **fields)
        held.append({"type": message_type, "id": len(held), **fields, "delay": delay_seconds})
        return True

    monkeypatch.setattr(queueing, "enqueue", enqueue)
    return held
