"""Notification internals: claims (idempotency), the batch handler, endpoint errors, the reminder window."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from botocore.exceptions import ClientError

from chalicelib.aws_errors import endpoint_gone
from chalicelib.config import get_settings
from chalicelib.jobs import queue_handler
from chalicelib.messaging import notifications
from chalicelib.messaging.notifications import queueing
from chalicelib.models.auth import SentNotification
from chalicelib.services import reminders
from chalicelib.store.claims import claim_delivery, mark_claim_sent, release_claim
from tests.utils.factories import make_event, make_person
from tests.utils.notifications import add_device, pushes


def _claim(key: str):
    return claim_delivery(key, None, get_settings().notification_lease_seconds)


def _error(code: str, message: str = "") -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": message}}, "Publish")


def test_a_claim_is_taken_once_and_a_stale_one_is_taken_over(aws, override_settings):
    first = _claim("SENT#k#1#2#t")
    assert first is not None and _claim("SENT#k#1#2#t") is None
    # a worker died after claiming: once the lease is over, the next delivery takes the key
    override_settings(notification_lease_seconds=-1)
    second = _claim("SENT#k#1#2#t")
    assert second is not None and second.nonce != first.nonce
    # the old worker can no longer release or mark the new claim
    release_claim(first)
    assert SentNotification.get("SENT#k#1#2#t").nonce == second.nonce
    mark_claim_sent(second)
    assert _claim("SENT#k#1#2#t") is None  # sent: never taken over


def test_a_released_claim_can_be_taken_again(aws):
    claim = _claim("SENT#k#1#2#u")
    release_claim(claim)
    assert _claim("SENT#k#1#2#u") is not None


@pytest.mark.parametrize(
    ("error", "gone"),
    [
        (_error("EndpointDisabled", "Endpoint is disabled"), True),
        (_error("NotFound", "Endpoint does not exist"), True),
        (_error("InvalidParameter", "Invalid parameter: TargetArn Reason: No endpoint found"), True),
        (_error("InvalidParameter", "Invalid parameter: Message too long"), False),
        (_error("InternalError"), False),
        (_error("Throttling"), False),
        (RuntimeError("boom"), False),
    ],
)
def test_which_errors_mean_the_endpoint_is_gone(error, gone):
    assert endpoint_gone(error) is gone


def test_a_batch_with_a_failing_message_raises_after_sending_the_rest(aws):
    alice, bob = make_person("Alice"), make_person("Bob")
    arn = add_device(bob, "e5" * 32)
    event = make_event(alice, bob)  # inline mode: pushed once already
    assert len(pushes(arn)) == 1
    good = {"type": "event_changed", "id": 1, "event_id": event.id, "actor_id": alice.id, "fields": ["title"]}
    broken = {"type": "event_changed", "id": 2, "event_id": "not a number", "actor_id": alice.id}
    records = [
        (json.dumps(good), "r1"),
        (json.dumps(broken), "r2"),
        ("{not json", "r3"),  # dropped, never retried
        (json.dumps({"type": "no_such_type"}), "r4"),  # dropped
    ]
    with pytest.raises(notifications.RetryLater, match="1 of 4"):
        queue_handler.handle_queue_batch(records)
    assert [p["type"] for p in pushes(arn)] == ["new_invite", "event_changed"]
    with pytest.raises(notifications.RetryLater):
        queue_handler.handle_queue_batch(records)
    assert len(pushes(arn)) == 2  # the good one again: nothing new


def test_flags_off_or_no_device_cost_no_claim(aws):
    alice, bob = make_person("Alice"), make_person("Bob")
    make_event(alice, bob)
    assert list(SentNotification.scan()) == []  # a test-only Scan: nobody has a device


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
