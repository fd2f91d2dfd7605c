"""The AWS clients' limits fit the functions: a silent dependency ends in a 503 before Lambda's timeout."""

from __future__ import annotations

import json
import re
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


@pytest.fixture
def packaged_botocore_data(tmp_path, monkeypatch):
    """The trimmed botocore data the packager puts in the zip (scripts/botocore_data.py), in place as on Lambda,
    with a fresh session and clients; yields the directory."""
    from tests.infra.scripts import load

    directory = tmp_path / "botocore_data"
    load("botocore_data").build(directory)
    monkeypatch.setattr(aws, "PACKAGED_BOTOCORE_DATA", str(directory))
    monkeypatch.setattr(aws, "_session", None)
    aws.reset_clients()
    yield directory
    aws.reset_clients()


def test_the_packaged_botocore_data_is_read_first_without_scanning_every_service(packaged_botocore_data, monkeypatch):
    from botocore.loaders import Loader
    from botocore.session import get_session

    scanned_by = []
    scan = Loader.list_available_services

    def counted_scan(self, type_name):
        scanned_by.append(self)
        return scan(self, type_name)

    monkeypatch.setattr(Loader, "list_available_services", counted_scan)
    # WHEN every client the functions use is made, in two regions, beside one of a plain botocore session
    plain = get_session()
    for region in ("us-east-1", "eu-west-1"):
        for service in sorted(aws.CLIENT_LIMITS):
            packaged = aws.session().create_client(service, region_name=region, config=aws.client_config(service))
            default = plain.create_client(service, region_name=region, config=aws.client_config(service))
            # THEN each resolves the same endpoint as with botocore's own data
            assert packaged.meta.endpoint_url == default.meta.endpoint_url, (service, region)
    # and its data came from the package (endpoints, models without documentation), without botocore's scan of
    # every service directory (which the plain session made)
    loader = aws.session().get_component("data_loader")
    assert loader.load_data_with_path("endpoints")[1].startswith(str(packaged_botocore_data))
    for service in aws.CLIENT_LIMITS:
        version = loader.determine_latest_version(service, "service-2")
        path = loader.load_data_with_path(f"{service}/{version}/service-2")[1]
        assert path.startswith(str(packaged_botocore_data / service)), path
    assert "documentation" not in loader.load_service_model("dynamodb", "service-2")["operations"]["Query"]
    assert loader not in scanned_by and plain.get_component("data_loader") in scanned_by


def test_the_api_answers_with_the_packaged_botocore_data(packaged_botocore_data, client):
    from tests.utils.api import get
    from tests.utils.factories import make_event, make_person

    owner, guest = make_person("Olivia Owner"), make_person("Gus Guest")
    event = make_event(owner, guest)
    aws.reset_clients()
    response = get(client, f"/events/{event.id}", guest.token)
    assert response.status_code == 200, response.body
    assert [i["full_name"] for i in response.json_body["invitees"]] == ["Olivia Owner", "Gus Guest"]
    assert (
        aws.session()
        .get_component("data_loader")
        .load_data_with_path("endpoints")[1]
        .startswith(str(packaged_botocore_data))
    )


@pytest.fixture
def fresh_session(monkeypatch):
    """A session and clients made afresh, as a cold start makes them; the old ones come back afterwards."""
    monkeypatch.setattr(aws, "_session", None)
    monkeypatch.setattr(aws, "_clients", {})


def _handlers_for(session, event_name: str) -> list:
    """The handlers ``session`` would call for ``event_name``, in order (botocore's own lookup, aliases included)."""
    aliased = session.get_component("event_emitter")
    return list(aliased._emitter._handlers.prefix_search(aliased._alias_event_name(event_name)))


# an event name's service: its second part (before-call.s3.PutObject), the third of a documentation event
SERVICE_PART = re.compile(r"^((?:docs\.)?[^.]+\.)([^.]+)(.*)$")


def _service_of(event_name: str) -> str:
    found = SERVICE_PART.match(event_name)
    return found.group(2) if found else "*"


def _service_events() -> list[str]:
    """Every event name botocore has built-in handlers for, and each of them for every service the app calls."""
    from botocore.handlers import BUILTIN_HANDLERS

    names = set()
    for event_name, *_ in BUILTIN_HANDLERS:
        names.add(event_name)
        if found := SERVICE_PART.match(event_name):
            names.update(f"{found.group(1)}{service}{found.group(3)}" for service in aws.CLIENT_LIMITS)
    return sorted(names)


def test_the_session_has_botocore_handlers_for_the_apps_services_and_no_others(fresh_session):
    from botocore.handlers import BUILTIN_HANDLERS
    from botocore.session import get_session

    plain, ours = get_session(), aws.session()
    # every event of a service the app calls, or of every service, reaches the handlers a plain session has, in order
    for event_name in _service_events():
        if _service_of(event_name) in {"*", *aws.CLIENT_LIMITS}:
            assert _handlers_for(ours, event_name) == _handlers_for(plain, event_name), event_name
    # every handler botocore registers for another service only is left out (about half of its registrations)
    kept = {id(handler) for name, handler, *_ in BUILTIN_HANDLERS if _service_of(name) in {"*", *aws.CLIENT_LIMITS}}
    left_out = [(name, handler) for name, handler, *_ in BUILTIN_HANDLERS if id(handler) not in kept]
    assert len(left_out) > len(BUILTIN_HANDLERS) / 3
    for name, handler in left_out:
        assert handler in _handlers_for(plain, name) and handler not in _handlers_for(ours, name), name


def test_credentials_in_the_environment_are_read_without_building_botocore_s_other_providers(
    fresh_session, monkeypatch
):
    from botocore import httpsession

    made = []
    make = httpsession.URLLib3Session.__init__

    def counted(self, *args, **kwargs):
        made.append(self)
        make(self, *args, **kwargs)

    monkeypatch.setattr(httpsession.URLLib3Session, "__init__", counted)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDFROMTHEENVIRONMENT")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret-from-the-environment")
    monkeypatch.setenv("AWS_SESSION_TOKEN", "token-from-the-environment")
    client = aws.dynamodb()
    credentials = client._request_signer._credentials.get_frozen_credentials()
    assert (credentials.access_key, credentials.secret_key, credentials.token) == (
        "AKIDFROMTHEENVIRONMENT",
        "secret-from-the-environment",
        "token-from-the-environment",
    )
    assert aws.session().get_credentials().method == "env"
    # the client's own HTTP session only: no instance-metadata or container fetcher was made
    assert len(made) == 1


def test_without_credentials_in_the_environment_the_session_keeps_botocore_s_chain(fresh_session, monkeypatch):
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    providers = [p.METHOD for p in aws.session().get_component("credential_provider").providers]
    assert providers[0] == "env" and {"container-role", "iam-role"} <= set(providers)
