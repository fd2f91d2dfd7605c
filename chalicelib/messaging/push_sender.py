"""Publishes pushes to SNS platform endpoints: one message with an APNS payload (cut to fit APNS's size) and
an FCM v1 payload, so SNS sends each endpoint the one of its platform (iOS or Android)."""

from __future__ import annotations

import json

from chalicelib import aws
from chalicelib.messaging.local_echo import echo

# APNS refuses a payload over 4 KB, and SNS then refuses the publish: a push made of long titles and names
# (200 and 256 characters of up to 4 bytes each) must be cut to fit, or its message would be retried in vain.
# moto does not check this size.
APNS_MAX_BYTES = 4096
ELLIPSIS = "\u2026"
# Each loc-arg (a name, a title, a message) at most this many characters, so the arguments leave room for the
# rendered body and title within APNS_MAX_BYTES.
MAX_LOC_ARG = 100


def _encoded(payload: dict) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


def _short(value: str) -> str:
    return value if len(value) <= MAX_LOC_ARG else value[: MAX_LOC_ARG - 1] + ELLIPSIS


def localized(key: str, args: list[str]) -> dict:
    """The alert's ``loc-key`` and ``loc-args`` (Apple's names): the app's own string for ``key``, filled with
    ``args`` in order, each cut to MAX_LOC_ARG characters."""
    return {"loc-key": key, "loc-args": [_short(arg) for arg in args]}


def push_payload(title: str, body: str, data: dict, loc: dict | None = None) -> dict:
    """The APNS payload: an alert, the default sound, no badge, and the app's data (``type``, ...); ``loc``:
    the alert's ``loc-key`` and ``loc-args`` besides the rendered body. The body, then the title, cut (with an
    ellipsis) so that it fits in ``APNS_MAX_BYTES`` as UTF-8."""
    while True:
        alert = {"title": title, "body": body, **(loc or {})}
        payload = {"aps": {"alert": alert, "sound": "default"}, **data}
        excess = len(_encoded(payload).encode()) - APNS_MAX_BYTES
        if excess <= 0 or not (title or body):
            return payload
        drop = max(1, excess // 6) + 1  # a character takes at most 6 bytes here ("\\u001f")
        if len(body) > 1:
            body = body[: max(0, len(body.rstrip(ELLIPSIS)) - drop)] + ELLIPSIS
        else:
            title = title[: max(0, len(title.rstrip(ELLIPSIS)) - drop)] + ELLIPSIS


def fcm_payload(title: str, body: str, data: dict) -> dict:
    """The FCM v1 message SNS sends to an Android endpoint: a notification, and the app's data as strings
    (FCM's data values must be strings)."""
    strings = {key: "" if value is None else str(value) for key, value in data.items()}
    return {"fcmV1Message": {"message": {"notification": {"title": title, "body": body}, "data": strings}}}


def send_push(endpoint_arn: str, to_user_id: int, title: str, body: str, data: dict, loc: dict | None = None) -> None:
    """Publish one push to one SNS platform endpoint (``loc``: see :func:`push_payload`). Raises the AWS error
    when SNS refuses or is down (``EndpointDisabled`` and the like are for the caller to act on)."""
    apns = push_payload(title, body, data, loc)
    payload = _encoded(apns)
    alert = apns["aps"]["alert"]  # cut to fit as for APNS: FCM's limit (4 KB of data too) holds then
    message = {
        "default": f"{title}: {body}",
        "APNS": payload,
        "APNS_SANDBOX": payload,
        "GCM": _encoded(fcm_payload(alert["title"], alert["body"], data)),
    }
    aws.sns().publish(TargetArn=endpoint_arn, MessageStructure="json", Message=json.dumps(message))
    echo("push", to_user_id, f"{title}: {body}")
