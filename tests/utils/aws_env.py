"""The emulated AWS account the tests and the benchmark run in: settings, then resources."""

from __future__ import annotations

import functools
import os

ACCOUNT = "123456789012"
REGION = "us-east-1"
APNS_APP = "invites-apns-test"
FCM_APP = "invites-fcm-test"

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
    "FCM_PLATFORM_APPLICATION_ARN": f"arn:aws:sns:{REGION}:{ACCOUNT}:app/GCM/{FCM_APP}",
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
    aws_client("sns").create_platform_application(
        Name=FCM_APP, Platform="GCM", Attributes={"PlatformCredential": "test-fcm-key"}
    )


def back_up_tables_once_per_transaction() -> None:
    """Make moto's TransactWriteItems back up each table it touches once, not once per item.

    moto deep-copies a table for every item of a transaction (to roll back on a refusal), so a
    transaction of 100 items over a table of a few thousand costs seconds; DynamoDB has no such cost.
    The copies made during one call are shared by id, which is safe while moto's actions run one at a
    time (the lock of tests/conftest.py and of the local runner)."""
    import copy

    from moto.dynamodb import models

    original = models.DynamoDBBackend.transact_write_items
    if getattr(original, "_backs_up_once", False):
        return

    class _CopyOnce:
        def __init__(self):
            self.copies: dict[int, object] = {}

        def deepcopy(self, value, memo=None):
            if id(value) not in self.copies:
                self.copies[id(value)] = copy.deepcopy(value, memo)
            return self.copies[id(value)]

    def transact_write_items(self, transact_items):
        models.copy = _CopyOnce()
        try:
            return original(self, transact_items)
        finally:
            models.copy = copy

    transact_write_items._backs_up_once = True
    models.DynamoDBBackend.transact_write_items = transact_write_items


def fresh_world() -> None:
    """Inside a test: forget every resource and item moto holds and make the service's resources again, so
    two runs of one request can be compared on like worlds."""
    from moto.core.base_backend import BackendDict

    BackendDict.reset()
    create_resources()


# DynamoDB's window in which a repeated ClientRequestToken is the same transaction.
CLIENT_TOKEN_WINDOW_SECONDS = 600


def honour_client_request_tokens() -> None:
    """Make moto's TransactWriteItems honour ``ClientRequestToken`` as DynamoDB documents it (moto ignores it):
    a token seen again within 10 minutes with the same request succeeds without writing anything again; with
    another request it is ``IdempotentParameterMismatchException``. Only applied transactions are remembered,
    so a transaction that was cancelled or refused may be sent again with its token."""
    import hashlib
    import json
    import time

    from moto.core.responses import ActionResult
    from moto.dynamodb.exceptions import DynamodbException
    from moto.dynamodb.responses import DynamoHandler

    original = DynamoHandler.transact_write_items
    if getattr(original, "_honours_tokens", False):
        return
    applied: dict[str, tuple[str, float]] = {}

    def transact_write_items(self):
        token = self.body.get("ClientRequestToken")
        if not token:
            return original(self)
        rest = {key: value for key, value in self.body.items() if key != "ClientRequestToken"}
        fingerprint = hashlib.sha256(json.dumps(rest, sort_keys=True).encode()).hexdigest()
        now = time.monotonic()
        earlier = applied.get(token)
        if earlier is not None and now - earlier[1] < CLIENT_TOKEN_WINDOW_SECONDS:
            if earlier[0] != fingerprint:
                raise DynamodbException(
                    "com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException",
                    "The request uses the same client token as a previous, but non-identical request.",
                )
            return ActionResult({"ConsumedCapacity": [], "ItemCollectionMetrics": {}})
        result = original(self)
        applied[token] = (fingerprint, now)
        return result

    transact_write_items._honours_tokens = True
    DynamoHandler.transact_write_items = transact_write_items
