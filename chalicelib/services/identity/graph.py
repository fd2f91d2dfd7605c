"""Minimal Facebook Graph API client (standard library only, for Lambda).

The access token travels in the query string as Graph expects, so no URL is ever put into
an exception, a log line or an exception chain: failures surface only as
``ValidationError`` (the token is bad) or ``ServiceUnavailable`` (Graph is unreachable or
answered something unusable).
"""

from __future__ import annotations

import http.client
import json
import logging
import urllib.error
import urllib.parse
import urllib.request

from chalicelib.errors import ServiceUnavailable, ValidationError

logger = logging.getLogger(__name__)

INVALID_TOKEN_MESSAGE = "Invalid or expired token."
UNAVAILABLE_MESSAGE = "The social network is unavailable, try again later."

_FRIENDS_PAGE_SIZE = 100
_MAX_BODY_BYTES = 2 * 1024 * 1024
_TOKEN_REJECTED_STATUSES = frozenset({400, 401, 403})
# Graph error codes that mean "Graph (or our app) is throttled / having trouble", not "bad token",
# even though they arrive with a 400/403 status.
_TRANSIENT_ERROR_CODES = frozenset({1, 2, 4, 17, 32, 341, 613})


def fetch_profile(access_token: str, *, base_url: str, timeout: float) -> dict:
    """Return ``{"id", "name"}`` of the token's owner."""
    url = _url(base_url, "/me", {"fields": "id,name", "access_token": access_token})
    body = _get_json(url, timeout=timeout)
    if not isinstance(body, dict):
        raise _unavailable("profile is not an object")
    return _person(body, key_order=("id", "name"))


def fetch_friends(access_token: str, *, base_url: str, timeout: float, max_pages: int = 50) -> list[dict]:
    """Return ``[{"name", "id"}, ...]`` of the token owner's friends, following ``paging.next``.

    Stops when there is no next page, a page is empty, or after ``max_pages`` pages.
    Next-page URLs are only followed on the same scheme and host as ``base_url``, so the
    token is never sent anywhere else.
    """
    query = {"fields": "id,name", "limit": str(_FRIENDS_PAGE_SIZE), "access_token": access_token}
    url: str | None = _url(base_url, "/me/friends", query)
    origin = _origin(base_url)
    friends: list[dict] = []
    seen_urls: set[str] = set()
    for _ in range(max_pages):
        if url is None or url in seen_urls:
            return friends
        seen_urls.add(url)
        page = _get_json(url, timeout=timeout)
        data = page.get("data") if isinstance(page, dict) else None
        if not isinstance(data, list):
            raise _unavailable("friends page has no data list")
        if not data:
            return friends
        friends.extend(_person(item, key_order=("name", "id")) for item in data)
        url = _next_url(page, origin=origin, access_token=access_token)
    if url is not None:
        logger.warning("Graph friends truncated after %d pages (%d friends)", max_pages, len(friends))
    return friends


def _url(base_url: str, path: str, query: dict[str, str]) -> str:
    return f"{base_url.rstrip('/')}{path}?{urllib.parse.urlencode(query)}"


def _origin(url: str) -> tuple[str, str]:
    parts = urllib.parse.urlsplit(url)
    return parts.scheme.lower(), parts.netloc.lower()


def _next_url(page: dict, *, origin: tuple[str, str], access_token: str) -> str | None:
    """The page's ``paging.next`` URL, checked to stay on Graph's origin and to carry the token."""
    paging = page.get("paging")
    next_url = paging.get("next") if isinstance(paging, dict) else None
    if not next_url:
        return None
    if not isinstance(next_url, str) or _origin(next_url) != origin:
        raise _unavailable("paging.next points outside the Graph base URL")
    parts = urllib.parse.urlsplit(next_url)
    query = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
    if not any(key == "access_token" for key, _ in query):
        query.append(("access_token", access_token))
        next_url = urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))
    return next_url


def _person(item: object, *, key_order: tuple[str, str]) -> dict:
    """``{"id": str, "name": str}`` from a Graph user object, keys in ``key_order``."""
    if not isinstance(item, dict) or item.get("id") in (None, "") or not isinstance(item.get("name"), str):
        raise _unavailable("user object without id/name")
    values = {"id": str(item["id"]), "name": item["name"]}
    return {key: values[key] for key in key_order}


def _get_json(url: str, *, timeout: float) -> object:
    """GET ``url`` and decode its JSON body, mapping every failure to a domain error.

    Domain errors are raised outside the ``except`` blocks on purpose, so they carry no
    ``__context__``: urllib/http.client exceptions can hold the URL (and so the token) and
    must not end up in a logged traceback.
    """
    path = urllib.parse.urlsplit(url).path  # safe to log: no query string
    failure: ValidationError | ServiceUnavailable | None = None
    raw = b""
    try:
        request = urllib.request.Request(url, headers={"Accept": "application/json"}, method="GET")
        with urllib.request.build_opener().open(request, timeout=timeout) as response:
            raw = response.read(_MAX_BODY_BYTES + 1)
    except urllib.error.HTTPError as exc:
        failure = _http_failure(exc, path)
    except (OSError, http.client.HTTPException, ValueError) as exc:
        # URLError (refused, DNS), TimeoutError, ConnectionResetError, IncompleteRead, InvalidURL...
        failure = _unavailable(f"{type(exc).__name__} on {path}")
    if failure is None and len(raw) > _MAX_BODY_BYTES:
        failure = _unavailable(f"body over {_MAX_BODY_BYTES} bytes on {path}")
    if failure is None:
        try:
            return json.loads(raw)
        except ValueError:  # JSONDecodeError and UnicodeDecodeError
            failure = _unavailable(f"non-JSON body on {path}")
    raise failure


def _http_failure(exc: urllib.error.HTTPError, path: str) -> ValidationError | ServiceUnavailable:
    """Map a Graph error status: rejected token -> ValidationError, anything else -> unavailable."""
    error = _graph_error(exc)
    exc.close()
    if exc.code in _TOKEN_REJECTED_STATUSES and not _is_transient(error):
        logger.info("Graph rejected the token on %s: HTTP %d, code %s", path, exc.code, error.get("code"))
        return ValidationError.field("fb_token", INVALID_TOKEN_MESSAGE)
    return _unavailable(f"HTTP {exc.code} (code {error.get('code')}) on {path}")


def _graph_error(exc: urllib.error.HTTPError) -> dict:
    """The ``error`` object of a Graph error answer, or ``{}`` if the body is not one."""
    try:
        body = json.loads(exc.read(_MAX_BODY_BYTES))
    except (OSError, http.client.HTTPException, ValueError):
        return {}
    error = body.get("error") if isinstance(body, dict) else None
    return error if isinstance(error, dict) else {}


def _is_transient(error: dict) -> bool:
    return bool(error.get("is_transient")) or error.get("code") in _TRANSIENT_ERROR_CODES


def _unavailable(reason: str) -> ServiceUnavailable:
    logger.warning("Graph API unavailable: %s", reason)
    return ServiceUnavailable(UNAVAILABLE_MESSAGE)
