"""Clients generated from openapi.yaml, as the mobile and web teams generate theirs (docs/api.md, "Quickest start").

- openapi-python-client (pinned in requirements-dev.txt, its settings in tools/contract/python-client) processes
  the document with no warning and no dropped schema, and names every model for what it is; the package it
  generates passes `mypy --strict` together with tests/contract/client_scenario.py, the whole flow of an app
  written only against it, which runs against the live local stack with every answer checked twice: parsed
  into the generated model classes, and validated against the document's schema for its operation and status
  (so an extra or missing field, a wrong type or an undocumented status fails, even where the generated
  parser would be lenient).
- openapi-typescript and openapi-fetch (tools/contract, installed by `make install`): the types compile under
  `tsc --noEmit` in strict mode, with tests/contract/client_scenario.ts, the same flow with openapi-fetch.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.utils.live_stack import ROOT, LocalStack

DOCUMENT_PATH = ROOT / "openapi.yaml"
CONTRACT_TOOLS = ROOT / "tools" / "contract"
NODE_TOOLS = CONTRACT_TOOLS / "node_modules" / ".bin"
GENERATOR_CONFIG = CONTRACT_TOOLS / "python-client" / "config.yaml"
SCENARIO = Path(__file__).resolve().parent / "client_scenario.py"
SCENARIO_TS = Path(__file__).resolve().parent / "client_scenario.ts"
PACKAGE = "invites_client"
GENERATOR_TIMEOUT_SECONDS = 120
MYPY_TIMEOUT_SECONDS = 300
WARNING_WORDS = re.compile(r"warning|unable|error|removal|skipp", re.IGNORECASE)
# Names a generator makes up when a schema has none: by position in a oneOf/anyOf, or after an operation.
POSITIONAL_NAME = re.compile(r"_type_?\d+$|_body$|_response_\d{3}$|^(get|post|put|patch|delete)_")


@pytest.fixture(scope="module")
def document() -> dict:
    return yaml.safe_load(DOCUMENT_PATH.read_text(encoding="utf-8"))


def run(
    command: list[str], cwd: Path, timeout: int = GENERATOR_TIMEOUT_SECONDS, **env: str
) -> subprocess.CompletedProcess:
    return subprocess.run(
        command,
        cwd=cwd,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


# --- Python ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def python_client(tmp_path_factory):
    """The package openapi-python-client generates, importable; and what the generator printed."""
    where = tmp_path_factory.mktemp("python-client")
    bin_dir = Path(sys.executable).parent  # its post-hooks run ruff, which lives next to this Python
    result = run(
        [
            str(bin_dir / "openapi-python-client"),
            "generate",
            "--path",
            str(DOCUMENT_PATH),
            "--config",
            str(GENERATOR_CONFIG),
            "--meta",
            "none",
            "--output-path",
            str(where / PACKAGE),
        ],
        cwd=where,
        PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    sys.path.insert(0, str(where))
    try:
        importlib.invalidate_caches()
        yield result, where / PACKAGE
    finally:
        sys.path.remove(str(where))
        generated = (PACKAGE, "tests.contract.client_scenario")
        for name in [name for name in sys.modules if name.startswith(generated)]:
            del sys.modules[name]


def test_openapi_python_client_processes_the_document_without_a_warning(python_client, document):
    result, package = python_client
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert not WARNING_WORDS.search(output), output
    # No schema dropped: every named object schema became a model module.
    models = {path.stem for path in (package / "models").glob("*.py")} - {"__init__"}
    for name, schema in document["components"]["schemas"].items():
        if schema.get("type") == "object" or "allOf" in schema:
            assert snake(name) in models, f"{name} has no model"
    # ...and no model is named for its position or its operation: each is a schema of the document.
    assert sorted(name for name in models if POSITIONAL_NAME.search(name)) == []
    assert models <= {snake(name) for name in document["components"]["schemas"]}
    # Calls for the API's tags only: no page for people (openapi-pages.yaml) becomes a call.
    tags = {path.name for path in (package / "api").iterdir() if path.is_dir() and path.name != "__pycache__"}
    pages = yaml.safe_load((ROOT / "openapi-pages.yaml").read_text(encoding="utf-8"))
    assert tags == {tag["name"] for tag in document["tags"]}, tags
    assert tags.isdisjoint(tag["name"] for tag in pages["tags"]), tags
    # The owner's "true" is typed: a named enum next to bool and None.
    invitee = (package / "models" / "invitee.py").read_text()
    assert "is_attending: bool | None | OwnerAttending" in invitee, invitee


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def mypy(where: Path, *files: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(where / ".mypy_cache"), *files]
    return run(command, cwd=where, timeout=MYPY_TIMEOUT_SECONDS, MYPYPATH=str(where))


def test_the_package_and_the_scenario_pass_mypy_strict(python_client):
    """And a call that needs a token does not type-check with a client that has none."""
    result, package = python_client
    assert result.returncode == 0, result.stdout + result.stderr
    where = package.parent
    (where / "client_scenario.py").write_text(SCENARIO.read_text())
    checked = mypy(where, PACKAGE, "client_scenario.py")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "Success: no issues found" in checked.stdout, checked.stdout

    (where / "no_token.py").write_text(
        f"from {PACKAGE} import Client\n"
        f"from {PACKAGE}.api.events import get_event\n\n"
        'get_event.sync(1, client=Client(base_url="http://127.0.0.1"))\n'
    )
    refused = mypy(where, "no_token.py")
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert 'incompatible type "Client"; expected "AuthenticatedClient"' in refused.stdout, refused.stdout


class Conformance:
    """An httpx response hook: each answer's status and body must be the document's for its operation."""

    def __init__(self, document: dict):
        from openapi_schema_validator import OAS31Validator

        self.document = document
        self.validator_class = OAS31Validator
        self.checked: list[str] = []
        # Literal paths before templated ones, so /events/timeline is not taken for /events/{event_id}.
        self.routes = sorted(
            (
                (re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + "$"), path)
                for path in document["paths"]
            ),
            key=lambda route: route[1].count("{"),
        )

    def operation(self, method: str, path: str) -> tuple[str, dict]:
        for pattern, template in self.routes:
            if pattern.match(path):
                item = self.document["paths"][template]
                assert method.lower() in item, f"{method} {template} is not documented"
                return template, item[method.lower()]
        raise AssertionError(f"{method} {path} matches no documented path")

    def response_spec(self, operation: dict, status: int) -> dict:
        responses = operation["responses"]
        spec = responses.get(str(status)) or responses.get(f"{str(status)[0]}XX") or responses.get("default")
        assert spec is not None, f"status {status} is not documented"
        while "$ref" in spec:
            spec = self.document["components"]["responses"][spec["$ref"].rsplit("/", 1)[-1]]
        return spec

    def __call__(self, response) -> None:
        response.read()
        method, path = response.request.method, response.request.url.path
        template, operation = self.operation(method, path)
        where = f"{method} {template} -> {response.status_code}"
        spec = self.response_spec(operation, response.status_code)
        content = spec.get("content")
        if not content:
            assert response.content == b"", f"{where}: a body where none is documented"
            assert "content-type" not in response.headers, f"{where}: {response.headers}"
        else:
            media_type = response.headers.get("content-type", "").split(";")[0]
            assert media_type in content, f"{where}: Content-Type {media_type!r}, documented {list(content)}"
            schema = content[media_type].get("schema")
            if schema is not None and media_type == "application/json":
                body = json.loads(response.content)
                validator = self.validator_class({**schema, "components": self.document["components"]})
                errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(body)]
                assert not errors, f"{where}: {errors}\n{json.dumps(body, indent=1)[:3000]}"
        self.checked.append(where)


@pytest.mark.e2e
def test_the_scenario_runs_on_the_local_stack_and_every_answer_is_the_documents(python_client, document):
    """tests/contract/client_scenario.py, the flow of docs/api.md, with the pins the stack's emulator keeps;
    the event allows 2 messages, so the third comes back typed as MessageLimitReached; the guest exports
    their data and deletes the account at the end."""
    result, _ = python_client
    assert result.returncode == 0, result.stdout + result.stderr
    scenario = importlib.import_module("tests.contract.client_scenario")
    models = importlib.import_module(f"{PACKAGE}.models")
    conformance = Conformance(document)
    phones = ("+14155550141", "+14155550142", "+14155550143")
    with LocalStack(MESSAGES_PER_EVENT="2") as stack:
        outcome = scenario.run(
            stack.api, stack.last_pin, phones=phones, httpx_args={"event_hooks": {"response": [conformance]}}
        )
    assert isinstance(outcome.event, models.EventDetail) and outcome.event.title == "Dinner at ours"
    assert [invitee.phone_number for invitee in outcome.event.invitees] == list(phones)
    assert outcome.messages_stored == 2
    assert isinstance(outcome.limit_reached, models.MessageLimitReached), outcome.limit_reached
    assert outcome.limit_reached.error is True and outcome.limit_reached.number_messages == 2
    assert outcome.export.status == models.ExportState.READY and outcome.export.url, outcome.export
    statuses = {where.rsplit(" ", 1)[-1] for where in conformance.checked}
    assert {"200", "201", "202", "204", "400", "401", "404", "409"} <= statuses, conformance.checked
    assert len(conformance.checked) >= 20, conformance.checked


# --- TypeScript --------------------------------------------------------------------------------------

USAGE_TS = """\
import type { components, paths } from "./invites";

type Invitee = components["schemas"]["Invitee"];
type EventDetail = paths["/events/{event_id}"]["get"]["responses"][200]["content"]["application/json"];

// The v1 quirk: the owner's "true" is a string; new code reads all three forms as one boolean.
export function attending(invitee: Invitee): boolean | null {
  return invitee.is_attending === "true" ? true : invitee.is_attending;
}

export function owner(event: EventDetail): Invitee | undefined {
  return event.invitees.find((invitee) => invitee.is_owner);
}

// Fields a representation always has are required in its type, not optional (allOf with the base).
export function bearer(user: components["schemas"]["UserWithToken"]): string {
  const token: string = user.auth_token;
  return `Bearer ${token}`;
}
export function notified(me: components["schemas"]["UserMe"]): boolean {
  const flag: boolean = me.notify_event_change;
  return flag;
}
export function seen(invitee: components["schemas"]["InviteeDetail"]): boolean {
  const flag: boolean = invitee.has_seen;
  return flag;
}
export function faded(invitee: components["schemas"]["InviteeTimeline"]): components["schemas"]["Url"] {
  const photo: components["schemas"]["Url"] = invitee.faded_photo;
  return photo;
}

const ownerAnswer: Invitee["is_attending"] = "true";
const guestAnswers: Invitee["is_attending"][] = [true, false, null, ownerAnswer];
export const counted = guestAnswers.length;
"""

TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "noEmit": True,
        "target": "ES2022",
        "module": "ESNext",
        "moduleResolution": "Bundler",
        "noUncheckedIndexedAccess": True,
        "exactOptionalPropertyTypes": True,
        "skipLibCheck": False,
        "types": [],
    },
    "files": ["invites.d.ts", "usage.ts", "client_scenario.ts"],
}


def test_openapi_typescript_types_and_the_openapi_fetch_scenario_compile_under_tsc(tmp_path):
    generator, tsc = NODE_TOOLS / "openapi-typescript", NODE_TOOLS / "tsc"
    assert generator.exists() and tsc.exists(), "tools/contract/node_modules is missing: run `make install`"
    generated = run([str(generator), str(DOCUMENT_PATH), "--output", str(tmp_path / "invites.d.ts")], cwd=tmp_path)
    output = generated.stdout + generated.stderr
    assert generated.returncode == 0, output
    assert not re.search(r"warn|error|⚠", output, re.IGNORECASE), output
    types = (tmp_path / "invites.d.ts").read_text()
    assert 'is_attending: boolean | components["schemas"]["OwnerAttending"] | null;' in types, types[:2000]
    (tmp_path / "usage.ts").write_text(USAGE_TS)
    (tmp_path / "client_scenario.ts").write_text(SCENARIO_TS.read_text())
    (tmp_path / "node_modules").symlink_to(CONTRACT_TOOLS / "node_modules")  # openapi-fetch, for the scenario
    (tmp_path / "tsconfig.json").write_text(json.dumps(TSCONFIG))
    compiled = run([str(tsc), "--project", str(tmp_path / "tsconfig.json")], cwd=tmp_path)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
