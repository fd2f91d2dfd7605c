"""What an AWS error means, read in one place: its code, a cancelled transaction's reasons, and whether
it is worth trying again.

A conditional write (PutItem, UpdateItem, DeleteItem) refused by its condition raises
``ConditionalCheckFailedException``; a cancelled transaction (TransactWriteItems, TransactGetItems)
carries one reason per item, in the order the items were sent, ``None`` for items that were fine.
PynamoDB keeps those reasons on the exception (``cancellation_reasons``), botocore in the response
(``CancellationReasons``); both are read here. Note: PynamoDB's TransactWrite sends condition checks,
deletes, puts and updates in that order, whatever order the service added them in.

Nothing here imports botocore or PynamoDB at module level (cold start), and nothing from the layers
above (store, services).
"""

from __future__ import annotations

CONDITION_FAILED = "ConditionalCheckFailed"
TRANSACTION_CONFLICT = "TransactionConflict"

# Error codes that mean "AWS is busy or down, try again", never "your request is wrong".
TRANSIENT_CODES = frozenset(
    {
        "Throttling",
        "Throttled",  # SNS (ThrottledException, HTTP 429), e.g. CheckIfPhoneNumberIsOptedOut
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
        "TransactionInProgressException",  # the same ClientRequestToken is still being applied
    }
)
# The HTTP statuses of an AWS answer that mean the same whatever its code: too many requests, or a fault of AWS.
TRANSIENT_STATUS = 429
# Reasons of a cancelled transaction (TransactionCanceledException) that mean the same.
TRANSIENT_CANCELLATION_REASONS = frozenset(
    {"TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded", "RequestLimitExceeded"}
)
# SNS's answers for a platform endpoint that APNS disabled, or that does not exist.
_ENDPOINT_GONE_CODES = frozenset({"EndpointDisabled", "EndpointDisabledException", "NotFound", "NotFoundException"})
_INVALID_PARAMETER_CODES = frozenset({"InvalidParameter", "InvalidParameterException"})


def _response(exc: BaseException) -> dict | None:
    """botocore's error response of ``exc``, or of the botocore error a PynamoDB error wraps."""
    for candidate in (exc, getattr(exc, "cause", None)):
        response = getattr(candidate, "response", None)
        if isinstance(response, dict):
            return response
    return None


def error_code(exc: BaseException) -> str | None:
    """The AWS error code of a botocore ``ClientError`` or of a PynamoDB error wrapping one, else None.

    Use it instead of PynamoDB's ``cause_response_code``, which raises AttributeError when the cause
    is a read timeout or a closed connection (their ``response`` is None).
    """
    response = _response(exc)
    if response is None:
        return None
    return response.get("Error", {}).get("Code")


def error_code_or_type(exc: BaseException) -> str:
    """For logs: the AWS error code, else the exception's class name (never its message, which may
    quote a phone number)."""
    return error_code(exc) or type(exc).__name__


def cancellation_codes(exc: BaseException) -> list[str | None]:
    """The reason codes of a cancelled transaction, one per item in sent order; [] for any other error."""
    reasons = getattr(exc, "cancellation_reasons", None)
    if reasons:
        return [getattr(reason, "code", None) if reason else None for reason in reasons]
    for candidate in (exc, getattr(exc, "cause", None)):
        response = getattr(candidate, "response", None)
        if isinstance(response, dict) and response.get("CancellationReasons"):
            return [reason.get("Code") if reason else None for reason in response["CancellationReasons"]]
    return []


def condition_failed(exc: BaseException, item: int | None = None) -> bool:
    """True when a write was refused by its condition: a single write's, or in a cancelled transaction
    item ``item``'s (a negative index counts from the end), or any item's when ``item`` is None."""
    codes = cancellation_codes(exc)
    if not codes:
        return item is None and error_code(exc) == "ConditionalCheckFailedException"
    if item is None:
        return CONDITION_FAILED in codes
    return -len(codes) <= item < len(codes) and codes[item] == CONDITION_FAILED


def conflicted(exc: BaseException) -> bool:
    """True when a transaction was cancelled because another one was writing the same items."""
    return TRANSACTION_CONFLICT in cancellation_codes(exc)


def is_transient(exc: BaseException) -> bool:
    """True when ``exc`` (botocore or PynamoDB, or an error raised from one) means an AWS dependency is
    throttling or down."""
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
        if TRANSIENT_CANCELLATION_REASONS.intersection(cancellation_codes(exc)):
            return True
        return error.get("Code") in TRANSIENT_CODES or status == TRANSIENT_STATUS or status >= 500
    if isinstance(exc, (BotoConnectionError, BotoCoreError)):
        return True
    cause = exc.__cause__  # the store's Contended and Refused carry the AWS error they stand for
    return cause is not None and cause is not exc and is_transient(cause)


def invalid_parameter(exc: BaseException) -> bool:
    """SNS refused a parameter of the call (a malformed phone number, token or attribute)."""
    return error_code(exc) in _INVALID_PARAMETER_CODES


def aws_fault(exc: BaseException) -> bool:
    """True when ``exc`` is any error of an AWS call (botocore's or PynamoDB's, or one raised from it) that its
    caller did not turn into an answer: throttles and AWS's own faults (:func:`is_transient`), and the errors
    that mean the stage is misconfigured (a missing table, key or permission). For a client each is "the
    service is unavailable", a 503 with Retry-After, never a 500; only the log tells them apart."""
    from botocore.exceptions import BotoCoreError, ClientError
    from pynamodb.exceptions import PynamoDBException

    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, (BotoCoreError, ClientError, PynamoDBException)):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or getattr(exc, "cause", None)
    return False


def endpoint_gone(exc: BaseException) -> bool:
    """SNS says a platform endpoint is disabled (APNS dropped the token) or does not exist."""
    response = getattr(exc, "response", None)
    if not isinstance(response, dict):
        return False
    error = response.get("Error", {})
    code, text = error.get("Code", ""), (error.get("Message") or "").lower()
    if code in _ENDPOINT_GONE_CODES:
        return True
    return code in _INVALID_PARAMETER_CODES and ("endpoint" in text or "targetarn" in text)
