"""Sends transactional texts through SNS."""

from __future__ import annotations

from chalicelib import aws
from chalicelib.aws_errors import error_code, is_transient
from chalicelib.config import get_settings
from chalicelib.messaging.local_echo import echo


class SmsRefused(Exception):
    """SNS refused a text for a reason that will not pass; carries only the error code."""


def send_sms(e164: str, text: str) -> None:
    """Send one transactional text. Raises the AWS error when SNS is down, SmsRefused when it refuses."""
    from botocore.exceptions import ClientError

    settings = get_settings()
    attributes = {"AWS.SNS.SMS.SMSType": {"DataType": "String", "StringValue": "Transactional"}}
    if settings.sms_sender_id:
        attributes["AWS.SNS.SMS.SenderID"] = {"DataType": "String", "StringValue": settings.sms_sender_id}
    try:
        aws.sns().publish(PhoneNumber=e164, Message=text, MessageAttributes=attributes)
    except ClientError as exc:
        if is_transient(exc):
            raise
        # SNS's message may quote the number; the logged traceback must not
        raise SmsRefused(error_code(exc) or "unknown") from None
    echo("sms", e164, text)
