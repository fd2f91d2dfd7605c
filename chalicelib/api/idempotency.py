"""``Idempotency-Key`` on the POSTs that create something or text someone (a route opts in with
``idempotent=True``): a repeat by the same user with the same key answers the first answer again and does
nothing else. The key is claimed before the handler runs (chalicelib/store/idempotency.py); only a
successful answer (below 400) is kept, so a request that failed, which wrote nothing, releases its key and
a retry does the work. Without the header a request costs nothing more."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable

from chalice import Response

from chalicelib.api.request import RequestContext
from chalicelib.api.responses import NoContentResponse
from chalicelib.errors import IdempotencyKeyInProgress, IdempotencyKeyReused, ValidationError

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_KEY_LENGTH = 255

log = logging.getLogger("invites")
INVALID_KEY = f"Must be 1 to {MAX_KEY_LENGTH} printable ASCII characters."


def _secrets():
    from chalicelib import kept_secrets  # loaded by the idempotent writes only, off the API's cold start

    return kept_secrets


def idempotency_key(ctx: RequestContext) -> str | None:
    """The request's key, None when it sent none; 400 keyed by the header when it is not 1 to 255
    printable ASCII characters (space to tilde)."""
    key = ctx.request.headers.get(HEADER)
    if key is None:
        return None
    if not 1 <= len(key) <= MAX_KEY_LENGTH or any(not " " <= ch <= "~" for ch in key):
        raise ValidationError.field(HEADER, INVALID_KEY)
    return key


def _fingerprint(ctx: RequestContext) -> str:
    """The same request: method, path, query and body, the body compared as JSON (key order and spacing aside),
    the query by its parameters (order aside). A request without a query has the fingerprint it always had."""
    body = json.dumps(ctx.body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    text = f"{ctx.method} {ctx.request.path.format(**(ctx.params or {}))}\n{body}"
    query = ctx.request.query_params
    if query:
        text += "\n" + json.dumps(sorted(query.items()), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _scope(ctx: RequestContext, key: str, nonce: str) -> str:
    """What the secrets of one kept answer are sealed under: its user, key and claim."""
    return f"{ctx.user.id}:{key}:{nonce}"


def _sealed(headers: dict, body: str, issued: list[str], scope: str) -> tuple[dict[str, str], str]:
    """The headers and body to keep: the secrets the request issued sealed (chalicelib/kept_secrets.py)."""
    headers = {name: _secrets().seal(value, issued, scope) for name, value in headers.items() if value}
    return headers, _secrets().seal(body, issued, scope)


def run_once(ctx: RequestContext, key: str, answer: Callable[[], Response]) -> Response:
    """``answer()`` once for this user and key; a repeat gets the kept answer (with ``Idempotent-Replayed:
    true``), 422 when it is another request, 409 while the first still runs."""
    from chalicelib.store import idempotency  # loaded by the requests that send a key, not by every cold start

    fingerprint = _fingerprint(ctx)
    claimed = idempotency.claim(ctx.user.id, key, fingerprint)
    if isinstance(claimed, idempotency.Earlier):
        if claimed.fingerprint != fingerprint:
            raise IdempotencyKeyReused()
        if claimed.answer is None:
            raise IdempotencyKeyInProgress()
        kept, scope = claimed.answer, _scope(ctx, key, claimed.nonce)
        headers = {name: _secrets().unseal(value, scope) for name, value in kept.headers.items()}
        headers[REPLAYED_HEADER] = "true"
        if kept.status == 204:
            return NoContentResponse(body="", status_code=204, headers=headers)
        return Response(body=_secrets().unseal(kept.body, scope), status_code=kept.status, headers=headers)
    try:
        with _secrets().collecting() as issued:
            response = answer()
    except BaseException:
        idempotency.release(claimed)
        raise
    if response.status_code >= 400:
        idempotency.release(claimed)
        return response
    body = response.body if isinstance(response.body, str) else ""
    try:
        headers, body = _sealed(response.headers, body, issued, _scope(ctx, key, claimed.nonce))
        idempotency.keep_answer(claimed, idempotency.KeptAnswer(response.status_code, headers, body))
    except Exception:  # noqa: BLE001 - the work is done: answer it; the claim stays "running" until its lease ends
        log.warning("could not keep an idempotent answer")
    return response
