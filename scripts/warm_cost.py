"""Warm cost: the app's CPU per request against a minimal Chalice handler making the same AWS calls.

    python scripts/warm_cost.py                # prints the table; bench.py stores it as ``warm_cost``
    python scripts/warm_cost.py --profile      # and the functions the app's requests spend their CPU in

Two phases, in one process:

1. Recording, on moto: each measured request runs once (after a warm-up that fills the caches and makes the
   clients) and every AWS call it makes is kept: the operation, its API parameters, the request body botocore
   sent and the raw HTTP answer moto gave.
2. Replay, with no emulator: a ``before-send`` hook on every botocore client answers each call with the
   recorded raw answer (matched by operation and request body, else the next unused answer of that
   operation), so botocore still serialises, signs and parses, but no time goes to moto. The app answers its
   requests through ``chalice.test.Client``; so does the minimal handler, a Chalice app of the same routes whose
   every view makes the recorded calls with their recorded parameters on plain boto3 clients and returns a
   small JSON body. ``time.process_time()`` (every thread of the process) over a block of requests gives the
   CPU per request; blocks alternate between the two sides and the median per side is reported.

A request that makes a call its recording lacks fails loudly: the replay would otherwise measure a
different path.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import json
import os
import pstats
import statistics
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.utils.aws_env import REGION, create_resources, use_test_environment  # noqa: E402

TARGET_RATIO = 1.5


@dataclass
class RecordedCall:
    service: str
    operation: str
    params: dict
    body: bytes
    status: int = 0
    headers: dict = field(default_factory=dict)
    content: bytes = b""


class _RawBody:
    """What botocore reads a response body from (``AWSResponse.raw``)."""

    def __init__(self, content: bytes):
        self._stream = io.BytesIO(content)

    def stream(self, **_kwargs):
        yield self._stream.read()


class AwsTape:
    """Records every botocore call (on moto) and answers them again from the recording (without it)."""

    def __init__(self):
        self.mode = "off"  # "record" | "replay" | "off"
        self.recordings: dict[str, list[RecordedCall]] = {}
        self.calls_answered = 0
        self._current: list[RecordedCall] | None = None
        self._unused: list[RecordedCall] = []
        self._lock = threading.Lock()
        self._pending = threading.local()

    def install(self) -> None:
        import botocore.session

        original = botocore.session.Session.create_client
        tape = self

        def create_client(session, *args, **kwargs):
            client = original(session, *args, **kwargs)
            client.meta.events.register("provide-client-params.*.*", tape._params)
            client.meta.events.register("before-send.*.*", tape._before_send)
            client.meta.events.register("after-call.*.*", tape._after_call)
            return client

        botocore.session.Session.create_client = create_client

    def record(self, name: str) -> None:
        self.mode, self._current = "record", self.recordings.setdefault(name, [])

    def replay(self, name: str) -> None:
        with self._lock:
            self.mode, self._unused = "replay", list(self.recordings[name])

    def leftover(self) -> int:
        return len(self._unused)

    def _params(self, params: dict, model, **_kwargs) -> None:
        if self.mode == "record":
            self._pending.params = (model.service_model.service_name, model.name, dict(params))

    def _before_send(self, event_name: str, request, **_kwargs):
        if self.mode == "record":
            service, operation, params = self._pending.params
            self._pending.call = RecordedCall(service, operation, params, _body(request))
            return None
        if self.mode != "replay":
            return None
        from botocore.awsrequest import AWSResponse

        operation = event_name.split(".")[-1]
        body = _body(request)
        with self._lock:
            same_operation = [c for c in self._unused if c.operation == operation]
            if not same_operation:
                raise RuntimeError(f"warm cost replay: {event_name} is not in the recording")
            call = next((c for c in same_operation if c.body == body), same_operation[0])
            self._unused.remove(call)
            self.calls_answered += 1
        return AWSResponse(request.url, call.status, dict(call.headers), _RawBody(call.content))

    def _after_call(self, http_response, **_kwargs) -> None:
        if self.mode != "record":
            return
        call = self._pending.call
        call.status, call.headers, call.content = (
            http_response.status_code,
            dict(http_response.headers),
            http_response.content,
        )
        with self._lock:
            self._current.append(call)


def _body(request) -> bytes:
    body = request.body
    if body is None:
        return b""
    return body if isinstance(body, bytes) else body.encode() if isinstance(body, str) else b"<stream>"


@dataclass
class Scenario:
    name: str
    method: str
    path: str
    token: str
    payload: dict | None
    status: int


def scenarios(data) -> tuple[list[Scenario], list[Scenario]]:
    """The measured requests, and their warm-up twins (another event, so the measured accept is a first accept)."""
    big, spare = data.big_event_id, data.spare_event_ids[0]
    create = {"title": "Dinner", "event_date": "2031-01-01T18:00:00Z", "invite_phone_numbers": data.numbers[:3]}

    def four(event_id: int) -> list[Scenario]:
        return [
            Scenario("GET /events/{id}", "GET", f"/events/{event_id}", data.guest_token, None, 200),
            Scenario("POST /events/{id}/accept", "POST", f"/events/{event_id}/accept", data.guest_token, {}, 200),
            Scenario("POST /events (3 invitees)", "POST", "/events", data.owner_token, create, 201),
            Scenario(
                "POST /events/{id}/messages",
                "POST",
                f"/events/{event_id}/messages",
                data.guest_token,
                {"body": "See you at eight"},
                201,
            ),
        ]

    return four(big), four(spare)


def _send(client, scenario: Scenario):
    body = json.dumps(scenario.payload).encode() if scenario.payload is not None else None
    headers = {"Authorization": f"Bearer {scenario.token}"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    return client.http.request(scenario.method, scenario.path, body=body, headers=headers)


def minimal_app(tape: AwsTape, measured: list[Scenario]):
    """A Chalice app whose view for each scenario makes exactly the recorded calls, one boto3 client per service."""
    import boto3
    from chalice import Chalice

    minimal = Chalice(app_name="warm-cost-minimal")
    session = boto3.session.Session(region_name=REGION)
    clients: dict[str, object] = {}

    def client_for(service: str):
        if service not in clients:
            clients[service] = session.client(service)
        return clients[service]

    def method_for(service: str, operation: str) -> Callable:
        """The client's method of ``operation`` (``"BatchGetItem"`` -> ``batch_get_item``)."""
        client = client_for(service)
        names = {api: method for method, api in client.meta.method_to_api_mapping.items()}
        return getattr(client, names[operation])

    def view_for(name: str) -> Callable:
        # resolved once, before any request: the view makes its calls and nothing more
        plan = [(method_for(c.service, c.operation), c.params) for c in tape.recordings[name]]

        def view(**_path):
            for method, params in plan:
                method(**params)
            return {"ok": True}

        return view

    for n, scenario in enumerate(measured):
        route = "/" + "/".join(
            f"{{p{i}}}" if part.isdigit() else part for i, part in enumerate(scenario.path.strip("/").split("/"))
        )
        minimal.route(route, methods=[scenario.method], name=f"view{n}")(view_for(scenario.name))
    return minimal


def _cpu_per_request(client, scenario: Scenario, tape: AwsTape, requests: int) -> float:
    started = time.process_time()
    for _ in range(requests):
        tape.replay(scenario.name)
        response = _send(client, scenario)
        if response.status_code >= 300 or tape.leftover():
            raise SystemExit(f"warm cost: {scenario.name} gave {response.status_code} {response.body[:300]!r}")
    return (time.process_time() - started) * 1000 / requests


def warm_cost(blocks: int = 7, requests: int = 60, profile: bool = False) -> dict:
    """CPU milliseconds per request for the app and the minimal handler, per scenario, and their ratio."""
    from moto import mock_aws

    tape = AwsTape()
    tape.install()
    from scripts.bench import SMOKE, build_data_set

    with mock_aws():
        create_resources()
        import boto3

        queue = boto3.client("sqs", region_name=REGION).create_queue(QueueName="warm-cost-notifications")
        os.environ["NOTIFICATIONS_QUEUE_URL"] = queue["QueueUrl"]
        from chalice.test import Client

        from chalicelib.config import get_settings

        get_settings.cache_clear()
        import app as application

        data = build_data_set(SMOKE)
        measured, warm_up = scenarios(data)
        with Client(application.app) as client:
            for scenario in warm_up:
                _send(client, scenario)
            for scenario in measured:
                tape.record(scenario.name)
                response = _send(client, scenario)
                tape.mode = "off"
                if response.status_code != scenario.status:
                    raise SystemExit(f"warm cost: {scenario.name} gave {response.status_code} {response.body[:300]!r}")

    results = {}
    minimal = minimal_app(tape, measured)
    with Client(application.app) as app_client, Client(minimal) as minimal_client:
        for scenario in measured:
            for client in (app_client, minimal_client):  # warm: clients made, first-use caches filled
                _cpu_per_request(client, scenario, tape, 3)
            app_ms, minimal_ms = [], []
            for _ in range(blocks):
                app_ms.append(_cpu_per_request(app_client, scenario, tape, requests))
                minimal_ms.append(_cpu_per_request(minimal_client, scenario, tape, requests))
            app_median, minimal_median = statistics.median(app_ms), statistics.median(minimal_ms)
            results[scenario.name] = {
                "aws_calls": [f"{c.service}.{c.operation}" for c in tape.recordings[scenario.name]],
                "app_cpu_ms": round(app_median, 3),
                "minimal_cpu_ms": round(minimal_median, 3),
                "ratio": round(app_median / minimal_median, 2),
            }
        if profile:
            results["profile"] = _profile(app_client, measured, tape, requests)
    tape.mode = "off"
    return results


def _profile(client, measured: list[Scenario], tape: AwsTape, requests: int) -> list[str]:
    """Per scenario: its share of CPU in botocore, PynamoDB, Chalice and the app's own code, then the 12 functions
    with the most own CPU time over ``requests`` requests."""
    lines = []
    for scenario in measured:
        profiler = cProfile.Profile()
        profiler.enable()
        _cpu_per_request(client, scenario, tape, requests)
        profiler.disable()
        stats = pstats.Stats(profiler)
        total = sum(row[2] for row in stats.stats.values()) or 1.0
        shares: dict[str, float] = {}
        for (filename, _line, _name), row in stats.stats.items():
            shares[_layer(filename)] = shares.get(_layer(filename), 0.0) + row[2]
        lines.append(
            f"== {scenario.name}: "
            + ", ".join(
                f"{layer} {100 * own / total:.0f} %" for layer, own in sorted(shares.items(), key=lambda kv: -kv[1])
            )
        )
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(12)
        lines += [line for line in out.getvalue().splitlines() if line.strip() and "/" in line]
    return lines


def _layer(filename: str) -> str:
    """Which layer a profiled function belongs to (by its file)."""
    for marker, layer in (
        ("/botocore/", "botocore"),
        ("/urllib3/", "botocore"),
        ("/pynamodb/", "pynamodb"),
        ("/chalice/", "chalice"),
        ("/chalicelib/", "app"),
        ("/warm_cost.py", "bench"),
    ):
        if marker in filename:
            return layer
    return "python"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=7)
    parser.add_argument("--requests", type=int, default=60)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON line (for bench.py)")
    args = parser.parse_args(argv)
    use_test_environment()
    from scripts.bench import BENCH_LIMITS

    os.environ.update(BENCH_LIMITS)
    # the app's request log lines still get formatted and written, as in Lambda, but not to a terminal
    with open(os.devnull, "w") as devnull, contextlib.redirect_stdout(devnull):
        results = warm_cost(args.blocks, args.requests, args.profile)
    if args.json:
        print(json.dumps(results))
        return 0
    for line in results.pop("profile", []):
        print(line)
    for name, figures in results.items():
        print(
            f"{name:32} app {figures['app_cpu_ms']:7.2f} ms  minimal {figures['minimal_cpu_ms']:7.2f} ms  "
            f"ratio {figures['ratio']:5.2f}  ({len(figures['aws_calls'])} AWS calls)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
