"""One request through the checks every route shares, its handler, and the error mapping."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from typing import Any

from chalice import Response

from chalicelib import write_tokens
from chalicelib.api.access_log import log_request
from chalicelib.api.error_responses import ErrorPage, as_domain_error, error_response
from chalicelib.api.idempotency import idempotency_key, run_once
from chalicelib.api.request import (
    RequestContext,
    bearer_token,
    check_body_size,
    check_version,
    parse_body,
    parse_id,
)
from chalicelib.api.responses import to_response
from chalicelib.errors import MethodNotAllowed, NotFound
from chalicelib.loading import load_handler
from chalicelib.services.identity.tokens import authenticate


@dataclass(frozen=True)
class RouteSpec:
    """One declared route: its handler and what the shared plumbing does around it."""

    path: str
    methods: tuple[str, ...]
    # The handler, ``"chalicelib.api.module:function"`` taking a RequestContext; loaded on the route's first call.
    handler: str
    auth: bool
    body: str
    # Renders this route's errors (HTML pages under /i/), named like the handler; None: the DRF-shaped JSON bodies.
    error_page: str | None = None
    # Takes an Idempotency-Key (chalicelib/api/idempotency.py).
    idempotent: bool = False

    def answer(self, ctx: RequestContext) -> Any:
        """What the handler answers for ``ctx``."""
        return load_handler(self.handler)(ctx)

    def error_renderer(self) -> ErrorPage | None:
        return load_handler(self.error_page) if self.error_page else None


def dispatch(request, spec: RouteSpec | None, allowed: list[str], params: dict[str, str]) -> Response:
    """Run one request through version check, body size, auth, body parsing, the handler and error mapping.
    ``spec`` None: the method is not declared on this path (405)."""
    started = time.perf_counter()
    request_id = request.context.get("requestId") or str(uuid.uuid4())
    write_tokens.new_unit_of_work()
    ctx = RequestContext(request, params)
    try:
        check_version(request)
        check_body_size(request)
        if spec is None:
            raise MethodNotAllowed(request.method, allowed)
        if spec.auth:
            ctx.user, ctx.token = authenticate(bearer_token(request), event_id=_named_event(params))
        parse_body(ctx, spec.body)
        key = idempotency_key(ctx) if spec.idempotent else None
        if key is None:
            response = to_response(spec.answer(ctx), request.method)
        else:
            response = run_once(ctx, key, lambda: _answer(ctx, spec))
    except Exception as exc:  # noqa: BLE001 - every fault becomes an HTTP answer here
        error = as_domain_error(exc, request.method, request.path)
        response = error_response(error, request.method, spec.error_renderer() if spec is not None else None)
    response.headers["X-Request-Id"] = request_id
    log_request(request, response.status_code, started, request_id, ctx.user)
    return response


def _named_event(params: dict[str, str]) -> int | None:
    """The id of the event the path names, when it is one (read with the caller's token), else None."""
    try:
        return parse_id(params.get("event_id")) if "event_id" in params else None
    except NotFound:
        return None


def _answer(ctx: RequestContext, spec: RouteSpec) -> Response:
    """The handler's answer, its errors answered as the route answers them (for an idempotent run, which
    keeps only a successful answer and gives its key back otherwise)."""
    try:
        return to_response(spec.answer(ctx), ctx.method)
    except Exception as exc:  # noqa: BLE001 - mapped as dispatch maps them
        error = as_domain_error(exc, ctx.method, ctx.request.path)
        return error_response(error, ctx.method, spec.error_renderer())
