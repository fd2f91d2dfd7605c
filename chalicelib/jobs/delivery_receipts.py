"""The ``record_text_receipts`` function: SNS's SMS delivery-status logs (the log groups
``sns/<region>/<account>/DirectPublishToPhoneNumber`` and ``.../DirectPublishToPhoneNumber/Failure``) reach it
through a CloudWatch Logs subscription filter (docs/deploy.md), invoked asynchronously with the payload
CloudWatch Logs sends every subscriber: ``{"awslogs": {"data": <base64 of gzip of JSON>}}``, whose JSON holds
``messageType`` (``DATA_MESSAGE``, or ``CONTROL_MESSAGE`` when the filter is made), ``logGroup`` and
``logEvents`` (``id``, ``timestamp``, ``message``: one SNS delivery record). The receipts go to
services/texts/delivery_receipts.py. A payload that is no such thing is skipped (logged); a DynamoDB fault raises,
so Lambda tries again and then sends the payload to the function's failure queue."""

from __future__ import annotations

import base64
import binascii
import json
import logging
import zlib

from chalicelib.services.texts import delivery_receipts

log = logging.getLogger("invites")

MAX_DECODED_BYTES = 8 * 1024 * 1024  # a payload is at most 1 MB of log events; a bigger one is refused unread
SMS_LOG_GROUP = "DirectPublishToPhoneNumber"  # in the name of both SNS SMS log groups (success and failure)


def decoded_payload(event: dict) -> dict | None:
    """The subscription's JSON, or None when ``event`` does not carry one (or unpacks beyond the bound)."""
    try:
        packed = base64.b64decode(event["awslogs"]["data"], validate=True)
        unpacker = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)  # gzip
        raw = unpacker.decompress(packed, MAX_DECODED_BYTES)
        if unpacker.unconsumed_tail:
            return None
        payload = json.loads(raw)
    except (KeyError, TypeError, ValueError, binascii.Error, zlib.error):
        return None
    return payload if isinstance(payload, dict) else None


def handle_delivery_logs(event) -> dict:
    """Record the receipts of one subscription payload; what became of them, counted."""
    payload = decoded_payload(event if isinstance(event, dict) else {})
    if payload is None:
        log.warning("delivery receipts: an invocation without a CloudWatch Logs payload was skipped")
        return {"skipped": 1}
    if payload.get("messageType") != "DATA_MESSAGE":
        return {"control": 1}  # the filter's own test message when it is made
    if SMS_LOG_GROUP not in str(payload.get("logGroup", "")):
        log.warning("delivery receipts: log events of another log group were skipped")
        return {"skipped": 1}
    events = payload.get("logEvents")
    receipts = [
        receipt
        for entry in (events if isinstance(events, list) else [])
        if isinstance(entry, dict)
        and (receipt := delivery_receipts.receipt_of(entry.get("message", ""), entry.get("timestamp") or 0))
    ]
    counts = delivery_receipts.record_receipts(receipts)
    log.info(json.dumps({"msg": "delivery receipts", **counts}))
    return counts
