"""What went wrong, as the services and the request plumbing say it: no HTTP here.

Each class is one meaning; its status, body and headers on the wire (the DRF-shaped JSON and its default
wording) are chosen in one place, chalicelib/api/error_responses.py. ``detail`` is the sentence a person
reads when the raiser has one of its own (None: the default wording of its kind).
"""

from __future__ import annotations


class DomainError(Exception):
    """A refusal the caller is told about."""

    def __init__(self, detail: str | None = None):
        super().__init__(detail or type(self).__name__)
        self.detail = detail


class ValidationError(DomainError):
    """Bad input, keyed by field: ``{"field": ["message", ...]}`` (``errors``; the subclasses below carry what
    was wrong instead, and are worded where they are sent)."""

    def __init__(self, errors: dict[str, list[str]] | dict):
        super().__init__()
        self.errors = errors

    @classmethod
    def field(cls, name: str, message: str) -> ValidationError:
        return cls({name: [message]})


class OutOfRange(ValidationError):
    """A number past what the state allows: ``field`` may be at most ``most`` or at least ``least``."""

    def __init__(self, field: str, *, most: int | None = None, least: int | None = None):
        super().__init__({})
        self.field, self.most, self.least = field, most, least


class Required(ValidationError):
    """A field the request needs was not sent."""

    def __init__(self, field: str):
        super().__init__({})
        self.field = field


class NotAnImage(ValidationError):
    """The file sent as ``field`` is no image this service reads (or a corrupt one)."""

    def __init__(self, field: str):
        super().__init__({})
        self.field = field


class BadRequest(DomainError):
    """A request that could not be read at all (a body that is no JSON, a broken form)."""


class NotAuthenticated(DomainError):
    """No credentials where the route needs them."""


class InvalidToken(NotAuthenticated):
    """Credentials that name nobody."""


class PermissionDenied(DomainError):
    """The caller is known and may not do this."""


class NotFound(DomainError):
    """Nothing there, or nothing the caller may see (a stranger's event looks the same)."""


class EventGone(NotFound):
    """A guest's link to an event deleted with its owner's account: the page says it was cancelled."""

    def __init__(self, title: str):
        super().__init__("Not found.")
        self.title = title


class NoLongerInvited(NotFound):
    """A guest's link to an event a host removed them from: the page says so."""

    def __init__(self, title: str):
        super().__init__("Not found.")
        self.title = title


class PageOutOfRange(NotFound):
    """A page of a list past its last page (or below the first)."""


class MethodNotAllowed(DomainError):
    def __init__(self, method: str, allowed: list[str]):
        super().__init__()
        self.method = method
        self.allowed = allowed


class NotAcceptable(DomainError):
    """An ``Accept`` header asking for a version this service does not speak."""


class Conflict(DomainError):
    """The request clashes with the state it found (a cancelled or full event, a change meanwhile). ``answer``:
    a body of its own to send instead of the detail (the conversation's refused message)."""

    def __init__(self, detail: str | None = None, answer: dict | None = None):
        super().__init__(detail)
        self.answer = answer


class PayloadTooLarge(DomainError):
    def __init__(self, detail: str):
        super().__init__(detail)


class UnsupportedMediaType(DomainError):
    def __init__(self, media_type: str):
        super().__init__()
        self.media_type = media_type


class Throttled(DomainError):
    """Over a rate limit: allowed again in ``retry_after`` seconds (at least 1)."""

    def __init__(self, retry_after: int):
        super().__init__()
        self.retry_after = max(1, int(retry_after))


class ServiceUnavailable(DomainError):
    """An AWS dependency (or the Graph API) is throttling or down; nothing was half-written."""

    def __init__(self, detail: str | None = None, retry_after: int = 5):
        super().__init__(detail)
        self.retry_after = retry_after


class TextsPaused(ServiceUnavailable):
    """The month's text budget has no room left for a text somebody asked for (a pin): unavailable until it has."""

    def __init__(self, retry_after: int):
        super().__init__(retry_after=max(1, int(retry_after)))


class IdempotencyKeyReused(DomainError):
    """An ``Idempotency-Key`` sent again with another method, path or body."""


class IdempotencyKeyInProgress(Conflict):
    """An ``Idempotency-Key`` sent again while the request that first sent it still runs."""
