"""What a handler reads from a request, and the checks every request passes before its handler runs:
the API version in ``Accept``, the body size, and the body's media type and parsing."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl, urlencode

from chalicelib.config import get_settings
from chalicelib.errors import (
    BadRequest,
    NotAcceptable,
    NotAuthenticated,
    NotFound,
    PayloadTooLarge,
    UnsupportedMediaType,
    ValidationError,
)
from chalicelib.ids import MAX_ID

JSON_BODY, NO_BODY, MULTIPART_BODY, FORM_BODY = "json", "none", "multipart", "form"
FORM_MAX_BYTES = 8 * 1024  # an HTML form post (application/x-www-form-urlencoded); the web page's is far smaller
FORM_MAX_FIELDS = 20
NO_DATA = "No data provided"  # DRF's answer to a JSON body of null


class RequestContext:
    """What a handler needs from the request: caller, path params, query and parsed body."""

    def __init__(self, request, params: dict[str, str]):
        self.request = request
        self.params = params
        self.user = None
        self.token: str | None = None
        self.body: Any = None
        self.body_is_null = False  # a JSON body of `null`, told apart from no body at all

    @property
    def method(self) -> str:
        return self.request.method

    @property
    def source_ip(self) -> str:
        identity = self.request.context.get("identity") or {}
        return identity.get("sourceIp") or "unknown"

    def header(self, name: str) -> str | None:
        return self.request.headers.get(name)

    def path_id(self, name: str) -> int:
        """The path parameter ``name`` as an id (404 when it is none)."""
        return parse_id(self.params.get(name))

    def query(self, name: str) -> str | None:
        params = self.request.query_params or {}
        return params.get(name)

    def json_object(self) -> dict:
        """The body as a JSON object (an empty body counts as ``{}``; ``null`` is refused as DRF does)."""
        if self.body_is_null:
            raise ValidationError({"non_field_errors": [NO_DATA]})
        if self.body is None:
            return {}
        if not isinstance(self.body, dict):
            kind = type(self.body).__name__
            raise ValidationError({"non_field_errors": [f"Invalid data. Expected a dictionary, but got {kind}."]})
        return self.body

    def absolute_url(self, **query: Any) -> str:
        """This route's absolute URL with ``query`` as its query string (for next/previous links).

        Built from the API's own public base, never from ``Host`` or ``X-Forwarded-*`` (anyone can send
        those): the ``PUBLIC_BASE_URL`` setting, else the stage's domain that API Gateway puts in the request
        context (https), else ``http://localhost``.
        """
        pairs = [(k, v) for k, v in query.items() if v is not None]
        return public_url(self.request, self.params) + (f"?{urlencode(pairs)}" if pairs else "")


def parse_id(raw: str | None) -> int:
    """A path id; anything that is not a positive 53-bit integer is simply not found."""
    if not raw or not raw.isascii() or not raw.isdigit() or len(raw) > 16:
        raise NotFound()
    value = int(raw)
    if value <= 0 or value > MAX_ID:
        raise NotFound()
    return value


def public_url(request, params: dict[str, str]) -> str:
    """The public URL of the requested resource, without query string."""
    resource = request.path.format(**params) if params else request.path  # e.g. "/events"
    base = get_settings().public_base_url.rstrip("/")
    if base:
        return base + resource
    domain = request.context.get("domainName")
    if domain:  # API Gateway: the domain the request came in on; its path carries the stage ("/api/events")
        return f"https://{domain}{request.context.get('path') or resource}"
    return f"http://localhost{resource}"


def bearer_token(request) -> str:
    """The token of ``Authorization: Bearer <token>`` (``Token`` also taken); 401 when there is none."""
    header = request.headers.get("authorization")
    if not header or not header.strip():
        raise NotAuthenticated()
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() not in ("bearer", "token"):
        raise NotAuthenticated()
    return token.strip()


def check_version(request) -> None:
    """``Accept: application/json; version=1.0`` or no version at all; anything else is 406."""
    accept = request.headers.get("accept") or ""
    for media_range in accept.split(","):
        for parameter in media_range.split(";")[1:]:
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "version" and value.strip().strip('"') not in ("1.0", "1"):
                raise NotAcceptable()


def _media_type(request) -> str:
    """The Content-Type without its parameters ("" when none was sent, as DRF reports it)."""
    return (request.headers.get("content-type") or "").split(";")[0].strip()


def check_body_size(request) -> None:
    """Any body above REQUEST_MAX_BYTES is 413 before anything reads it (docs/api.md, "Limits")."""
    limit = get_settings().request_max_bytes
    declared = request.headers.get("content-length") or ""
    size = int(declared) if declared.isdigit() else 0
    if size > limit or len(request.raw_body or b"") > limit:
        raise PayloadTooLarge(f"Request body too large. Maximum size is {limit / 2**20:g} MB.")


def parse_body(ctx: RequestContext, body_kind: str) -> None:
    """JSON routes take exactly ``application/json`` (parameters such as charset allowed); multipart
    routes ``multipart/form-data``. Anything else with a body, or a body without Content-Type: 415."""
    request = ctx.request
    if request.method in ("GET", "HEAD"):  # no GET route reads a body, so none is judged (as DRF does)
        return
    raw = request.raw_body or b""
    media_type = _media_type(request)
    if body_kind == JSON_BODY:
        if not raw.strip():
            return
        if media_type.lower() != "application/json":
            raise UnsupportedMediaType(media_type)
        try:
            ctx.body = json.loads(raw)
        except (ValueError, RecursionError) as exc:  # RecursionError: nested too deep
            raise BadRequest(f"JSON parse error - {exc}") from None
        ctx.body_is_null = ctx.body is None
    elif body_kind == MULTIPART_BODY and media_type.lower() != "multipart/form-data":
        raise UnsupportedMediaType(media_type)
    elif body_kind == FORM_BODY:
        if media_type.lower() != "application/x-www-form-urlencoded":
            raise UnsupportedMediaType(media_type)
        if len(raw) > FORM_MAX_BYTES:
            raise PayloadTooLarge("Request body too large.")
        try:  # the last value of a repeated name counts, as in a browser's own forms
            text = raw.decode("utf-8")
            ctx.body = dict(parse_qsl(text, keep_blank_values=True, errors="strict", max_num_fields=FORM_MAX_FIELDS))
        except ValueError:  # not UTF-8 (UnicodeDecodeError is one), or too many fields
            raise BadRequest("Form parse error.") from None
