"""Errors as botocore raises them for AWS faults moto cannot produce (use with the ``break_aws`` fixture)."""

from __future__ import annotations

from botocore.exceptions import ClientError, ReadTimeoutError


def read_timeout(operation_name: str) -> ReadTimeoutError:
    """No answer in time: botocore's own exception, which PynamoDB wraps without a response code."""
    return ReadTimeoutError(endpoint_url="https://dynamodb.us-east-1.amazonaws.com/")


def client_error(operation_name: str, code: str, message: str = "injected", **extra) -> ClientError:
    return ClientError(
        {"Error": {"Code": code, "Message": message}, "ResponseMetadata": {"HTTPStatusCode": 400}, **extra},
        operation_name,
    )


def transaction_cancelled(operation_name: str, reasons: list[str]) -> ClientError:
    """DynamoDB's TransactionCanceledException with one reason code per item ("None" for an item that was fine)."""
    return client_error(
        operation_name,
        "TransactionCanceledException",
        f"Transaction cancelled, please refer cancellation reasons for specific reasons [{', '.join(reasons)}]",
        CancellationReasons=[{"Code": code} for code in reasons],
    )
