"""Why DynamoDB refused a write, read in one place.

A conditional write (PutItem, UpdateItem, DeleteItem) refused by its condition raises
``ConditionalCheckFailedException``; a cancelled transaction (TransactWriteItems, TransactGetItems)
carries one reason per item, in the order the items were sent, ``None`` for items that were fine.
PynamoDB keeps those reasons on the exception (``cancellation_reasons``), botocore in the response
(``CancellationReasons``); both are read here. Note: PynamoDB's TransactWrite sends condition checks,
deletes, puts and updates in that order, whatever order the service added them in.
"""

from __future__ import annotations

CONDITION_FAILED = "ConditionalCheckFailed"
TRANSACTION_CONFLICT = "TransactionConflict"


def _code(exc: BaseException) -> str | None:
    cause = getattr(exc, "cause", None)  # a PynamoDB error wraps botocore's
    for candidate in (exc, cause):
        response = getattr(candidate, "response", None)
        if isinstance(response, dict):
            return response.get("Error", {}).get("Code")
    return None


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
        return item is None and _code(exc) == "ConditionalCheckFailedException"
    if item is None:
        return CONDITION_FAILED in codes
    return -len(codes) <= item < len(codes) and codes[item] == CONDITION_FAILED


def conflicted(exc: BaseException) -> bool:
    """True when a transaction was cancelled because another one was writing the same items."""
    return TRANSACTION_CONFLICT in cancellation_codes(exc)
