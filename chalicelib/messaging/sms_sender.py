"""Sends transactional texts through SNS, and asks SNS whether a number opted out of them.

SNS keeps an account-wide opt-out list: a number that replied STOP to any of the account's texts is on
it, and a Publish to it is not delivered. ``opted_out`` asks before every text. In the emulator (moto)
``CheckIfPhoneNumberIsOptedOut`` answers true for every number ending in 99 and ignores the list that
``OptInPhoneNumber`` edits; in AWS it answers from the account's real list.
"""

from __future__ import annotations

import logging

from chalicelib import aws
from chalicelib.aws_errors import error_code, is_transient
from chalicelib.config import get_settings
from chalicelib.messaging.local_echo import echo

log = logging.getLogger("invites")

ORIGINATION_ATTRIBUTE = "AWS.MM.SMS.OriginationNumber"


class SmsRefused(Exception):
    """SNS refused a text for a reason that will not pass; carries only the error code."""


def opted_out(e164: str) -> bool:
    """True when the number is on the account's SMS opt-out list. Raises the AWS error when SNS is down
    (a 503 for the caller); a number SNS calls malformed is not opted out (its text will fail instead)."""
    from botocore.exceptions import ClientError

    try:
        answer = aws.sns().check_if_phone_number_is_opted_out(phoneNumber=e164)
    except ClientError as exc:
        if is_transient(exc):
            raise
        log.warning("opt-out check refused: %s", error_code(exc) or "unknown")
        return False
    return bool(answer.get("isOptedOut"))


def send_sms(e164: str, text: str, *, origination: str = "") -> None:
    """Send one transactional text, from ``origination`` (a number or pool of the account; "": the
    account's default). Raises the AWS error when SNS is down, SmsRefused when it refuses."""
    from botocore.exceptions import ClientError

    settings = get_settings()
    attributes = {"AWS.SNS.SMS.SMSType": {"DataType": "String", "StringValue": "Transactional"}}
    if settings.sms_sender_id:
        attributes["AWS.SNS.SMS.SenderID"] = {"DataType": "String", "StringValue": settings.sms_sender_id}
    if origination:
        attributes[ORIGINATION_ATTRIBUTE] = {"DataType": "String", "StringValue": origination}
    try:
        aws.sns().publish(PhoneNumber=e164, Message=text, MessageAttributes=attributes)
    except ClientError as exc:
        if is_transient(exc):
            raise
        # SNS's message may quote the number; the logged traceback must not
        raise SmsRefused(error_code(exc) or "unknown") from None
    echo("sms", e164, text)
