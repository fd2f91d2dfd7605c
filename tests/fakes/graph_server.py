"""A fake Facebook Graph API on 127.0.0.1, for tests of the Graph client.

with FakeGraph() as graph:                       # graph.url == "http://127.0.0.1:PORT"
    graph.add_user(token="tok-1", id="1001", name="Ann", friends=[("1002", "Bob")])
    graph.expire("tok-1")                        # 400 OAuthException, like Graph
    graph.fail_with(503)                         # every answer 503 until fail_with(None)
    graph.requests                               # [(path, {query}), ...]
"""

from __future__ import annotations

import base64
import json
import threading
import time
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self

DEFAULT_LIMIT = 25  # Graph's default page size
MAX_LIMIT = 5000

INVALID_TOKEN_ERROR = {
    "error": {
        "message": "Invalid OAuth access token.",
        "type": "OAuthException",
        "code": 190,
        "fbtrace_id": "FakeTrace",
    }
}
EXPIRED_TOKEN_ERROR = {
    "error": {
        "message": "Error validating access token: Session has expired.",
        "type": "OAuthException",
        "code": 190,
        "error_subcode": 463,
        "fbtrace_id": "FakeTrace",
    }
}


@dataclass
class FakeUser:
    id: str
    name: str
    friends: list[tuple[str, str]] = field(default_factory=list)
    expired: bool = False


class FakeGraph:
    """A threaded fake Graph server serving ``/me`` and ``/me/friends``; use as a context manager."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._users: dict[str, FakeUser] = {}
        self._failure: tuple[int, bytes | None] | None = None
        self._ok_before_failure = 0
        self._delay = 0.0
        self._requests: list[tuple[str, dict[str, str]]] = []
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # Lifecycle

    def start(self) -> Self:
        """Bind an ephemeral port on 127.0.0.1 and serve in a daemon thread."""
        server = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-graph", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._thread.join(timeout=5)
            self._server = self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()

    @property
    def url(self) -> str:
        """Base URL, e.g. ``http://127.0.0.1:PORT`` (no trailing slash)."""
        if self._server is None:
            raise RuntimeError("FakeGraph is not running")
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    # Scenario set-up

    def add_user(self, *, token: str, id: str, name: str, friends: Iterable[tuple[str, str]] = ()) -> None:
        """Register ``token`` as belonging to user ``id``; ``friends`` are ``(id, name)`` pairs."""
        with self._lock:
            self._users[token] = FakeUser(id=id, name=name, friends=list(friends))

    def expire(self, token: str) -> None:
        """Make ``token`` answer 400 OAuthException (code 190, subcode 463)."""
        with self._lock:
            self._users[token].expired = True

    def fail_with(self, status: int | None, body: bytes | None = None, *, after: int = 0) -> None:
        """Answer every request with ``status`` and raw ``body`` (default: a Graph-shaped error).

        ``after`` lets that many requests through normally first; ``fail_with(None)`` stops failing.
        """
        with self._lock:
            self._failure = None if status is None else (status, body)
            self._ok_before_failure = after

    def delay(self, seconds: float) -> None:
        """Sleep ``seconds`` before answering each request (to exercise client timeouts)."""
        with self._lock:
            self._delay = seconds

    @property
    def requests(self) -> list[tuple[str, dict[str, str]]]:
        """``(path, query dict)`` of every request received, in order."""
        with self._lock:
            return list(self._requests)

    # Request handling (called from server threads)

    def _handle(self, raw_path: str) -> tuple[int, bytes]:
        parts = urllib.parse.urlsplit(raw_path)
        query = dict(urllib.parse.parse_qsl(parts.query, keep_blank_values=True))
        with self._lock:
            self._requests.append((parts.path, query))
            failure, delay = self._failure, self._delay
            if failure is not None and self._ok_before_failure > 0:
                self._ok_before_failure -= 1
                failure = None
            user = self._users.get(query.get("access_token", ""))
        if delay:
            time.sleep(delay)
        if failure is not None:
            status, body = failure
            if body is None:
                body = _json({"error": {"message": "Fake failure", "type": "FakeError"}})
            return status, body
        if user is None:
            return 400, _json(INVALID_TOKEN_ERROR)
        if user.expired:
            return 400, _json(EXPIRED_TOKEN_ERROR)
        if parts.path == "/me":
            return 200, _json(_select({"id": user.id, "name": user.name}, query))
        if parts.path == "/me/friends":
            return 200, _json(self._friends_page(user, parts.path, query))
        return 404, _json({"error": {"message": "Unknown path components", "type": "OAuthException", "code": 2500}})

    def _friends_page(self, user: FakeUser, path: str, query: dict[str, str]) -> dict:
        try:
            limit = min(max(int(query.get("limit", DEFAULT_LIMIT)), 1), MAX_LIMIT)
        except ValueError:
            limit = DEFAULT_LIMIT
        start = _decode_cursor(query["after"]) + 1 if query.get("after") else 0
        chunk = user.friends[start : start + limit]
        page: dict = {
            "data": [_select({"name": name, "id": fid}, query) for fid, name in chunk],
            "summary": {"total_count": len(user.friends)},
        }
        if chunk:
            first, last = start, start + len(chunk) - 1
            page["paging"] = {"cursors": {"before": _encode_cursor(first), "after": _encode_cursor(last)}}
            if last + 1 < len(user.friends):
                next_query = {**query, "limit": str(limit), "after": _encode_cursor(last)}
                page["paging"]["next"] = f"{self.url}{path}?{urllib.parse.urlencode(next_query)}"
        return page


def _make_handler(graph: FakeGraph) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            status, body = graph._handle(self.path)
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=UTF-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args) -> None:  # keep test output quiet
            pass

    return Handler


def _select(obj: dict, query: dict[str, str]) -> dict:
    """Keep only the ``fields`` asked for (Graph returns just ``id`` when none are given)."""
    wanted = [f for f in query.get("fields", "id").split(",") if f]
    return {key: value for key, value in obj.items() if key in wanted}


def _json(obj: dict) -> bytes:
    return json.dumps(obj).encode()


def _encode_cursor(index: int) -> str:
    return base64.urlsafe_b64encode(f"idx:{index}".encode()).decode().rstrip("=")


def _decode_cursor(cursor: str) -> int:
    padded = cursor + "=" * (-len(cursor) % 4)
    try:
        return int(base64.urlsafe_b64decode(padded).decode().removeprefix("idx:"))
    except ValueError:
        return -1
