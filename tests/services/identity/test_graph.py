"""Tests of the Graph API client against the local fake Graph server (127.0.0.1 only)."""

from __future__ import annotations

import json
import logging
import socket
import traceback

import pytest

from chalicelib.api.error_responses import body_of, headers_of, status_of
from chalicelib.errors import ServiceUnavailable, ValidationError
from chalicelib.services.identity import graph as graph_client
from tests.fakes.graph_server import FakeGraph

TOKEN = "tok-secret-EAAB123"
UNKNOWN_TOKEN = "tok-unknown-EAAB456"
TIMEOUT = 2.0
INVALID_BODY = {"fb_token": ["Invalid or expired token."]}


@pytest.fixture(autouse=True)
def _no_proxies(monkeypatch):
    """Make sure urllib talks straight to 127.0.0.1 even if the environment sets a proxy."""
    for name in ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def graph():
    with FakeGraph() as fake:
        yield fake


def closed_port() -> int:
    """A local port nothing listens on: bind, read the port, close."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return port


def friends_list(count: int) -> list[tuple[str, str]]:
    return [(str(2000 + i), f"Friend {i:03d}") for i in range(count)]


def profile(graph: FakeGraph, token: str = TOKEN) -> dict:
    return graph_client.fetch_profile(token, base_url=graph.url, timeout=TIMEOUT)


def friends(graph: FakeGraph, token: str = TOKEN, **kwargs) -> list[dict]:
    return graph_client.fetch_friends(token, base_url=graph.url, timeout=TIMEOUT, **kwargs)


def assert_token_not_leaked(exc: BaseException, token: str = TOKEN) -> None:
    """Neither the error, its body/headers, its traceback nor any chained error mentions the token."""
    assert exc.__cause__ is None and exc.__context__ is None
    texts = [
        str(exc),
        repr(exc),
        json.dumps(getattr(exc, "body", {})),
        json.dumps(getattr(exc, "headers", {})),
    ]
    for text in texts:
        assert token not in text
        assert "access_token" not in text
    assert token not in "".join(traceback.format_exception(exc))  # source lines may say "access_token"


# Profile


def test_profile_ok(graph):
    graph.add_user(token=TOKEN, id="1001", name="Ann")

    assert profile(graph) == {"id": "1001", "name": "Ann"}
    assert graph.requests == [("/me", {"fields": "id,name", "access_token": TOKEN})]


def test_base_url_trailing_slash_is_ignored(graph):
    graph.add_user(token=TOKEN, id="1001", name="Ann")

    result = graph_client.fetch_profile(TOKEN, base_url=graph.url + "/", timeout=TIMEOUT)

    assert result == {"id": "1001", "name": "Ann"}
    assert graph.requests[0][0] == "/me"


# Friends


def test_friends_across_three_pages_in_order(graph):
    expected = friends_list(250)
    graph.add_user(token=TOKEN, id="1001", name="Ann", friends=expected)

    result = friends(graph)

    assert result == [{"name": name, "id": fid} for fid, name in expected]
    assert [list(item) for item in result[:1]] == [["name", "id"]]
    pages = [query for path, query in graph.requests if path == "/me/friends"]
    assert len(pages) == 3
    assert all(query["limit"] == "100" and query["fields"] == "id,name" for query in pages)
    assert "after" not in pages[0] and pages[1]["after"] and pages[2]["after"]


def test_friends_none(graph):
    graph.add_user(token=TOKEN, id="1001", name="Ann", friends=[])

    assert friends(graph) == []
    assert len(graph.requests) == 1


def test_friends_exact_page_has_no_extra_request(graph):
    graph.add_user(token=TOKEN, id="1001", name="Ann", friends=friends_list(100))

    assert len(friends(graph)) == 100
    assert len(graph.requests) == 1


def test_friends_stop_after_max_pages(graph):
    graph.add_user(token=TOKEN, id="1001", name="Ann", friends=friends_list(250))

    result = friends(graph, max_pages=2)

    assert len(result) == 200
    assert len(graph.requests) == 2


def test_friends_next_url_on_another_origin_is_not_followed(graph):
    foreign = f"http://127.0.0.1:{closed_port()}/me/friends?access_token={TOKEN}&after=x"
    page = {"data": [{"id": "2", "name": "Bob"}], "paging": {"next": foreign}}
    graph.add_user(token=TOKEN, id="1001", name="Ann")
    graph.fail_with(200, body=json.dumps(page).encode())

    with pytest.raises(ServiceUnavailable) as caught:
        friends(graph)

    assert len(graph.requests) == 1
    assert_token_not_leaked(caught.value)


# Token rejected


@pytest.mark.parametrize("call", [profile, friends], ids=["profile", "friends"])
def test_unknown_token_is_a_validation_error(graph, call):
    with pytest.raises(ValidationError) as caught:
        call(graph, UNKNOWN_TOKEN)

    assert body_of(caught.value) == INVALID_BODY
    assert_token_not_leaked(caught.value, UNKNOWN_TOKEN)


@pytest.mark.parametrize("call", [profile, friends], ids=["profile", "friends"])
def test_expired_token_is_a_validation_error(graph, call):
    graph.add_user(token=TOKEN, id="1001", name="Ann", friends=friends_list(3))
    graph.expire(TOKEN)

    with pytest.raises(ValidationError) as caught:
        call(graph)

    assert body_of(caught.value) == INVALID_BODY
    assert_token_not_leaked(caught.value)


@pytest.mark.parametrize("status", [401, 403])
def test_other_auth_statuses_are_validation_errors(graph, status):
    graph.fail_with(status)

    with pytest.raises(ValidationError) as caught:
        profile(graph)

    assert body_of(caught.value) == INVALID_BODY


def test_friends_next_url_without_token_gets_it_and_loops_stop(graph):
    next_url = f"{graph.url}/me/friends?fields=id%2Cname&limit=100&after=abc"
    page = {"data": [{"id": "2", "name": "Bob"}], "paging": {"next": next_url}}
    graph.fail_with(200, body=json.dumps(page).encode())  # every page answers the same next URL

    result = friends(graph)

    assert result == [{"name": "Bob", "id": "2"}] * 2
    assert len(graph.requests) == 2
    assert graph.requests[1][1] == {
        "fields": "id,name",
        "limit": "100",
        "after": "abc",
        "access_token": TOKEN,
    }


@pytest.mark.parametrize("status,error", [(503, ServiceUnavailable), (400, ValidationError)])
def test_failure_mid_pagination(graph, status, error):
    graph.add_user(token=TOKEN, id="1001", name="Ann", friends=friends_list(250))
    graph.fail_with(status, after=1)

    with pytest.raises(error):
        friends(graph)

    assert len(graph.requests) == 2


# Graph unavailable


@pytest.mark.parametrize("status", [500, 502, 503, 429, 404])
def test_graph_error_status_is_service_unavailable(graph, status):
    graph.add_user(token=TOKEN, id="1001", name="Ann")
    graph.fail_with(status)

    with pytest.raises(ServiceUnavailable) as caught:
        profile(graph)

    assert status_of(caught.value) == 503
    assert body_of(caught.value) == {"detail": "The social network is unavailable, try again later."}
    assert headers_of(caught.value)["Retry-After"]
    assert_token_not_leaked(caught.value)


def test_recovers_after_failure_is_cleared(graph):
    graph.add_user(token=TOKEN, id="1001", name="Ann")
    graph.fail_with(503)
    with pytest.raises(ServiceUnavailable):
        profile(graph)

    graph.fail_with(None)

    assert profile(graph) == {"id": "1001", "name": "Ann"}


@pytest.mark.parametrize("code", [4, 17, 32, 613])
def test_rate_limit_error_with_403_is_service_unavailable_not_bad_token(graph, code):
    body = {"error": {"message": "Application request limit reached", "type": "OAuthException", "code": code}}
    graph.fail_with(403, body=json.dumps(body).encode())

    with pytest.raises(ServiceUnavailable):
        profile(graph)


def test_transient_flag_with_400_is_service_unavailable(graph):
    body = {"error": {"message": "An unknown error occurred", "code": 190, "is_transient": True}}
    graph.fail_with(400, body=json.dumps(body).encode())

    with pytest.raises(ServiceUnavailable):
        profile(graph)


@pytest.mark.parametrize(
    "body",
    [b"<html>Oops</html>", b"", b"\xff\xfe", b"[1, 2]", b'{"id": "1001"}'],
    ids=["html", "empty", "not-utf8", "not-object", "no-name"],
)
def test_unusable_profile_body_is_service_unavailable(graph, body):
    graph.fail_with(200, body=body)

    with pytest.raises(ServiceUnavailable) as caught:
        profile(graph)

    assert_token_not_leaked(caught.value)


@pytest.mark.parametrize("body", [b"not json", b"{}", b'{"data": [{"name": "no id"}]}'])
def test_unusable_friends_body_is_service_unavailable(graph, body):
    graph.fail_with(200, body=body)

    with pytest.raises(ServiceUnavailable):
        friends(graph)


@pytest.mark.parametrize("call", ["fetch_profile", "fetch_friends"])
def test_closed_port_is_service_unavailable(call):
    base_url = f"http://127.0.0.1:{closed_port()}"

    with pytest.raises(ServiceUnavailable) as caught:
        getattr(graph_client, call)(TOKEN, base_url=base_url, timeout=TIMEOUT)

    assert headers_of(caught.value)["Retry-After"]
    assert_token_not_leaked(caught.value)


def test_timeout_is_service_unavailable(graph):
    graph.add_user(token=TOKEN, id="1001", name="Ann")
    graph.delay(1.0)

    with pytest.raises(ServiceUnavailable) as caught:
        graph_client.fetch_profile(TOKEN, base_url=graph.url, timeout=0.2)

    assert_token_not_leaked(caught.value)


def test_token_never_logged(graph, caplog):
    caplog.set_level(logging.DEBUG)
    graph.add_user(token=TOKEN, id="1001", name="Ann", friends=friends_list(150))
    friends(graph)
    for status in (400, 503):
        graph.fail_with(status)
        with pytest.raises((ValidationError, ServiceUnavailable)):
            profile(graph)
    graph.fail_with(None)
    with pytest.raises(ServiceUnavailable):
        graph_client.fetch_profile(TOKEN, base_url=f"http://127.0.0.1:{closed_port()}", timeout=TIMEOUT)

    assert caplog.records  # failures are logged...
    assert TOKEN not in caplog.text  # ...without the token
    assert "access_token" not in caplog.text
