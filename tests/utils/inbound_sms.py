"""Inbound texts as SNS hands them to the function subscribed to the two-way SMS topic."""

from __future__ import annotations

import json
import uuid

SERVICE_NUMBER = "+18885550123"


def sns_event(payload) -> dict:
    """What SNS hands the Lambda function subscribed to the topic."""
    message = payload if isinstance(payload, str) else json.dumps(payload)
    topic = "arn:aws:sns:us-east-1:123456789012:invites-test-inbound-sms"
    record = {
        "EventSource": "aws:sns",
        "EventVersion": "1.0",
        "EventSubscriptionArn": f"{topic}:0b6941c3-f04d-4d3e-a66d-b1df00e1e381",
        "Sns": {
            "Type": "Notification",
            "MessageId": "95df01b4-ee98-5cb9-9903-4c221d41eb5e",
            "TopicArn": topic,
            "Subject": None,
            "Message": message,
            "Timestamp": "2026-11-26T10:00:00.000Z",
            "MessageAttributes": {},
        },
    }
    return {"Records": [record]}


def reply(number: str, body: str, message_id: str | None = None) -> None:
    """``number`` texts ``body`` to the service, as two-way SMS publishes it to the inbound topic."""
    from app import handle_inbound_sms

    payload = {
        "originationNumber": number,
        "destinationNumber": SERVICE_NUMBER,
        "messageKeyword": "KEYWORD_123456789012",
        "messageBody": body,
        "inboundMessageId": message_id or str(uuid.uuid4()),
    }
    handle_inbound_sms(sns_event(payload), None)
