"""AWS's own faults, generated from botocore's service models: every AWS operation the service calls answers
each error its model lists for it (and the throttles AWS documents beside them), and the request that reached
it answers a 503 with Retry-After having written nothing, or a 4xx its route documents, or succeeds without
it: never a 500.

How the operations are found: the walk below (every route with an event id from the roles table as the role
that acts, and the routes, pages and jobs without one that reach an operation the others do not) runs once
with a recording hook on the wire (tests/utils/aws_faults.py); each operation seen is an
``(operation, request)`` pair with the first request that reached it. The walk runs each request as the Lambda
function that serves it under that function's deployed IAM policy (tests/utils/iam.py): a guard test holds
every call it makes allowed. The jobs' own calls (the queue's worker, the hourly schedule, the inbound texts,
the photo processing) have their matrix in tests/jobs/test_job_fault_matrix.py.

Each fault is then injected on the wire into every call of its operation during its request (botocore parses
it and retries it as against AWS, without the pauses), on a fresh emulator.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from tests.api.test_lost_answers import SETUP, _acting_role
from tests.api.test_roles_over_http import ROUTES, _cast, _prepared
from tests.utils.api import asking_a_pin, post_json, verifying_a_pin
from tests.utils.avatars import multipart
from tests.utils.aws_env import fresh_world
from tests.utils.aws_faults import always, modelled_errors, on_the_wire
from tests.utils.effects import difference, stored_effects
from tests.utils.factories import make_event, make_person, phone
from tests.utils.iam import IamEnforcer
from tests.utils.images import jpeg
from tests.utils.notifications import drain, use_queue
from tests.utils.pin_key import KEY, put_pin_key, put_stop_list_key
from tests.utils.web import link_texted_to, page

ROOT = Path(__file__).resolve().parents[2]
DEVICE = "b2" * 32


@dataclass(frozen=True)
class Step:
    """One request of the walk: ``prepare(client)`` builds its world and returns the request to make."""

    method: str
    path: str  # the route's template, as the contract documents it
    prepare: Callable
    function: str = "api_handler"  # the Lambda function that serves it (.chalice/config.json)


def _event_route_step(route) -> Step:
    def prepare(client):
        role = _acting_role(route)
        cast = _cast(route)
        SETUP.get(route.name, lambda cast: None)(cast)
        method, path, payload, headers = _prepared(route, role, cast)
        return lambda: client.http.request(method, path, body=payload, headers=headers)

    return Step(route.method, route.path, prepare)


def _authed(method: str, path: str, payload=None, multipart_body: bytes | None = None):
    def prepare(client):
        person = make_person("Pat Person")
        headers = {"Authorization": f"Bearer {person.token}"}
        data = b""
        if multipart_body is not None:
            data, part_headers = multipart(multipart_body)
            headers.update(part_headers)
        elif payload is not None:
            data = json.dumps(payload(person) if callable(payload) else payload).encode()
            headers["Content-Type"] = "application/json"
        return lambda: client.http.request(method, path, body=data, headers=headers)

    return Step(method, path, prepare)



def _guest_page(client):
    owner, number = make_person("Olive Owner"), phone()
    fields = {"title": "Picnic", "event_date": "2030-06-01T18:30:00Z", "invite_phone_numbers": [number]}
    assert post_json(client, "/events", fields, owner.token).status_code == 201
    path = link_texted_to(number)
    return lambda: page(client, path)


def _remove_device(client):
    person = make_person("Pat Person")
    assert post_json(client, "/notifications/add_ios_device", {"token": DEVICE}, person.token).status_code < 300
    return lambda: post_json(client, "/notifications/remove_ios_device", {"token": DEVICE}, person.token)


def _person_calendar(client):
    """An owner's live calendar, with an event they host and one they were invited to, opened by its link."""
    owner, friend = make_person("Olive Owner"), make_person("Fay Friend")
    make_event(owner, friend)
    make_event(friend, owner)
    made = client.http.post("/users/me/calendar_feed", headers={"Authorization": f"Bearer {owner.token}"})
    assert made.status_code == 200, made.body
    path = re.sub(r"^https?://[^/]+", "", made.json_body["url"])
    return lambda: client.http.get(path)


def _series_calendar(client):
    """The live calendar of a series, opened from the page link texted to one of its guests."""
    owner, number = make_person("Olive Owner"), phone()
    fields = {**NEW_EVENT, "repeat": {"freq": "weekly", "count": 3}, "invite_phone_numbers": [number]}
    assert post_json(client, "/events", fields, owner.token).status_code == 201
    path = link_texted_to(number)
    return lambda: page(client, f"{path}/calendar.ics")


NEW_EVENT = {"title": "Picnic", "event_date": "2030-06-01T18:30:00Z"}
WALK = [_event_route_step(route) for route in ROUTES] + [
    Step("POST", "/auth", asking_a_pin),
    Step("POST", "/auth/verify_pin", verifying_a_pin),
    _authed("POST", "/events", lambda person: {**NEW_EVENT, "invite_phone_numbers": [phone()]}),
    _authed("PATCH", "/users/me", {"full_name": "New Name"}),
    _authed("POST", "/users/change_avatar", multipart_body=jpeg()),
    _authed("POST", "/notifications/add_ios_device", {"token": DEVICE}),
    Step("POST", "/notifications/remove_ios_device", _remove_device),
    _authed("POST", "/users/me/export"),
    Step("GET", "/i/{code}", _guest_page),
    _authed("POST", "/users/me/calendar_feed"),
    Step("GET", "/c/{feed}", _person_calendar),
    Step("GET", "/i/{code}/calendar.ics", _series_calendar),
]


def _documented_statuses(method: str, path: str) -> set[int]:
    statuses = set()
    for document in ("openapi.yaml", "openapi-pages.yaml"):
        paths = yaml.safe_load((ROOT / document).read_text())["paths"]
        shape = path.replace("{guest_id}", "{user_id}").replace("{cohost_id}", "{user_id}")
        shape = shape.replace("{caller_id}", "{user_id}").replace("{asker_id}", "{user_id}")
        shape = shape.replace("{offline_id}", "{guest_id}")
        operation = (paths.get(shape) or {}).get(method.lower()) or {}
        statuses |= {int(code) for code in operation.get("responses", {}) if str(code).isdigit()}
    return statuses


def _new_world():
    from chalicelib import pinkey

    fresh_world()
    put_pin_key(KEY)
    put_stop_list_key()
    pinkey.forget()


def _recording(seen: list):
    def rule(service: str, operation: str, body: bytes):
        if (service, operation) not in seen:
            seen.append((service, operation))
        return None

    return rule


def discover(client, walk: list, enforcer: IamEnforcer | None = None) -> dict[tuple[str, str], object]:
    """Each operation the steps of ``walk`` reach, with the first step that reached it; with ``enforcer``
    each step's request runs as its function, under its policy."""
    first: dict[tuple[str, str], object] = {}
    for step in walk:
        _new_world()
        request = step.prepare(client)
        seen: list = []
        with enforcer.runs_as(step.function) if enforcer else nullcontext(), on_the_wire(_recording(seen)):
            try:
                request()
            except Exception:  # noqa: BLE001 - a job that failed (a refusal, say) reached what it reached
                pass
        for operation in seen:
            first.setdefault(operation, step)
    return first


def refused_by_iam(client, walk: list, enforcer: IamEnforcer | None = None) -> tuple[dict, list[str]]:
    """The operations ``walk`` reaches, and each call its function's policy refused."""
    enforcer = enforcer or IamEnforcer()
    enforcer.install()
    try:
        operations = discover(client, walk, enforcer)
    finally:
        enforcer.uninstall()
    refused = sorted({f"{d.function} {d.call}: {d.request.action} on {d.request.resource}" for d in enforcer.denied()})
    return operations, refused


def _queued(step: Step, enforcer: IamEnforcer, override_settings) -> Step:
    """``step`` as a deployed stage runs it: what it queues is handed to the queue's worker, as that function."""

    def prepare(client):
        url = use_queue(override_settings)
        request = step.prepare(client)

        def run():
            response = request()
            for _ in range(5):  # the worker's follow-ups, in turn
                bodies = drain(url)
                if not bodies:
                    break
                batch = client.events.generate_sqs_event(bodies, queue_name="q")
                with enforcer.runs_as("send_notifications"):
                    client.lambda_.invoke("send_notifications", batch)
            return response

        return run

    return Step(step.method, step.path, prepare, step.function)


def test_every_operation_the_walk_reaches_is_allowed_by_the_policy_of_the_function_that_calls_it(
    client, deployed, override_settings
):
    enforcer = IamEnforcer()
    walk = [_queued(step, enforcer, override_settings) for step in WALK]
    operations, refused = refused_by_iam(client, walk, enforcer)
    assert len(operations) >= 14
    assert refused == []


# What a request may leave behind before a fault ends it in a 503, because its retry uses it as it is: the
# accounts (not active) made for invited numbers before the event changes, the devices already removed by a
# removal (the retry removes the rest), and a rate log whose charge was taken back (its total is compared).
CONVERGING = {
    ("test-auth", "RATELOG", ""),
    ("test-users", "USER", "PROFILE"),
    ("test-users", "PHONE", "PHONE"),
    ("test-users", "USER", "DEVICE"),
}


def _verdict(step: Step, fault, response, written: dict) -> str | None:
    status = response.status_code
    where = f"{step.method} {step.path} with {fault.service}:{fault.operation} {fault.code}"
    if status == 503:
        retry_after = response.headers.get("Retry-After", "")
        if not retry_after.isdigit() or int(retry_after) < 1:
            return f"{where}: 503 without Retry-After"
        half_written = {kind: n for kind, n in written.items() if kind not in CONVERGING}
        if half_written:
            return f"{where}: 503 after writing {half_written}"
        return None
    if status >= 500:
        return f"{where}: {status} {response.body[:200]!r}"
    if status >= 400 and status not in _documented_statuses(step.method, step.path):
        return f"{where}: undocumented {status} {response.body[:200]!r}"
    return None


@pytest.fixture
def deployed(deployed_stage):
    """The pin key and stop-list key in SSM, as a deployed stage reads them."""
    return deployed_stage


def test_every_aws_error_of_every_operation_the_service_calls_is_a_503_or_a_documented_answer(client, deployed):
    operations = discover(client, WALK)
    failures, pairs = [], 0
    for (service, operation), step in operations.items():
        for fault in modelled_errors(service, operation):
            pairs += 1
            _new_world()
            request = step.prepare(client)
            before = stored_effects()
            with on_the_wire(always(service, operation, fault)):
                response = request()
            failure = _verdict(step, fault, response, difference(before, stored_effects()))
            if failure:
                failures.append(failure)
    print(f"fault matrix: {len(operations)} operations, {pairs} (operation, error) pairs")
    assert failures == [], "\n".join(failures)
