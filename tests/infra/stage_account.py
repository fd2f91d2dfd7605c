"""An emulated AWS account (moto's server on 127.0.0.1) holding what a deployed stage needs (scripts/stage_needs.py),
and a stage file that gives the functions every setting: for the tests that package a stage as the pipeline does."""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from pathlib import Path

import boto3
import requests

from tests.utils.live_stack import free_port
from tests.utils.pin_key import KEY as KEY

ROOT = Path(__file__).resolve().parents[2]
STAGE, REGION = "prod", "us-east-1"
PIN_PARAMETER, STOP_LIST_PARAMETER = f"/invites/{STAGE}/pin-secret", f"/invites/{STAGE}/stop-list-key"
# What scripts/deploy.py writes to build/stages/prod.json from the stack's outputs.
STACK_SETTINGS = {
    "AVATAR_BUCKET": "invites-prod-avatars-123456789012",
    "AVATAR_BASE_URL": "https://d111111abcdef8.cloudfront.net",
    "APNS_PLATFORM_APPLICATION_ARN": "arn:aws:sns:us-east-1:123456789012:app/APNS/invites-prod-apns",
    "FCM_PLATFORM_APPLICATION_ARN": "arn:aws:sns:us-east-1:123456789012:app/GCM/invites-prod-fcm",
    "NOTIFICATIONS_QUEUE_URL": "https://sqs.us-east-1.amazonaws.com/123456789012/invites-prod-notifications",
    "SMS_SENDER_ID": "",
}
# ... and from the stage's texting guards in infra/stages.json.
TEXTING = {"SMS_COUNTRIES": "US,CA", "SMS_MAX_PRICE_USD": "0.05", "SMS_MONTHLY_SEGMENTS": "250000"}
COMPLETE = {**STACK_SETTINGS, **TEXTING}


def emulator_env(endpoint: str) -> dict[str, str]:
    """This process's environment for a child process that talks to the emulator at ``endpoint`` only (no
    credentials, settings or stage of the machine's own)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_") and k not in ("PIN_SECRET", "STAGE")}
    env.update(
        AWS_ENDPOINT_URL=endpoint,
        AWS_ACCESS_KEY_ID="testing",
        AWS_SECRET_ACCESS_KEY="testing",
        AWS_DEFAULT_REGION=REGION,
        AWS_CONFIG_FILE=os.devnull,
        AWS_SHARED_CREDENTIALS_FILE=os.devnull,
    )
    return env


@contextmanager
def emulated_account():
    """Yields (a process environment pointing at the emulator, its SSM client, its SNS client)."""
    from moto.server import ThreadedMotoServer

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    requests.post(f"{endpoint}/moto-api/reset", timeout=10)  # moto's state is one per process
    env = emulator_env(endpoint)
    session = boto3.session.Session(aws_access_key_id="testing", aws_secret_access_key="testing", region_name=REGION)
    ssm, sns = (session.client(name, endpoint_url=endpoint) for name in ("ssm", "sns"))
    ssm.put_parameter(Name=PIN_PARAMETER, Type="SecureString", Value=KEY)
    ssm.put_parameter(Name=STOP_LIST_PARAMETER, Type="SecureString", Value="7" * 64)
    segments = int(TEXTING["SMS_MONTHLY_SEGMENTS"])
    cost = segments * json.loads((ROOT / "infra" / "stages.json").read_text())[STAGE]["sms_segment_cost_usd"]
    sns.set_sms_attributes(attributes={"MonthlySpendLimit": str(int(cost) + 100)})
    try:
        yield env, ssm, sns
    finally:
        server.stop()
