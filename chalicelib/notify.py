"""Texts and pushes through SNS. In local runs each one is also printed, so a person can log in."""

from __future__ import annotations

import json

from chalicelib import aws
from chalicelib.config import get_settings


def _echo(kind: str, to: str, text: str) -> None:
    if get_settings().echo_notifications:
        print(json.dumps({"msg": kind, "to": to, "text": text}), flush=True)


def send_sms(e164: str, text: str) -> None:
    """Send one transactional text. Raises the AWS error when SNS refuses or is down."""
    settings = get_settings()
    attributes = {"AWS.SNS.SMS.SMSType": {"DataType": "String", "StringValue": "Transactional"}}
    if settings.sms_sender_id:
        attributes["AWS.SNS.SMS.SenderID"] = {"DataType": "String", "StringValue": settings.sms_sender_id}
    aws.sns().publish(PhoneNumber=e164, Message=text, MessageAttributes=attributes)
    _echo("sms", e164, text)
