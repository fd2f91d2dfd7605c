"""`make run`'s server answers what the API lacks as the deployed gateway does: unknown paths and methods the
API has none of (OPTIONS, TRACE, QUERY) get 404 {"detail": "Not found."} with an X-Request-Id."""

from __future__ import annotations

import http.client
import json
import threading

import pytest

from tests.infra.scripts import load


@pytest.fixture
def local_server(app, monkeypatch):
    from chalice import local
    from chalice.config import Config

    # the wrapper patches chalice local for the process: undone after the test
    monkeypatch.setattr(local.LocalGateway, "handle_request", local.LocalGateway.handle_request)
    monkeypatch.setattr(local.ChaliceRequestHandler, "__getattr__", None, raising=False)
    monkeypatch.delattr(local.ChaliceRequestHandler, "__getattr__")
    load("chalice_cli")._install_local_not_found()
    server = local.LocalDevServer(app, Config(chalice_stage="local"), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server.server_address[1]
    server.server.shutdown()
    server.server.server_close()


def _ask(port: int, method: str, path: str) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request(method, path, headers={"Authorization": "Bearer secret-token"})
    return connection.getresponse()


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/nope"), ("POST", "/events/1/nope"), ("OPTIONS", "/events"), ("TRACE", "/events"), ("QUERY", "/events")],
)
def test_what_the_api_lacks_is_404_with_a_request_id(local_server, method, path):
    response = _ask(local_server, method, path)
    text = response.read().decode()
    assert response.status == 404 and json.loads(text) == {"detail": "Not found."}
    assert response.getheader("X-Request-Id")
    assert "secret-token" not in text and "secret-token" not in str(response.getheaders())


def test_a_known_path_still_reaches_the_api_with_its_request_id(local_server):
    response = _ask(local_server, "GET", "/events/sample_rsvp_replies")
    response.read()
    assert response.status == 401 and response.getheader("X-Request-Id")
