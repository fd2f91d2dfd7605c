"""The AWS clients' limits fit the functions: a silent dependency ends in a 503 before Lambda's timeout."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

import pytest

from chalicelib import aws
from chalicelib.parallel import MAX_WORKERS

ROOT = Path(__file__).resolve().parents[1]
# What a function needs after its last call fails: answering the 503 (or failing the batch) and logging.
MARGIN_SECONDS = 3


def lambda_timeouts() -> list[int]:
    stages = json.loads((ROOT / ".chalice" / "config.json").read_text())["stages"]
    return [stage["lambda_timeout"] for stage in stages.values() if "lambda_timeout" in stage]


@pytest.mark.parametrize("service", sorted(aws.CLIENT_LIMITS))
def test_one_call_ends_well_within_the_lambda_timeout_and_the_pool_fits_the_fan_out(service, fresh_clients):
    limits = aws.CLIENT_LIMITS[service]
    assert limits.worst_case <= min(lambda_timeouts()) - MARGIN_SECONDS, limits
    config = aws._client(service).meta.config
    assert (config.connect_timeout, config.read_timeout) == (limits.connect, limits.read)
    assert config.retries["total_max_attempts"] == limits.attempts
    assert config.max_pool_connections >= MAX_WORKERS


@pytest.fixture
def fresh_clients():
    """The service's clients made afresh (no emulator needed: nothing is called)."""
    aws.reset_clients()
    yield
    aws.reset_clients()


class BlackHole:
    """A local endpoint that accepts connections and never answers."""

    def __init__(self):
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(64)
        self.held: list[socket.socket] = []
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.getsockname()[1]}"

    def _accept(self):
        while not self.closed:
            try:
                connection, _ = self.server.accept()
            except OSError:
                return
            self.held.append(connection)

    def close(self):
        self.closed = True
        for connection in self.held:
            connection.close()
        self.server.close()


def test_a_black_holed_endpoint_answers_503_with_retry_after_within_the_clients_limits(override_settings):
    from chalice.test import Client

    from app import app

    hole = BlackHole()
    override_settings(aws_endpoint_url=hole.url)
    aws.reset_clients()
    try:
        with Client(app, stage_name="local") as client:
            started = time.monotonic()
            response = client.http.get("/users/me", headers={"Authorization": "Bearer 1234567.abcdefghijklmnop"})
            elapsed = time.monotonic() - started
    finally:
        hole.close()
        aws.reset_clients()
    assert response.status_code == 503, response.body
    assert response.headers.get("Retry-After")
    print(f"answered {response.status_code} after {elapsed:.1f} s, {len(hole.held)} connections")
    budget = aws.CLIENT_LIMITS["dynamodb"].worst_case
    assert aws.CLIENT_LIMITS["dynamodb"].read * aws.CLIENT_LIMITS["dynamodb"].attempts <= elapsed <= budget + 1
    assert len(hole.held) >= aws.CLIENT_LIMITS["dynamodb"].attempts  # every attempt reached it and waited
