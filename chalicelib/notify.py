"""Texts and pushes through SNS. In local runs each one is also printed, so a person can log in."""

from __future__ import annotations

import json

from chalicelib import aws
from chalicelib.config import get_settings


class SmsRefused(Exception):
    """SNS refused a text for a reason that will not pass; carries only the error code."""


def _echo(kind: str, to: str | int, text: str) -> None:
    """Local runs only: the text holds a pin and the SMS a whole number, never for a deployed stage's logs."""
    settings = get_settings()
    if settings.echo_notifications and settings.stage == "local":
        print(json.dumps({"msg": kind, "to": to, "text": text}), flush=True)


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
        if aws.is_transient(exc):
            raise
        # SNS's message may quote the number; the logged traceback must not
        raise SmsRefused(aws.error_code(exc) or "unknown") from None
    _echo("sms", e164, text)


# APNS refuses a payload over 4 KB, and SNS then refuses the publish: a push made of long titles and names
# (200 and 256 characters of up to 4 bytes each) must be cut to fit, or its message would be retried in vain.
# moto does not check this size.
APNS_MAX_BYTES = 4096
ELLIPSIS = "\u2026"


def _encoded(payload: dict) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


def push_payload(title: str, body: str, data: dict) -> dict:
    """The APNS payload: an alert, the default sound, no badge, and the app's data (``type``, ...);
    the body, then the title, cut (with an ellipsis) so that it fits in ``APNS_MAX_BYTES`` as UTF-8."""
    while True:
        payload = {"aps": {"alert": {"title": title, "body": body}, "sound": "default"}, **data}
        excess = len(_encoded(payload).encode()) - APNS_MAX_BYTES
        if excess <= 0 or not (title or body):
            return payload
        drop = max(1, excess // 6) + 1  # a character takes at most 6 bytes here ("\\u001f")
        if len(body) > 1:
            body = body[: max(0, len(body.rstrip(ELLIPSIS)) - drop)] + ELLIPSIS
        else:
            title = title[: max(0, len(title.rstrip(ELLIPSIS)) - drop)] + ELLIPSIS


def send_push(endpoint_arn: str, to_user_id: int, title: str, body: str, data: dict) -> None:
    """Publish one push to one SNS platform endpoint. Raises the AWS error when SNS refuses or is
    down (``EndpointDisabled`` and the like are for the caller to act on)."""
    payload = _encoded(push_payload(title, body, data))
    message = {"default": f"{title}: {body}", "APNS": payload, "APNS_SANDBOX": payload}
    aws.sns().publish(TargetArn=endpoint_arn, MessageStructure="json", Message=json.dumps(message))
    _echo("push", to_user_id, f"{title}: {body}")
