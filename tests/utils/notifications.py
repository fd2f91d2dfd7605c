"""Helpers for notification tests: a moto SQS queue in place of the inline mode, what it holds, the
pushes moto's SNS accepted per endpoint, and devices registered without the HTTP route."""

from __future__ import annotations

import json

from moto.sns.models import sns_backends

from chalicelib.models.users import Device, device_sk, user_pk
from chalicelib.timeutil import utcnow
from tests.utils.api import ACCOUNT, REGION
from tests.utils.aws_env import aws_client

QUEUE_NAME = "test-notifications"


def use_queue(override_settings) -> str:
    """Create the notifications queue in moto and point the settings at it; returns its URL."""
    url = aws_client("sqs").create_queue(QueueName=QUEUE_NAME)["QueueUrl"]
    override_settings(notifications_queue_url=url)
    return url


def drain(url: str) -> list[str]:
    """Every message body in the queue, removed from it (oldest first, as far as SQS orders)."""
    sqs = aws_client("sqs")
    bodies = []
    while True:
        answer = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=0)
        messages = answer.get("Messages", [])
        if not messages:
            return bodies
        for message in messages:
            bodies.append(message["Body"])
            sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])


def run_queue(client, url: str, bodies: list[str] | None = None) -> list[str]:
    """Deliver what the queue holds (or ``bodies`` again) to the SQS handler; returns the bodies.

    The handler raises when a message failed (the batch's partial failure report aside).
    """
    bodies = drain(url) if bodies is None else bodies
    if bodies:
        client.lambda_.invoke("send_notifications", client.events.generate_sqs_event(bodies, queue_name="q"))
    return bodies


def add_device(person, token: str) -> str:
    """Register an iOS token for ``person`` as add_ios_device does; returns the endpoint ARN."""
    from chalicelib.config import get_settings

    arn = aws_client("sns").create_platform_endpoint(
        PlatformApplicationArn=get_settings().apns_platform_application_arn, Token=token
    )["EndpointArn"]
    Device(user_pk(person.id), device_sk(token), endpoint_arn=arn, created=utcnow()).save()
    return arn


def endpoints() -> dict:
    return sns_backends[ACCOUNT][REGION].platform_endpoints


def pushes(endpoint_arn: str) -> list[dict]:
    """The APNS payloads moto accepted for ``endpoint_arn``, oldest first (decoded)."""
    endpoint = endpoints().get(endpoint_arn)
    if endpoint is None:
        return []
    found = []
    for raw in endpoint.messages.values():
        message = json.loads(raw)
        found.append(json.loads(message["APNS"]))
    return found


def raw_pushes(endpoint_arn: str) -> list[dict]:
    endpoint = endpoints().get(endpoint_arn)
    return [] if endpoint is None else [json.loads(raw) for raw in endpoint.messages.values()]
