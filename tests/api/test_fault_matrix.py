"""AWS's own faults, generated from botocore's service models: every AWS operation the service calls answers
each error its model lists for it (and the throttles AWS documents beside them), and the request that reached
it answers a 503 with Retry-After having written nothing, or a 4xx its route documents, or succeeds without
it: never a 500.

How the operations are found: the walk below (every route with an event id from the roles table as the role
that acts, and the routes, pages and jobs without one that reach an operation the others do not) runs once
with a recording hook on the wire (tests/utils/aws_faults.py); each operation seen is an
``(operation, request)`` pair with the first request that reached it. Not yet done: a guard holding that list
against the IAM policies of the deployed functions (.chalice/policy-*.json); the walk does not reach the jobs'
own calls (SQS, the queued pushes and texts) nor account deletion's batch and S3 deletes.

Each fault is then injected on the wire into every call of its operation during its request (botocore parses
it and retries it as against AWS, without the pauses), on a fresh emulator.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from tests.api.test_lost_answers import SETUP, _acting_role
from tests.api.test_roles_over_http import ROUTES, _cast, _prepared
from tests.utils.api import last_pin, post_json
from tests.utils.avatars import multipart
from tests.utils.aws_env import fresh_world
from tests.utils.aws_faults import always, modelled_errors, on_the_wire
from tests.utils.effects import difference, stored_effects
from tests.utils.factories import make_person, phone
from tests.utils.images import jpeg
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


def _ask_pin(client):
    return lambda: post_json(client, "/auth", {"phone_number": phone()})


def _verify_pin(client):
    number = phone()
    assert post_json(client, "/auth", {"phone_number": number}).status_code == 204
    pin = last_pin(number)
    return lambda: post_json(client, "/auth/verify_pin", {"phone_number": number, "pin": pin})


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


NEW_EVENT = {"title": "Picnic", "event_date": "2030-06-01T18:30:00Z"}
WALK = [_event_route_step(route) for route in ROUTES] + [
    Step("POST", "/auth", _ask_pin),
    Step("POST", "/auth/verify_pin", _verify_pin),
    _authed("POST", "/events", lambda person: {**NEW_EVENT, "invite_phone_numbers": [phone()]}),
    _authed("PATCH", "/users/me", {"full_name": "New Name"}),
    _authed("POST", "/users/change_avatar", multipart_body=jpeg()),
    _authed("POST", "/notifications/add_ios_device", {"token": DEVICE}),
    Step("POST", "/notifications/remove_ios_device", _remove_device),
    _authed("POST", "/users/me/export"),
    Step("GET", "/i/{code}", _guest_page),
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


def _discover(client) -> dict[tuple[str, str], Step]:
    """Each operation the walk reaches, with the first step that reached it."""
    first: dict[tuple[str, str], Step] = {}
    for step in WALK:
        _new_world()
        request = step.prepare(client)
        seen: list = []
        with on_the_wire(_recording(seen)):
            request()
        for operation in seen:
            first.setdefault(operation, step)
    return first


# What a request may leave behind before a fault ends it in a 503, because its retry uses it as it is: the
# accounts (not active) made for invited numbers before the event changes, the devices already removed by a
# removal (the retry removes the rest), and a rate log whose charge was taken back (its total is compared).
CONVERGING = {
    ("test-auth", "RATELOG", ""),
    ("test-users", "USER", "PROFILE"),
    ("test-users", "PHONE", "PHONE"),
    ("test-users", "USER", "DEVICE"),
}


# Known and not yet fixed: inviting more numbers (PATCH with invite_phone_numbers) charges the rolling limits of
# the invitations before the checks and writes that follow, and a fault after its counted edit (the edit's
# re-read) leaves invitee_count raised; the 503 then keeps those. Listed so they stay visible; remove a row
# when it is fixed (the matrix then holds it).
KNOWN_HALF_WRITES = {
    ("PATCH", "/events/{event_id}"): {
        ("test-auth", "RATELOG", "", "total"),
        ("test-events", "EVENT", "META", "invitee_count"),
    }
}


def _verdict(step: Step, fault, response, written: dict) -> str | None:
    status = response.status_code
    where = f"{step.method} {step.path} with {fault.service}:{fault.operation} {fault.code}"
    if status == 503:
        retry_after = response.headers.get("Retry-After", "")
        if not retry_after.isdigit() or int(retry_after) < 1:
            return f"{where}: 503 without Retry-After"
        known = KNOWN_HALF_WRITES.get((step.method, step.path), set())
        half_written = {kind: n for kind, n in written.items() if kind not in CONVERGING and kind not in known}
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
    operations = _discover(client)
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
