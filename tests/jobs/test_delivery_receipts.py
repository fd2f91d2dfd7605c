"""Delivery receipts from the real SNS path: SNS's SMS delivery-status log records, carried by a CloudWatch Logs
subscription to ``record_text_receipts``, make an invitation text's row read ``delivered`` or ``failed`` for the
hosts, matched by the MessageId the outbox kept. Records twice or out of order, unknown ids, control messages and
payloads that are no such thing change nothing they should not; a DynamoDB fault raises, so Lambda tries again."""

from __future__ import annotations

import base64
import gzip
import json
from datetime import UTC, datetime, timedelta

import pytest

from chalicelib.models.auth import SentNotification
from chalicelib.services.texts import text_outbox
from chalicelib.store.claims import claim_key
from tests.utils.api import body, get, texts_to
from tests.utils.aws_faults import always, on_the_wire, wire_error
from tests.utils.factories import make_person, phone, table_items
from tests.utils.sms_receipts import (
    control_event,
    delivery_record,
    message_id_of_text,
    packed,
    subscription_event,
)
from tests.utils.web import invite_by_text

FUNCTION = "record_text_receipts"


def _invited(client):
    """Alice invites two numbers by text; (Alice, event id, {number: user id})."""
    alice, first, second = make_person("Alice"), phone(), phone()
    created = invite_by_text(client, alice, first, second)
    ids = {row["phone_number"]: row["user_id"] for row in created["invitees"] if row["phone_number"] in (first, second)}
    assert texts_to(first) and texts_to(second)
    return alice, created["id"], ids


def _statuses(client, alice, event_id: int) -> dict[int, str | None]:
    rows = body(get(client, f"/events/{event_id}", alice.token))["invitees"]
    return {row["user_id"]: row["text_status"] for row in rows}


def _receive(client, records: list[dict], *, failure: bool = False):
    return client.lambda_.invoke(FUNCTION, subscription_event(records, failure=failure)).payload


def _record_state(event_id: int, user_id: int) -> str:
    return SentNotification.get(claim_key("invitation", str(event_id), user_id, "sms"), consistent_read=True).state


def test_success_and_failure_records_show_on_the_hosts_rows(client):
    alice, event_id, ids = _invited(client)
    (first, first_id), (second, second_id) = ids.items()
    assert _statuses(client, alice, event_id)[first_id] == "sent"
    delivered = delivery_record(message_id_of_text("invitation", str(event_id), first_id), first)
    assert _receive(client, [delivered]) == {"delivered": 1, "failed": 0, "unknown": 0, "stale": 0}
    undelivered = delivery_record(message_id_of_text("invitation", str(event_id), second_id), second, success=False)
    assert _receive(client, [undelivered], failure=True)["failed"] == 1
    statuses = _statuses(client, alice, event_id)
    assert (statuses[first_id], statuses[second_id]) == ("delivered", "failed")
    assert (_record_state(event_id, first_id), _record_state(event_id, second_id)) == ("delivered", "failed")


def test_a_record_twice_or_a_failure_after_delivery_changes_nothing(client):
    alice, event_id, ids = _invited(client)
    (number, user_id), _ = ids.items()
    message_id = message_id_of_text("invitation", str(event_id), user_id)
    delivered, failed = delivery_record(message_id, number), delivery_record(message_id, number, success=False)
    assert _receive(client, [delivered, delivered])["delivered"] == 2  # writing it again is harmless
    before = table_items()
    assert _receive(client, [failed], failure=True) == {"delivered": 0, "failed": 0, "unknown": 0, "stale": 1}
    assert table_items() == before
    assert _statuses(client, alice, event_id)[user_id] == "delivered"


def test_a_delivery_after_a_failure_wins(client):
    alice, event_id, ids = _invited(client)
    (number, user_id), _ = ids.items()
    message_id = message_id_of_text("invitation", str(event_id), user_id)
    assert _receive(client, [delivery_record(message_id, number, success=False)], failure=True)["failed"] == 1
    assert _statuses(client, alice, event_id)[user_id] == "failed"
    assert _receive(client, [delivery_record(message_id, number)])["delivered"] == 1
    assert _statuses(client, alice, event_id)[user_id] == "delivered"


def test_unknown_ids_control_messages_and_foreign_payloads_write_nothing(client):
    alice, event_id, ids = _invited(client)
    before = table_items()
    unknown = delivery_record("0f4a4b4c-aaaa-bbbb-cccc-123456789abc", phone())
    assert _receive(client, [unknown])["unknown"] == 1
    assert client.lambda_.invoke(FUNCTION, control_event()).payload == {"control": 1}
    not_sns = {"messageType": "DATA_MESSAGE", "logGroup": "/aws/lambda/other", "logEvents": [{"message": "{}"}]}
    bomb = {"awslogs": {"data": base64.b64encode(gzip.compress(b"[" + b" " * (9 * 1024 * 1024) + b"]")).decode()}}
    for event in (packed(not_sns), bomb, {"awslogs": {"data": "not base64!"}}, {"Records": []}, []):
        assert client.lambda_.invoke(FUNCTION, event).payload == {"skipped": 1}
    odd = ["not json", json.dumps({"status": "SUCCESS"}), json.dumps({"notification": {"messageId": "x" * 101},
           "status": "SUCCESS"}), json.dumps({"notification": {"messageId": "m"}, "status": "PENDING"})]  # fmt: skip
    event = packed(
        {"messageType": "DATA_MESSAGE", "logGroup": "sns/us-east-1/1/DirectPublishToPhoneNumber",
         "logEvents": [{"id": str(n), "timestamp": 1, "message": text} for n, text in enumerate(odd)]}
    )  # fmt: skip
    assert client.lambda_.invoke(FUNCTION, event).payload == {"delivered": 0, "failed": 0, "unknown": 0, "stale": 0}
    assert table_items() == before
    assert set(_statuses(client, alice, event_id).values()) == {None, "sent"}


def test_a_text_sent_outside_an_invitation_gets_its_record_marked_and_no_row(client):
    alice, event_id, ids = _invited(client)
    (number, user_id), _ = ids.items()
    text = text_outbox.Text(
        "announcement", "77", event_id, user_id, number, "Invites: news", datetime.now(UTC) + timedelta(days=14)
    )
    assert text_outbox.send_text(text) == text_outbox.SENT  # one try, settled on its own (not in a batch)
    message_id = message_id_of_text("announcement", "77", user_id)
    assert _receive(client, [delivery_record(message_id, number)])["delivered"] == 1
    assert SentNotification.get(text.key, consistent_read=True).state == "delivered"
    assert _statuses(client, alice, event_id)[user_id] == "sent"  # the invitation's own text is another


@pytest.mark.parametrize("operation", ["GetItem", "UpdateItem"])
def test_a_dynamodb_fault_raises_so_lambda_tries_again_and_the_retry_lands(client, operation):
    alice, event_id, ids = _invited(client)
    (number, user_id), _ = ids.items()
    event = subscription_event([delivery_record(message_id_of_text("invitation", str(event_id), user_id), number)])
    with on_the_wire(always("dynamodb", operation, wire_error("dynamodb", operation, "ThrottlingException"))):
        with pytest.raises(Exception, match="Throttling"):
            client.lambda_.invoke(FUNCTION, event)
    assert _statuses(client, alice, event_id)[user_id] == "sent"
    assert client.lambda_.invoke(FUNCTION, event).payload["delivered"] == 1
    assert _statuses(client, alice, event_id)[user_id] == "delivered"
