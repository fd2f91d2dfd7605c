"""The one place where errors become HTTP responses.

Domain errors (chalicelib/errors.py) carry their status, body and headers; an AWS dependency that is
throttling or down becomes a 503 with Retry-After; anything else is a 500 without internals. A route
may render its errors itself (the guest page's HTML pages); the others get the DRF-shaped JSON bodies.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from http import HTTPStatus

from chalice import Response

from chalicelib.api.responses import HandlerResult, to_response
from chalicelib.aws import is_transient
from chalicelib.errors import ApiError, ServiceUnavailable

ErrorPage = Callable[[ApiError, str], Response]

log = logging.getLogger("invites")


class InternalError(ApiError):
    status = HTTPStatus.INTERNAL_SERVER_ERROR

    def __init__(self):
        super().__init__({"detail": "Internal server error."})


def as_api_error(exc: Exception, method: str, path: str) -> ApiError:
    """What the client is told about ``exc``: itself when it is a domain error, else a 503 or a 500."""
    if isinstance(exc, ApiError):
        return exc
    if is_transient(exc):
        log.warning("aws dependency unavailable: %s", type(exc).__name__)
        return ServiceUnavailable()
    log.exception("unhandled error on %s %s", method, path)
    return InternalError()


def error_response(error: ApiError, method: str, error_page: ErrorPage | None = None) -> Response:
    """``error`` as the route's own error page when it has one, else as a JSON body."""
    if error_page is not None:
        return error_page(error, method)
    return to_response(HandlerResult(body=error.body, status=int(error.status), headers=error.headers), method)
