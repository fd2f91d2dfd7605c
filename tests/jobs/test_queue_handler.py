"""The queue's worker: a batch of messages, each handed to its kind's handler."""

from __future__ import annotations

import json

import pytest

from chalicelib.jobs import queue_handler
from chalicelib.messaging import notifications
from tests.utils.factories import make_event, make_person
from tests.utils.notifications import add_device, pushes


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
