"""Schemathesis over every operation of openapi.yaml (as the stack serves it, /openapi.json) and of
openapi-pages.yaml (the HTML pages and the docs), against the live local stack with a logged-in token.

Checks: every check schemathesis has (no 5xx, every status documented, every body conforming to its schema,
documented content types and headers, schema-violating requests refused, methods and auth...), less the ones
``EXCLUDED_CHECKS`` lists with the reason each is left out. Deterministic generation (CI sees the same
cases every run), no shrinking, a cap on examples per operation; the coverage phase (boundary and invalid
values of every field) and the fuzzing phase of the API run as two processes side by side, the few pages
as a third; the whole test stays near two minutes.
What they found is pinned down in-process, where it was fixed: tests/api/test_events_input_limits.py ("extreme values").
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.fakes.graph_server import FakeGraph
from tests.utils.live_stack import HTTP_TIMEOUT_SECONDS, LocalStack

ROOT = Path(__file__).resolve().parents[2]
CONFIG = Path(__file__).resolve().parent / "schemathesis.toml"
PAGES = ROOT / "openapi-pages.yaml"
# Every check schemathesis has, less the ones below, each left out for the reason given: the one list of what
# the contract fuzz allows (tests/contract/schemathesis.toml names the methods its coverage phase sends).
EXCLUDED_CHECKS: dict[str, str] = {
    "positive_data_acceptance": (
        "a body or query the schema allows may still break a rule no JSON Schema states, and gets its 400 keyed "
        "by field, as each operation documents: a phone number must parse and take texts, a pin must be the one "
        "texted, a date must fall in the years served, a text must not be blank once trimmed, a poll must not "
        "repeat, a name must show something; schemathesis also adds unknown fields under names the service "
        "refuses (NUL, lone surrogates) while it ignores the others"
    ),
}
CHECKS = "all"
MAX_EXAMPLES = int(os.environ.get("CONTRACT_MAX_EXAMPLES", "15"))  # per operation, in the fuzzing phase
RUN_TIMEOUT_SECONDS = 420
CALLER, FRIEND, STRANGER = "+14155550140", "+14155550141", "+14155550142"
LEAVER = "+14155550143"  # the account DELETE /users/me may delete


def prepare(stack: LocalStack) -> dict:
    """People and events for the hooks (schemathesis_hooks.py): the caller owns some, is invited to some."""
    caller = stack.login(CALLER, full_name="Contract Caller")
    logout = stack.login(CALLER)  # a second device's token, for /auth/logout to revoke
    friend = stack.login(FRIEND, full_name="Contract Friend")
    leaver = stack.login(LEAVER, full_name="Contract Leaver")
    token, friend_token = caller["auth_token"], friend["auth_token"]

    def create(owner_token: str, title: str, invite: list[str], **extra) -> dict:
        body = {"title": title, "event_date": "2031-05-01T18:00:00Z", "invite_phone_numbers": invite, **extra}
        response = stack.call("POST", "/events", owner_token, body)
        assert response.status_code == 201, response.text
        return response.json()

    owned = create(token, "Owned", [FRIEND], total_spots=5, location={"latitude": 48.85, "longitude": 2.35})
    disposable = create(token, "Disposable", [FRIEND])
    invited = create(friend_token, "Invited", [CALLER])
    invited_full = create(friend_token, "Invited, full", [CALLER, STRANGER], total_spots=1)
    assert stack.call("PATCH", f"/events/{invited_full['id']}", friend_token, {"spot_filled": 1}).ok
    assert stack.call("POST", f"/events/{owned['id']}/messages", friend_token, {"body": "hello"}).ok
    poll = {"suggested_date": "2031-05-02T18:00:00Z", "suggested_venue": "Park"}
    assert stack.call("POST", f"/events/{owned['id']}/polls", friend_token, poll).ok
    plan = {"title": "Plan", "time_zone": "UTC", "options": ["2031-05-01T18:00:00Z", "2031-05-02T18:00:00Z"]}
    plans = [
        stack.call("POST", "/plans", owner_token, {**plan, "invite_phone_numbers": [invitee]}).json()["id"]
        for owner_token, invitee in ((token, FRIEND), (friend_token, CALLER), (token, FRIEND))
    ]
    mine = next(inv["id"] for inv in invited["invitees"] if inv["phone_number"] == CALLER)
    others = next(inv["id"] for inv in owned["invitees"] if inv["phone_number"] == FRIEND)
    return {
        "token": token,
        "logout_token": logout["auth_token"],
        "deletable_token": leaver["auth_token"],
        "owned": [owned["id"]],
        "invited": [invited["id"], invited_full["id"]],
        "disposable": [disposable["id"]],
        "invitation_ids": [mine, others],
        "plans_owned": plans[:1],
        "plans_invited": plans[1:2],
        "plans_disposable": plans[2:],
    }


def schemathesis_command(api: str, *phase_options: str, document: str | None = None) -> list[str]:
    return [
        str(Path(sys.executable).parent / "schemathesis"),
        "--config-file",
        str(CONFIG),
        "run",
        document or f"{api}/openapi.json",
        "--url",
        api,
        "--checks",
        CHECKS,
        *(["--exclude-checks", ",".join(EXCLUDED_CHECKS)] if EXCLUDED_CHECKS else []),
        "--mode",
        "all",
        "--generation-deterministic",
        "--no-shrink",
        "--suppress-health-check",
        "all",
        "--request-timeout",
        str(HTTP_TIMEOUT_SECONDS),
        "--workers",
        "1",  # threads in one process: Hypothesis is not thread-safe enough; processes run side by side instead
        "--warnings",
        "off",
        "--no-color",
        "--output-truncate",
        "false",
        *phase_options,
    ]


def run(command: list[str], env: dict[str, str]) -> tuple[int, str, float]:
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as workdir:  # schemathesis keeps a cache folder in its working directory
        result = subprocess.run(
            command, cwd=workdir, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_SECONDS, check=False
        )
    return result.returncode, result.stdout + result.stderr, time.monotonic() - started


@pytest.mark.e2e
def test_every_operation_conforms_to_the_document():
    with FakeGraph() as graph, LocalStack(FB_GRAPH_URL=graph.url, FB_GRAPH_TIMEOUT_SECONDS="2") as stack:
        graph.add_user(token="contract-fb-token", id="5001", name="Contract Caller", friends=[("5002", "Pal")])
        env = {
            **os.environ,
            "SCHEMATHESIS_HOOKS": "tests.contract.schemathesis_hooks",
            "CONTRACT_FIXTURES": json.dumps(prepare(stack)),
            "PYTHONPATH": str(ROOT),
            "NO_COLOR": "1",
        }
        runs = {
            "examples and coverage": schemathesis_command(stack.api, "--phases", "examples,coverage"),
            "fuzzing": schemathesis_command(
                stack.api, "--phases", "fuzzing", "--max-examples", str(MAX_EXAMPLES), "--seed", "20240801"
            ),
            "pages": schemathesis_command(
                stack.api, "--max-examples", str(MAX_EXAMPLES), "--seed", "20240801", document=str(PAGES)
            ),
        }
        with ThreadPoolExecutor(len(runs)) as pool:
            results = dict(zip(runs, pool.map(lambda command: run(command, env), runs.values()), strict=True))
        failed = {name: result for name, result in results.items() if result[0] != 0}
        report = "\n\n".join(
            f"=== schemathesis {name}: exit {code} after {seconds:.0f} s ===\n{output}"
            for name, (code, output, seconds) in failed.items()
        )
        assert not failed, report + "\n=== service console (end) ===\n" + stack.console[-20000:]
        assert "Traceback" not in stack.console, stack.console
