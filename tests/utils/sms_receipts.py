"""SNS's SMS delivery-status log records, and the CloudWatch Logs subscription payload that carries them to a
function, in the shapes AWS writes them (SNS developer guide, "Viewing Amazon CloudWatch metrics and logs for SMS
deliveries"; CloudWatch Logs user guide, "Using subscription filters with AWS Lambda")."""

from __future__ import annotations

import base64
import gzip
import json

from chalicelib.models.auth import SentNotification
from chalicelib.store.claims import claim_key

REGION, ACCOUNT = "us-east-1", "123456789012"
CARRIER_OK = "Message has been accepted by phone"
CARRIER_UNREACHABLE = "Phone is currently unreachable/unavailable"


def delivery_record(message_id: str, destination: str, *, success: bool = True) -> dict:
    """One SNS SMS delivery-status record: ``SUCCESS`` logs to DirectPublishToPhoneNumber, ``FAILURE`` to
    DirectPublishToPhoneNumber/Failure."""
    return {
        "notification": {"messageId": message_id, "timestamp": "2026-11-29 10:00:00.123"},
        "delivery": {
            "mnc": 0,
            "numberOfMessageParts": 1,
            "destination": destination,
            "priceInUSD": 0.00581,
            "smsType": "Transactional",
            "mcc": 310,
            "providerResponse": CARRIER_OK if success else CARRIER_UNREACHABLE,
            "dwellTimeMs": 312,
            "dwellTimeMsUntilDeviceAck": 1510,
        },
        "status": "SUCCESS" if success else "FAILURE",
    }


def log_group(*, failure: bool = False) -> str:
    group = f"sns/{REGION}/{ACCOUNT}/DirectPublishToPhoneNumber"
    return f"{group}/Failure" if failure else group


def subscription_event(records: list[dict], *, failure: bool = False, at_ms: int = 1796032800123) -> dict:
    """What CloudWatch Logs hands a subscribed Lambda function: ``{"awslogs": {"data": base64(gzip(JSON))}}``."""
    payload = {
        "messageType": "DATA_MESSAGE",
        "owner": ACCOUNT,
        "logGroup": log_group(failure=failure),
        "logStream": "1f4b5b3e-1c7e-4a0e-9f1d-2c3f0a9b8e7d",
        "subscriptionFilters": ["invites-dev-text-receipts"],
        "logEvents": [
            {"id": str(36000000000000000000000000000000000000000000000000000000 + n), "timestamp": at_ms + n,
             "message": json.dumps(record)}
            for n, record in enumerate(records)
        ],
    }  # fmt: skip
    return packed(payload)


def packed(payload: dict) -> dict:
    return {"awslogs": {"data": base64.b64encode(gzip.compress(json.dumps(payload).encode())).decode()}}


def control_event() -> dict:
    """The message CloudWatch Logs sends when a subscription filter is made."""
    return packed({
        "messageType": "CONTROL_MESSAGE", "owner": "CloudwatchLogs", "logGroup": "", "logStream": "",
        "subscriptionFilters": [], "logEvents": [{"id": "", "timestamp": 1796032800000,
        "message": "CWL CONTROL MESSAGE: Checking health of destination Lambda function."}],
    })  # fmt: skip


def message_id_of_text(kind: str, occurrence: str, user_id: int) -> str:
    """The MessageId SNS answered for a text, as its outbox record keeps it."""
    record = SentNotification.get(claim_key(kind, occurrence, user_id, "sms"), consistent_read=True)
    assert record.message_id, record.attribute_values
    return record.message_id
