"""Lazily made, cached boto3 clients, and the one translation of AWS faults into 503s.

No client is made at import: moto must be in place first in tests, and a cold start should pay
only for the clients its route uses.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from functools import cache

from chalicelib.config import get_settings
from chalicelib.errors import ServiceUnavailable

# Error codes that mean "AWS is busy or down, try again", never "your request is wrong".
TRANSIENT_CODES = frozenset(
    {
        "Throttling",
        "ThrottlingException",
        "ThrottledException",
        "TooManyRequestsException",
        "ProvisionedThroughputExceededException",
        "RequestLimitExceeded",
        "RequestThrottled",
        "LimitExceededException",
        "SlowDown",
        "ServiceUnavailable",
        "ServiceUnavailableException",
        "InternalError",
        "InternalFailure",
        "InternalServerError",
        "InternalErrorException",
        "KMSThrottlingException",
        "TransactionConflictException",
    }
)
# Reasons of a cancelled transaction (TransactionCanceledException) that mean the same.
TRANSIENT_CANCELLATION_REASONS = frozenset(
    {"TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded", "RequestLimitExceeded"}
)

_client_lock = threading.Lock()


@cache
def _client(service: str):
    import boto3  # boto3 costs ~250 ms: only the routes that need a client pay for it

    settings = get_settings()
    with _client_lock:
        kwargs = {"region_name": settings.aws_region}
        if settings.aws_endpoint_url:
            kwargs["endpoint_url"] = settings.aws_endpoint_url
        return boto3.session.Session().client(service, **kwargs)


def sns():
    return _client("sns")


def s3():
    return _client("s3")


def sqs():
    return _client("sqs")


def ssm():
    return _client("ssm")


def reset_clients() -> None:
    """Forget cached clients (tests, after changing settings)."""
    _client.cache_clear()


def error_code(exc: BaseException) -> str | None:
    """The AWS error code of a botocore ``ClientError`` or of a PynamoDB error wrapping one, else None.

    Use it instead of PynamoDB's ``cause_response_code``, which raises AttributeError when the cause
    is a read timeout or a closed connection (their ``response`` is None).
    """
    from pynamodb.exceptions import PynamoDBException

    if isinstance(exc, PynamoDBException):
        exc = exc.cause
    response = getattr(exc, "response", None)
    if not isinstance(response, dict):
        return None
    return response.get("Error", {}).get("Code")


def is_transient(exc: BaseException) -> bool:
    """True when ``exc`` (botocore or PynamoDB) means an AWS dependency is throttling or down."""
    from botocore.exceptions import BotoCoreError, ClientError
    from botocore.exceptions import ConnectionError as BotoConnectionError
    from pynamodb.exceptions import PynamoDBException

    if isinstance(exc, PynamoDBException):
        if error_code(exc) in TRANSIENT_CODES:
            return True
        return exc.cause is not None and exc.cause is not exc and is_transient(exc.cause)
    if isinstance(exc, ClientError):
        error = exc.response.get("Error", {})
        status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0
        # PynamoDB keeps a cancelled transaction's reasons on the error, botocore in the response
        reasons = [getattr(reason, "code", None) for reason in getattr(exc, "cancellation_reasons", None) or []]
        reasons += [reason.get("Code") for reason in exc.response.get("CancellationReasons") or []]
        if TRANSIENT_CANCELLATION_REASONS.intersection(reasons):
            return True
        return error.get("Code") in TRANSIENT_CODES or status >= 500
    if isinstance(exc, (BotoConnectionError, BotoCoreError)):
        return True
    return False


@contextmanager
def aws_unavailable_as_503(what: str = "A storage service"):
    """Turn a transient AWS fault raised inside the block into a 503 with Retry-After."""
    try:
        yield
    except Exception as exc:
        if is_transient(exc):
            raise ServiceUnavailable(f"{what} is unavailable, try again later.") from exc
        raise
