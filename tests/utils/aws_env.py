"""The emulated AWS account the tests and the benchmark run in: settings, then resources."""

from __future__ import annotations

import functools
import os

ACCOUNT = "123456789012"
REGION = "us-east-1"
APNS_APP = "invites-apns-test"

TEST_ENVIRONMENT = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": REGION,
    "AWS_REGION": REGION,
    "STAGE": "test",
    "USERS_TABLE": "test-users",
    "AUTH_TABLE": "test-auth",
    "EVENTS_TABLE": "test-events",
    "AVATAR_BUCKET": "test-avatars",
    "AVATAR_BASE_URL": "https://cdn.example.test",
    "APNS_PLATFORM_APPLICATION_ARN": f"arn:aws:sns:{REGION}:{ACCOUNT}:app/APNS/{APNS_APP}",
    "PIN_SECRET": "test-pin-secret",
    "FB_GRAPH_URL": "http://127.0.0.1:9/unset",
    "FB_GRAPH_TIMEOUT_SECONDS": "2",
    "PUBLIC_BASE_URL": "https://invites.example.test",
}


def use_test_environment() -> None:
    """Point every setting at the emulated account; call before importing the app."""
    os.environ.update(TEST_ENVIRONMENT)
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "AWS_ENDPOINT_URL", "AWS_PROFILE"):
        os.environ.pop(name, None)


@functools.cache
def aws_client(service: str):
    """One boto3 client per service and process, for the tests' own calls to the emulated account.

    Building a client costs tens of milliseconds, per test that adds up; one made after moto is imported
    goes to moto whenever a mock is active (moto's stubber is one of botocore's built-in handlers), and
    holds no state of the account, so it serves every test's fresh account.
    """
    import boto3

    return boto3.client(service, region_name=REGION)


def create_resources() -> None:
    """Tables from the models, the bucket and the platform application, as production has them."""
    from chalicelib.config import get_settings
    from chalicelib.models.auth import AuthTable
    from chalicelib.models.events import EventsTable
    from chalicelib.models.users import UsersTable

    for model in (UsersTable, AuthTable, EventsTable):
        model.create_table(wait=False)
    settings = get_settings()
    aws_client("s3").create_bucket(Bucket=settings.avatar_bucket)
    aws_client("sns").create_platform_application(Name=APNS_APP, Platform="APNS", Attributes={})
