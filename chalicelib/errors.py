"""Domain errors. Each carries its HTTP status and DRF-shaped body; `api.error_responses` maps them once."""

from __future__ import annotations

from http import HTTPStatus


class ApiError(Exception):
    """An error the client is told about: a status, a JSON body and optional headers."""

    status: HTTPStatus = HTTPStatus.BAD_REQUEST

    def __init__(self, body: dict, headers: dict[str, str] | None = None):
        super().__init__(body)
        self.body = body
        self.headers = headers or {}


def _detail(text: str) -> dict:
    return {"detail": text}


class ValidationError(ApiError):
    """400 keyed by field: ``{"field": ["message", ...]}``."""

    def __init__(self, errors: dict[str, list[str]] | dict):
        super().__init__(errors)

    @classmethod
    def field(cls, name: str, message: str) -> ValidationError:
        return cls({name: [message]})


class BadRequest(ApiError):
    def __init__(self, text: str):
        super().__init__(_detail(text))


class NotAuthenticated(ApiError):
    status = HTTPStatus.UNAUTHORIZED

    def __init__(self, text: str = "Authentication credentials were not provided."):
        super().__init__(_detail(text), {"WWW-Authenticate": "Bearer"})


class InvalidToken(NotAuthenticated):
    def __init__(self):
        super().__init__("Invalid token.")


class PermissionDenied(ApiError):
    status = HTTPStatus.FORBIDDEN

    def __init__(self, text: str = "You do not have permission to perform this action."):
        super().__init__(_detail(text))


class NotFound(ApiError):
    status = HTTPStatus.NOT_FOUND

    def __init__(self, text: str = "Not found."):
        super().__init__(_detail(text))


class MethodNotAllowed(ApiError):
    status = HTTPStatus.METHOD_NOT_ALLOWED

    def __init__(self, method: str, allowed: list[str]):
        super().__init__(_detail(f'Method "{method}" not allowed.'), {"Allow": ", ".join(allowed)})


class NotAcceptable(ApiError):
    status = HTTPStatus.NOT_ACCEPTABLE

    def __init__(self):
        super().__init__(_detail('Invalid version in "Accept" header.'))


class Conflict(ApiError):
    status = HTTPStatus.CONFLICT

    def __init__(self, text: str | None = None, body: dict | None = None):
        super().__init__(body if body is not None else _detail(text or "Conflict."))


class PayloadTooLarge(ApiError):
    status = HTTPStatus.REQUEST_ENTITY_TOO_LARGE

    def __init__(self, text: str):
        super().__init__(_detail(text))


class UnsupportedMediaType(ApiError):
    status = HTTPStatus.UNSUPPORTED_MEDIA_TYPE

    def __init__(self, media_type: str):
        super().__init__(_detail(f'Unsupported media type "{media_type}" in request.'))


class Throttled(ApiError):
    status = HTTPStatus.TOO_MANY_REQUESTS

    def __init__(self, retry_after: int):
        retry_after = max(1, int(retry_after))
        super().__init__(
            _detail(f"Request was throttled. Expected available in {retry_after} seconds."),
            {"Retry-After": str(retry_after)},
        )
        self.retry_after = retry_after


class ServiceUnavailable(ApiError):
    """An AWS dependency (or the Graph API) is throttling or down; nothing was half-written."""

    status = HTTPStatus.SERVICE_UNAVAILABLE

    def __init__(self, text: str = "Service temporarily unavailable, try again later.", retry_after: int = 5):
        super().__init__(_detail(text), {"Retry-After": str(retry_after)})


class TextsPaused(ServiceUnavailable):
    """The month's text budget has no room left for a text somebody asked for (a pin): 503 until it has."""

    def __init__(self, retry_after: int):
        super().__init__("Texts are paused for now. Try again later.", retry_after=max(1, int(retry_after)))
        self.retry_after = max(1, int(retry_after))
