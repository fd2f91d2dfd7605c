"""The HTTP plumbing every route shares, and the one place where errors become responses.

Routes are declared with :func:`route` in the ``chalicelib.api`` modules and installed on the
Chalice app by :func:`install_routes`, which also answers HEAD on every GET route, POST on every
PATCH route, and a DRF-shaped 405 for every other method (API Gateway would otherwise answer an
undeclared method itself, with a body the clients do not know).
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qsl, urlencode

from chalice import Chalice, Response

from chalicelib.aws import is_transient
from chalicelib.config import get_settings
from chalicelib.errors import (
    ApiError,
    BadRequest,
    MethodNotAllowed,
    NotAcceptable,
    PayloadTooLarge,
    ServiceUnavailable,
    UnsupportedMediaType,
    ValidationError,
)

ALL_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")
JSON_BODY, NO_BODY, MULTIPART_BODY, FORM_BODY = "json", "none", "multipart", "form"
FORM_MAX_BYTES = 8 * 1024  # an HTML form post (application/x-www-form-urlencoded); the web page's is far smaller
FORM_MAX_FIELDS = 20
CONTENT_TYPE = "Content-Type"

log = logging.getLogger("invites")


@dataclass(frozen=True)
class RouteSpec:
    path: str
    methods: tuple[str, ...]
    handler: Callable[[RequestContext], Any]
    auth: bool
    body: str
    # Renders this route's errors (HTML pages under /i/); None: the DRF-shaped JSON bodies.
    error_page: Callable[[ApiError, str], Response] | None = None


@dataclass
class Reply:
    """A handler's answer when it is not a plain 200 with a JSON body."""

    body: Any = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)


NO_CONTENT = Reply(status=204)
ROUTES: list[RouteSpec] = []


def route(path: str, methods: list[str], *, auth: bool = True, body: str = JSON_BODY, error_page=None):
    """Declare ``handler(ctx)`` for ``path``. GET brings HEAD along, PATCH brings POST.
    ``error_page(error, method)`` answers its errors instead of the JSON bodies."""

    def decorator(handler):
        expanded = list(methods)
        if "GET" in expanded and "HEAD" not in expanded:
            expanded.append("HEAD")
        if "PATCH" in expanded and "POST" not in expanded:
            expanded.append("POST")
        ROUTES.append(RouteSpec(path, tuple(expanded), handler, auth, body, error_page))
        return handler

    return decorator


class RequestContext:
    """What a handler needs from the request: caller, path params, query and parsed body."""

    def __init__(self, request, params: dict[str, str]):
        self.request = request
        self.params = params
        self.user = None
        self.token: str | None = None
        self.body: Any = None

    @property
    def method(self) -> str:
        return self.request.method

    @property
    def source_ip(self) -> str:
        identity = self.request.context.get("identity") or {}
        return identity.get("sourceIp") or "unknown"

    def query(self, name: str) -> str | None:
        params = self.request.query_params or {}
        return params.get(name)

    def json_object(self) -> dict:
        """The body as a JSON object (an empty body counts as ``{}``)."""
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


def _check_version(request) -> None:
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


def _check_body_size(request) -> None:
    """Any body above REQUEST_MAX_BYTES is 413 before anything reads it (docs/api.md, "Limits")."""
    limit = get_settings().request_max_bytes
    declared = request.headers.get("content-length") or ""
    size = int(declared) if declared.isdigit() else 0
    if size > limit or len(request.raw_body or b"") > limit:
        raise PayloadTooLarge(f"Request body too large. Maximum size is {limit / 2**20:g} MB.")


def _parse_body(ctx: RequestContext, kind: str) -> None:
    """JSON routes take exactly ``application/json`` (parameters such as charset allowed); multipart
    routes ``multipart/form-data``. Anything else with a body, or a body without Content-Type: 415."""
    request = ctx.request
    if request.method in ("GET", "HEAD"):  # no GET route reads a body, so none is judged (as DRF does)
        return
    raw = request.raw_body or b""
    media_type = _media_type(request)
    if kind == JSON_BODY:
        if not raw.strip():
            return
        if media_type.lower() != "application/json":
            raise UnsupportedMediaType(media_type)
        try:
            ctx.body = json.loads(raw)
        except (ValueError, RecursionError) as exc:  # RecursionError: nested too deep
            raise BadRequest(f"JSON parse error - {exc}") from None
    elif kind == MULTIPART_BODY and media_type.lower() != "multipart/form-data":
        raise UnsupportedMediaType(media_type)
    elif kind == FORM_BODY:
        if media_type.lower() != "application/x-www-form-urlencoded":
            raise UnsupportedMediaType(media_type)
        if len(raw) > FORM_MAX_BYTES:
            raise PayloadTooLarge("Request body too large.")
        try:  # the last value of a repeated name counts, as in a browser's own forms
            text = raw.decode("utf-8")
            ctx.body = dict(parse_qsl(text, keep_blank_values=True, errors="strict", max_num_fields=FORM_MAX_FIELDS))
        except ValueError:  # not UTF-8 (UnicodeDecodeError is one), or too many fields
            raise BadRequest("Form parse error.") from None


class NoContentResponse(Response):
    """A 204: no body, and no Content-Type once through API Gateway.

    Leaving the header out is not enough: API Gateway's Lambda proxy integration gives a response
    without one ``Content-Type: application/json``. A header whose value is null is dropped instead
    (AWS's ASP.NET Core Lambda adapter relies on the same). Chalice refuses a None header value in a
    view's Response, so the null is set in the Lambda response itself. The Chalice test client shows it
    as ``None``; ``chalice local`` needs scripts/chalice_cli.py to drop it as API Gateway does.
    """

    def to_dict(self, binary_types=None):
        response = super().to_dict(binary_types)
        response["headers"][CONTENT_TYPE] = None
        return response


def _to_response(result: Any, method: str) -> Response:
    if isinstance(result, Response):
        return result
    reply = result if isinstance(result, Reply) else Reply(body=result)
    headers = {**reply.headers}
    if reply.status == 204:
        return NoContentResponse(body="", status_code=reply.status, headers=headers)
    headers.setdefault("Content-Type", "application/json")
    if method == "HEAD":
        return Response(body="", status_code=reply.status, headers=headers)
    return Response(body=json.dumps(reply.body), status_code=reply.status, headers=headers)


def _error_response(error: ApiError, method: str) -> Response:
    return _to_response(Reply(body=error.body, status=int(error.status), headers=error.headers), method)


def _render_error(spec: RouteSpec | None, error: ApiError, method: str) -> Response:
    if spec is not None and spec.error_page is not None:
        return spec.error_page(error, method)
    return _error_response(error, method)


def dispatch(app: Chalice, spec: RouteSpec | None, allowed: list[str], params: dict[str, str]) -> Response:
    """Run one request through version check, auth, body parsing, the handler and error mapping."""
    request = app.current_request
    started = time.perf_counter()
    request_id = request.context.get("requestId") or str(uuid.uuid4())
    ctx = RequestContext(request, params)
    try:
        _check_version(request)
        _check_body_size(request)
        if spec is None:
            raise MethodNotAllowed(request.method, allowed)
        if spec.auth:
            from chalicelib.services.auth import authenticate

            ctx.user, ctx.token = authenticate(request.headers.get("authorization"))
        _parse_body(ctx, spec.body)
        response = _to_response(spec.handler(ctx), request.method)
    except ApiError as error:
        response = _render_error(spec, error, request.method)
    except Exception as exc:  # noqa: BLE001 - the one place that turns faults into HTTP
        if is_transient(exc):
            log.warning("aws dependency unavailable: %s", type(exc).__name__)
            response = _render_error(spec, ServiceUnavailable(), request.method)
        else:
            log.exception("unhandled error on %s %s", request.method, request.path)
            internal = ApiError({"detail": "Internal server error."})
            internal.status = HTTPStatus.INTERNAL_SERVER_ERROR
            response = _render_error(spec, internal, request.method)
    response.headers["X-Request-Id"] = request_id
    _log_request(request, response.status_code, started, request_id, ctx)
    return response


def _log_request(request, status: int, started: float, request_id: str, ctx: RequestContext) -> None:
    """One JSON line per request. Never a pin, a token, a body or a whole phone number."""
    line = {
        "msg": "request",
        "method": request.method,
        "route": request.path,
        "status": status,
        "latency_ms": round((time.perf_counter() - started) * 1000, 1),
        "request_id": request_id,
    }
    if ctx.user is not None:
        line["user_id"] = ctx.user.id
    print(json.dumps(line), flush=True)


def install_routes(app: Chalice, routes: list[RouteSpec] | None = None) -> None:
    """Register every declared route on ``app``, plus 405 answers for the undeclared methods."""
    by_path: dict[str, dict[str, RouteSpec]] = {}
    for spec in routes if routes is not None else ROUTES:
        for method in spec.methods:
            if method in by_path.setdefault(spec.path, {}):
                raise ValueError(f"{method} {spec.path} declared twice")
            by_path[spec.path][method] = spec
    for path, specs in by_path.items():
        allowed = [m for m in ALL_METHODS if m in specs]
        for method in ALL_METHODS:
            _register(app, path, method, specs.get(method), allowed)


def _register(app: Chalice, path: str, method: str, spec: RouteSpec | None, allowed: list[str]) -> None:
    def view(**params):
        return dispatch(app, spec, allowed, params)

    slug = path.strip("/").replace("/", "_").replace("{", "").replace("}", "") or "root"
    view.__name__ = f"{method.lower()}_{slug}"
    app.route(path, methods=[method], content_types=["*/*"])(view)
