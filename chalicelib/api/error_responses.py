"""The one place where errors become HTTP responses: status, DRF-shaped body and headers of each kind.

Domain errors (chalicelib/errors.py) say what went wrong; this module says how it is sent. An AWS dependency
that is throttling, down or refusing (chalicelib/aws_errors.py, ``aws_fault``) becomes a 503 with Retry-After;
anything else is a 500 without internals. A route
may render its errors itself (the guest page's HTML pages) from :func:`status_of` and :func:`headers_of`;
the others get :func:`body_of`'s JSON.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from http import HTTPStatus

from chalice import Response

from chalicelib.api.responses import HandlerResult, to_response
from chalicelib.aws import is_transient
from chalicelib.aws_errors import aws_fault, error_code_or_type
from chalicelib.errors import (
    BadRequest,
    Conflict,
    DomainError,
    IdempotencyKeyInProgress,
    IdempotencyKeyReused,
    InvalidToken,
    MethodNotAllowed,
    NotAcceptable,
    NotAnImage,
    NotAuthenticated,
    NotFound,
    OutOfRange,
    PageOutOfRange,
    PayloadTooLarge,
    PermissionDenied,
    Required,
    ServiceUnavailable,
    TextsPaused,
    Throttled,
    UnsupportedMediaType,
    ValidationError,
)

ErrorPage = Callable[[DomainError, str], Response]

log = logging.getLogger("invites")


class InternalError(DomainError):
    """Anything unforeseen: the client learns nothing of it."""


# The most specific class first: a subclass is sent as the first entry it is an instance of.
_STATUS: tuple[tuple[type[DomainError], HTTPStatus], ...] = (
    (ValidationError, HTTPStatus.BAD_REQUEST),
    (BadRequest, HTTPStatus.BAD_REQUEST),
    (NotAuthenticated, HTTPStatus.UNAUTHORIZED),
    (PermissionDenied, HTTPStatus.FORBIDDEN),
    (NotFound, HTTPStatus.NOT_FOUND),
    (MethodNotAllowed, HTTPStatus.METHOD_NOT_ALLOWED),
    (NotAcceptable, HTTPStatus.NOT_ACCEPTABLE),
    (Conflict, HTTPStatus.CONFLICT),
    (PayloadTooLarge, HTTPStatus.REQUEST_ENTITY_TOO_LARGE),
    (UnsupportedMediaType, HTTPStatus.UNSUPPORTED_MEDIA_TYPE),
    (IdempotencyKeyReused, HTTPStatus.UNPROCESSABLE_ENTITY),
    (Throttled, HTTPStatus.TOO_MANY_REQUESTS),
    (ServiceUnavailable, HTTPStatus.SERVICE_UNAVAILABLE),
    (InternalError, HTTPStatus.INTERNAL_SERVER_ERROR),
)

# Django's words for a file that is no image, as DRF's ImageField answers.
NOT_AN_IMAGE = "Upload a valid image. The file you uploaded was either not an image or a corrupted image."

# DRF's words where the raiser gave none.
_DEFAULT_DETAIL: tuple[tuple[type[DomainError], str], ...] = (
    (InvalidToken, "Invalid token."),
    (NotAuthenticated, "Authentication credentials were not provided."),
    (PermissionDenied, "You do not have permission to perform this action."),
    (PageOutOfRange, "Invalid page."),
    (NotFound, "Not found."),
    (NotAcceptable, 'Invalid version in "Accept" header.'),
    (IdempotencyKeyInProgress, "A request with this Idempotency-Key is in progress."),
    (Conflict, "Conflict."),
    (IdempotencyKeyReused, "This Idempotency-Key was used with another request."),
    (TextsPaused, "Texts are paused for now. Try again later."),
    (ServiceUnavailable, "Service temporarily unavailable, try again later."),
    (InternalError, "Internal server error."),
)


def status_of(error: DomainError) -> int:
    """The status of the first kind ``error`` is; a kind nobody mapped is a fault of ours: 500."""
    return int(next((status for kind, status in _STATUS if isinstance(error, kind)), HTTPStatus.INTERNAL_SERVER_ERROR))


def _detail(error: DomainError) -> str:
    if isinstance(error, Throttled):
        return f"Request was throttled. Expected available in {error.retry_after} seconds."
    if isinstance(error, MethodNotAllowed):
        return f'Method "{error.method}" not allowed.'
    if isinstance(error, UnsupportedMediaType):
        return f'Unsupported media type "{error.media_type}" in request.'
    if error.detail is not None:
        return error.detail
    return next((text for kind, text in _DEFAULT_DETAIL if isinstance(error, kind)), "Internal server error.")


def body_of(error: DomainError) -> dict:
    """The JSON body: the field errors of a ValidationError, a Conflict's own answer, else ``{"detail": ...}``."""
    if isinstance(error, OutOfRange):
        if error.most is not None:
            return {error.field: [f"Ensure this value is less than or equal to {error.most}."]}
        return {error.field: [f"Ensure this value is greater than or equal to {error.least}."]}
    if isinstance(error, Required):
        return {error.field: ["This field is required."]}
    if isinstance(error, NotAnImage):
        return {error.field: [NOT_AN_IMAGE]}
    if isinstance(error, ValidationError):
        return error.errors
    if isinstance(error, Conflict) and error.answer is not None:
        return error.answer
    return {"detail": _detail(error)}


def headers_of(error: DomainError) -> dict[str, str]:
    if isinstance(error, NotAuthenticated):
        return {"WWW-Authenticate": "Bearer"}
    if isinstance(error, MethodNotAllowed):
        return {"Allow": ", ".join(error.allowed)}
    if isinstance(error, Throttled | ServiceUnavailable):
        return {"Retry-After": str(error.retry_after)}
    if isinstance(error, IdempotencyKeyInProgress):
        return {"Retry-After": "1"}  # the request holding the key ends within the function's timeout
    return {}


def as_domain_error(exc: Exception, method: str, path: str) -> DomainError:
    """What the client is told about ``exc``: itself when it is a domain error of a kind mapped above, else a 503
    or a 500."""
    if isinstance(exc, DomainError) and any(isinstance(exc, kind) for kind, _ in _STATUS):
        return exc
    if is_transient(exc):
        log.warning("aws dependency unavailable: %s", error_code_or_type(exc))
        return ServiceUnavailable()
    if aws_fault(exc):  # a missing table, key or permission: the stage is broken, the client may try later
        log.error("aws dependency refused %s %s: %s", method, path, error_code_or_type(exc))
        return ServiceUnavailable()
    log.exception("unhandled error on %s %s", method, path)
    return InternalError()


def error_response(error: DomainError, method: str, error_page: ErrorPage | None = None) -> Response:
    """``error`` as the route's own error page when it has one, else as a JSON body."""
    if error_page is not None:
        return error_page(error, method)
    return to_response(HandlerResult(body=body_of(error), status=status_of(error), headers=headers_of(error)), method)
