"""AWS faults moto cannot produce.

Two ways in:

- ``break_aws`` (tests/conftest.py) with the errors below: the call raises before anything is sent.
- :func:`on_the_wire`: a rule sees each request as it reaches the emulator and may answer it with an error
  exactly as AWS sends it (:func:`wire_error`, built from botocore's service model: status, code, protocol),
  or let moto apply it and then drop the answer (:data:`LOSE_ANSWER`, a read timeout after the write), so
  botocore's own parsing and retries run as they would against AWS.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from xml.sax.saxutils import escape

from botocore.awsrequest import AWSResponse
from botocore.exceptions import ClientError, ReadTimeoutError

# The throttles AWS documents beside an operation's own error shapes, which the models do not always list.
DOCUMENTED_THROTTLES = {
    "dynamodb": ("ThrottlingException", "ProvisionedThroughputExceededException", "RequestLimitExceeded"),
    "sns": ("Throttled",),
    "s3": ("SlowDown",),
    "sqs": ("RequestThrottled",),
    "ssm": ("ThrottlingException",),
}
# What a throttle of the list above looks like on the wire when the model does not describe it.
_THROTTLE_STATUS = {"Throttled": 429, "SlowDown": 503}


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


@dataclass(frozen=True)
class WireError:
    """An error as one operation of one service answers it: HTTP status and error code."""

    service: str
    operation: str
    code: str
    status: int


def _service_model(service: str):
    from chalicelib.aws import session

    return session().get_service_model(service)


def modelled_errors(service: str, operation: str) -> list[WireError]:
    """Every error shape botocore's model lists for ``operation``, then the documented throttles it lacks."""
    model = _service_model(service)
    errors = []
    for shape in model.operation_model(operation).error_shapes:
        error = shape.metadata.get("error", {})
        errors.append(WireError(service, operation, error.get("code", shape.name), error.get("httpStatusCode", 400)))
    known = {error.code for error in errors}
    for code in DOCUMENTED_THROTTLES.get(service, ()):
        if code not in known:
            errors.append(WireError(service, operation, code, _THROTTLE_STATUS.get(code, 400)))
    return errors


def wire_error(service: str, operation: str, code: str) -> WireError:
    """The error ``code`` of ``operation`` with the status the model gives it."""
    return next(error for error in modelled_errors(service, operation) if error.code == code)


def _wire_response(url: str, error: WireError) -> AWSResponse:
    model = _service_model(error.service)
    headers = {"x-amzn-RequestId": "injected-fault"}
    protocol = model.protocol
    if protocol == "json":
        prefix = model.metadata.get("targetPrefix", "")
        body = json.dumps({"__type": f"{prefix}#{error.code}", "message": "injected fault"}).encode()
        headers["Content-Type"] = f"application/x-amz-json-{model.metadata.get('jsonVersion', '1.0')}"
        if model.metadata.get("awsQueryCompatible") is not None:
            headers["x-amzn-query-error"] = f"{error.code};Sender"
    elif protocol == "query":
        body = (
            "<ErrorResponse><Error><Type>Sender</Type>"
            f"<Code>{escape(error.code)}</Code><Message>injected fault</Message></Error>"
            "<RequestId>injected-fault</RequestId></ErrorResponse>"
        ).encode()
        headers["Content-Type"] = "text/xml"
    else:  # rest-xml (S3)
        body = f"<Error><Code>{escape(error.code)}</Code><Message>injected fault</Message></Error>".encode()
        headers["Content-Type"] = "application/xml"
    return AWSResponse(url, error.status, headers, _Raw(body))


class _Raw:
    def __init__(self, body: bytes):
        self._body = body

    def stream(self, **kwargs) -> Iterator[bytes]:
        yield self._body


LOSE_ANSWER = "lose answer"  # moto applies the request, then the client reads nothing in time
TIME_OUT = "time out"  # the request never reaches moto: the client reads nothing in time
Rule = Callable[[str, str, bytes], "WireError | str | None"]


@dataclass
class WireLog:
    """What the rule did: ``(service, operation, fault)`` per request it answered."""

    faults: list
    lock: threading.Lock


@contextmanager
def on_the_wire(rule: Rule) -> Iterator[WireLog]:
    """Inside the block ``rule(service, operation, body)`` sees every request that reaches moto: None lets it
    through, a :class:`WireError` answers it instead of moto (nothing applied), :data:`LOSE_ANSWER` lets moto
    apply it and then raises botocore's ReadTimeoutError, as an answer lost on the way back would, and
    :data:`TIME_OUT` raises it without applying anything (a call slower than the client's read timeout). botocore
    then retries as its retry mode says (its pauses are skipped)."""
    from botocore.retries.standard import ExponentialBackoff
    from moto.core.botocore_stubber import BotocoreStubber

    original_call = BotocoreStubber.__call__
    original_delay = ExponentialBackoff.delay_amount
    log = WireLog([], threading.Lock())

    def answering(self, event_name, request, **kwargs):
        _, service, operation = event_name.split(".")[:3]
        body = request.body
        if not isinstance(body, bytes):  # a streamed S3 body: its URL stands for it
            body = body.encode() if isinstance(body, str) else request.url.encode()
        fault = rule(service, operation, body)
        if fault is None:
            return original_call(self, event_name, request, **kwargs)
        with log.lock:
            log.faults.append((service, operation, fault))
        if isinstance(fault, WireError):
            return _wire_response(request.url, fault)
        if fault == LOSE_ANSWER:
            original_call(self, event_name, request, **kwargs)
        raise ReadTimeoutError(endpoint_url=request.url)

    from chalicelib import aws

    aws.reset_clients()  # fresh clients: botocore's retry quota of earlier faults spent on none of these
    BotocoreStubber.__call__ = answering
    ExponentialBackoff.delay_amount = lambda self, context: 0
    try:
        yield log
    finally:
        BotocoreStubber.__call__ = original_call
        ExponentialBackoff.delay_amount = original_delay


def fail_first(service: str, operation: str, fault, times: int = 1) -> Rule:
    """A rule: the first ``times`` requests of ``operation`` get ``fault``, later ones go through."""
    left = {"n": times}
    lock = threading.Lock()

    def rule(seen_service: str, seen_operation: str, body: bytes):
        if (seen_service, seen_operation) != (service, operation):
            return None
        with lock:
            if left["n"] <= 0:
                return None
            left["n"] -= 1
        return fault

    return rule


def always(service: str, operation: str, fault) -> Rule:
    """A rule: every request of ``operation`` gets ``fault``."""

    def rule(seen_service: str, seen_operation: str, body: bytes):
        return fault if (seen_service, seen_operation) == (service, operation) else None

    return rule


ITEM_LIMIT_BYTES = 400 * 1024  # DynamoDB's largest item, attribute names and values together


def _value_size(value: dict) -> int:
    (kind, content), = value.items()
    if kind == "S":
        return len(content.encode("utf-8", "surrogatepass"))
    if kind == "B":
        return len(content) * 3 // 4  # base64 on the wire
    if kind == "N":
        return len(content) // 2 + 1
    if kind in ("SS", "NS", "BS", "L"):
        return 3 + sum(_value_size({kind.rstrip("S") or "S": v} if kind != "L" else v) for v in content)
    if kind == "M":
        return 3 + sum(len(name) + _value_size(v) for name, v in content.items())
    return 1


def _written_items(operation: str, request: dict) -> list[int]:
    """The sizes of the items a write carries: a put's whole item; an update's key and new values (at least
    what the item will hold)."""
    def item_size(item: dict) -> int:
        return sum(len(name) + _value_size(value) for name, value in item.items())

    def update_size(update: dict) -> int:
        values = update.get("ExpressionAttributeValues", {})
        return item_size(update.get("Key", {})) + sum(_value_size(value) for value in values.values())

    if operation == "PutItem":
        return [item_size(request["Item"])]
    if operation == "UpdateItem":
        return [update_size(request)]
    if operation == "BatchWriteItem":
        puts = [r["PutRequest"]["Item"] for rs in request["RequestItems"].values() for r in rs if "PutRequest" in r]
        return [item_size(item) for item in puts]
    if operation == "TransactWriteItems":
        sizes = []
        for entry in request["TransactItems"]:
            if "Put" in entry:
                sizes.append(item_size(entry["Put"]["Item"]))
            elif "Update" in entry:
                sizes.append(update_size(entry["Update"]))
        return sizes
    return []


def dynamodb_item_limit(service: str, operation: str, body: bytes):
    """A rule: a DynamoDB write carrying an item over 400 KB is refused with DynamoDB's ValidationException,
    which moto does not enforce. An UpdateItem is measured by what it sends, not by the item it would make."""
    if service != "dynamodb" or operation not in ("PutItem", "UpdateItem", "BatchWriteItem", "TransactWriteItems"):
        return None
    if any(size > ITEM_LIMIT_BYTES for size in _written_items(operation, json.loads(body))):
        return WireError(service, operation, "ValidationException", 400)
    return None


def first_of(*rules: Rule) -> Rule:
    """A rule: the first of ``rules`` that has a fault for the request."""

    def rule(service: str, operation: str, body: bytes):
        return next((f for r in rules if (f := r(service, operation, body)) is not None), None)

    return rule
