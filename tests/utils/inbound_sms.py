"""Inbound texts as SNS hands them to the function subscribed to the two-way SMS topic."""

from __future__ import annotations

import json


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
