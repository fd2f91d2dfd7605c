"""Clients generated from openapi.yaml, as the mobile and web teams generate theirs.

- openapi-python-client (pinned in requirements-dev.txt) processes the document with no warning and
  no dropped schema; the client it generates runs a whole scenario against the live local stack, and
  every answer is checked twice: parsed into the generated model classes, and validated against the
  document's schema for its operation and status (so an extra or missing field, a wrong type or an
  undocumented status fails, even where the generated parser would be lenient).
- openapi-typescript (tools/contract, installed by `make install`) turns it into types that compile
  under `tsc --noEmit` in strict mode, together with code that uses the v1 quirks.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml

from tests.utils.live_stack import HTTP_TIMEOUT_SECONDS, ROOT, LocalStack

DOCUMENT_PATH = ROOT / "openapi.yaml"
NODE_TOOLS = ROOT / "tools" / "contract" / "node_modules" / ".bin"
PACKAGE = "invites_client"
GENERATOR_TIMEOUT_SECONDS = 120
WARNING_WORDS = re.compile(r"warning|unable|error|removal|skipp", re.IGNORECASE)


@pytest.fixture(scope="module")
def document() -> dict:
    return yaml.safe_load(DOCUMENT_PATH.read_text(encoding="utf-8"))


def run(command: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        command,
        cwd=cwd,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=GENERATOR_TIMEOUT_SECONDS,
        check=False,
    )


# --- Python ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def python_client(tmp_path_factory):
    """The package openapi-python-client generates, imported; and what the generator printed."""
    where = tmp_path_factory.mktemp("python-client")
    bin_dir = Path(sys.executable).parent  # its post-hooks run ruff, which lives next to this Python
    result = run(
        [
            str(bin_dir / "openapi-python-client"),
            "generate",
            "--path",
            str(DOCUMENT_PATH),
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
        for name in [name for name in sys.modules if name == PACKAGE or name.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def test_openapi_python_client_processes_the_document_without_a_warning(python_client, document):
    result, package = python_client
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert not WARNING_WORDS.search(output), output
    # No schema dropped: every named object schema became a model module.
    models = {path.stem for path in (package / "models").glob("*.py")}
    for name, schema in document["components"]["schemas"].items():
        if schema.get("type") == "object" or "allOf" in schema:
            assert snake(name) in models, f"{name} has no model"
    # The owner's "true" is typed: a named enum next to bool and None.
    invitee = (package / "models" / "invitee.py").read_text()
    assert "is_attending: bool | None | OwnerAttending" in invitee, invitee


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


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
def test_the_generated_python_client_runs_a_whole_scenario_on_the_local_stack(python_client, document):
    result, _ = python_client
    assert result.returncode == 0, result.stdout + result.stderr
    client_module = importlib.import_module(f"{PACKAGE}.client")
    auth = {
        name: importlib.import_module(f"{PACKAGE}.api.auth.{name}")
        for name in ("request_pin", "verify_pin", "register")
    }
    events = {
        name: importlib.import_module(f"{PACKAGE}.api.events.{name}")
        for name in ("create_event", "list_events", "get_event", "accept_invitation", "reject_invitation")
    }
    conversation = {
        name: importlib.import_module(f"{PACKAGE}.api.conversation.{name}")
        for name in ("post_message", "post_poll", "suggest_time", "list_time_suggestions")
    }
    contacts = {
        name: importlib.import_module(f"{PACKAGE}.api.contacts.{name}")
        for name in ("save_favorites", "list_favorites", "users_from_phone_numbers")
    }
    models = importlib.import_module(f"{PACKAGE}.models")
    errors = importlib.import_module(f"{PACKAGE}.errors")
    conformance = Conformance(document)

    with LocalStack() as stack:

        def client(token: str | None = None):
            options = {
                "base_url": stack.api,
                "raise_on_unexpected_status": True,
                "timeout": HTTP_TIMEOUT_SECONDS,
                "httpx_args": {"event_hooks": {"response": [conformance]}},
            }
            if token is None:
                return client_module.Client(**options)
            return client_module.AuthenticatedClient(token=token, **options)

        def log_in(phone: str, full_name: str):
            """The pin the emulator kept, then register: the User the client parsed, with its token."""
            asked = auth["request_pin"].sync_detailed(client=client(), body=models.PinRequest(phone_number=phone))
            assert asked.status_code == 204 and asked.parsed is None
            user = auth["verify_pin"].sync(
                client=client(), body=models.VerifyPin(phone_number=phone, pin=stack.last_pin(phone))
            )
            assert isinstance(user, models.UserWithToken), user
            assert user.phone_number == phone and user.auth_token.startswith(f"{user.id}.")
            registered = auth["register"].sync(
                client=client(user.auth_token),
                body=models.Register(full_name=full_name, email=f"{full_name.split()[0].lower()}@example.com"),
            )
            assert isinstance(registered, models.UserWithToken), registered
            assert registered.id == user.id and registered.full_name == full_name
            return registered

        owner = log_in("+14155550141", "Olive Owner")
        guest = log_in("+14155550142", "Gus Guest")
        as_owner, as_guest = client(owner.auth_token), client(guest.auth_token)
        stranger = "+14155550143"  # invited by number, without an account: texted, not registered

        # Create an event with invitees, list it, open it.
        starts = (datetime.now(UTC) + timedelta(days=7)).replace(hour=19, minute=0, second=0, microsecond=0)
        created = events["create_event"].sync(
            client=as_owner,
            body=models.EventCreate(
                title="Dinner at ours",
                event_date=starts,
                total_spots=5,
                invite_phone_numbers=[guest.phone_number, stranger],
                venue_name="Home",
            ),
        )
        assert isinstance(created, models.EventCreated), created
        assert created.title == "Dinner at ours" and created.event_date == starts and created.i_am_owner
        assert all(isinstance(invitee, models.Invitee) for invitee in created.invitees)
        assert [invitee.phone_number for invitee in created.invitees] == [
            owner.phone_number,
            guest.phone_number,
            stranger,
        ]

        page = events["list_events"].sync(client=as_owner)
        assert isinstance(page, models.EventPage), page
        assert page.count == 1 and [event.id for event in page.results] == [created.id]
        assert page.results[0].waitlist is False and page.results[0].invitations[0].waitlist_position is None
        assert isinstance(page.results[0], models.EventListed)

        guest_page = events["list_events"].sync(client=as_guest)
        assert [event.id for event in guest_page.results] == [created.id]

        detail = events["get_event"].sync(created.id, client=as_owner)
        assert isinstance(detail, models.EventDetail), detail
        owner_row, guest_row, stranger_row = detail.invitees
        # The v1 quirk, typed: the owner's is_attending is the string "true", the others' a bool or null.
        assert owner_row.is_owner and owner_row.is_attending == models.OwnerAttending.TRUE
        assert isinstance(owner_row.is_attending, models.OwnerAttending) and owner_row.is_attending == "true"
        assert guest_row.is_attending is None and guest_row.is_active
        assert stranger_row.is_attending is None and not stranger_row.is_active

        # The guest accepts.
        invitation = events["accept_invitation"].sync(created.id, client=as_guest)
        assert isinstance(invitation, models.Invitation), invitation
        assert invitation.user_id == guest.id and invitation.has_accepted_invite is True
        detail = events["get_event"].sync(created.id, client=as_owner)
        assert detail.attendees_count >= 1 and detail.spots_filled == 1
        assert detail.invitees[1].is_attending is True

        # A full event with a waitlist: a guest who brings one fills it, the next waits, and is seated
        # when the first declines.
        third = log_in("+14155550144", "Tia Third")
        as_third = client(third.auth_token)
        small = events["create_event"].sync(
            client=as_owner,
            body=models.EventCreate(
                title="Small table",
                event_date=starts,
                total_spots=2,
                max_extra_guests=1,
                waitlist=True,
                invite_phone_numbers=[guest.phone_number, third.phone_number],
            ),
        )
        assert isinstance(small, models.EventCreated), small
        assert small.max_extra_guests == 1 and small.waitlist is True
        bringing = events["accept_invitation"].sync(
            small.id, client=as_guest, body=models.AcceptInvitationBody(extra_guests=1)
        )
        assert bringing.has_accepted_invite is True and bringing.extra_guests == 1
        assert bringing.waitlist_position is None
        too_many = events["accept_invitation"].sync_detailed(
            small.id, client=as_third, body=models.AcceptInvitationBody(extra_guests=2)
        )
        assert too_many.status_code == 400, too_many
        waiting = events["accept_invitation"].sync(small.id, client=as_third)
        assert waiting.has_accepted_invite is None and waiting.waitlist_position == 1
        shown = events["get_event"].sync(small.id, client=as_owner)
        assert shown.spots_filled == 2 and shown.attendees_count == 3
        assert [row.waitlist_position for row in shown.invitees] == [None, None, 1]
        declined = events["reject_invitation"].sync(small.id, client=as_guest)
        assert declined.has_accepted_invite is False and declined.extra_guests == 0
        shown = events["get_event"].sync(small.id, client=as_owner)
        assert shown.invitees[2].is_attending is True and shown.invitees[2].waitlist_position is None
        assert shown.spots_filled == 1

        # A message, a poll and a time suggestion.
        message = conversation["post_message"].sync(
            created.id, client=as_guest, body=models.MessageInput(body="Bringing dessert")
        )
        assert isinstance(message, models.MessageResult), message
        assert message.body == "Bringing dessert" and message.error is False and message.error_message is None
        assert message.user_id == guest.id and message.number_messages == 1 and not message.is_owner

        later = starts + timedelta(days=1)
        poll = conversation["post_poll"].sync(
            created.id, client=as_owner, body=models.PollInput(suggested_date=later, suggested_venue="The park")
        )
        assert isinstance(poll, models.Poll), poll
        assert poll.suggested_venue == "The park" and poll.suggested_date == later

        suggested = conversation["suggest_time"].sync_detailed(
            created.id,
            client=as_guest,
            body=models.TimeSuggestionInput(suggested_time=later, comment="Saturday suits me"),
        )
        assert suggested.status_code == 204 and suggested.parsed is None
        suggestions = conversation["list_time_suggestions"].sync(created.id, client=as_owner)
        assert [type(s) for s in suggestions] == [models.TimeSuggestion], suggestions
        assert suggestions[0].user_id == guest.id and suggestions[0].suggested_time == later
        assert suggestions[0].comment == "Saturday suits me"

        detail = events["get_event"].sync(created.id, client=as_owner)
        assert [m.body for m in detail.messages] == ["Bringing dessert"]
        assert [p.id for p in detail.polls] == [poll.id]

        # Favorites, then a lookup of numbers.
        saved = contacts["save_favorites"].sync(
            client=as_owner,
            body=[
                models.FavoriteContactInput(phone_number=guest.phone_number, contact_name="Gus"),
                models.FavoriteContactInput(phone_number=stranger, contact_name="Sam"),
            ],
        )
        assert [type(f) for f in saved] == [models.FavoriteContact] * 2, saved
        assert [(f.contact_name, f.phone_number) for f in saved] == [("Gus", guest.phone_number), ("Sam", stranger)]
        listed = contacts["list_favorites"].sync(client=as_owner)
        assert [f.to_dict() for f in listed] == [f.to_dict() for f in saved]

        found = contacts["users_from_phone_numbers"].sync(
            client=as_owner,
            body=models.PhoneNumbers(phone_numbers=[guest.phone_number, stranger, "not a number"]),
        )
        assert all(isinstance(entry, models.PhoneLookup) for entry in found), found
        by_number = {entry.phone_number: entry.user for entry in found}
        assert set(by_number) == {guest.phone_number}  # the stranger has no account, the last is no number
        assert isinstance(by_number[guest.phone_number], models.UserSummary)
        assert by_number[guest.phone_number].id == guest.id

        # The guest exports their data, then deletes the account: the owner's event no longer names them.
        users = {
            name: importlib.import_module(f"{PACKAGE}.api.users.{name}")
            for name in ("request_my_data_export", "get_my_data_export", "delete_me")
        }
        asked = users["request_my_data_export"].sync(client=as_guest)
        assert isinstance(asked, models.ExportStatus) and asked.status == "pending", asked
        ready = users["get_my_data_export"].sync(client=as_guest)  # made at once without a queue
        assert isinstance(ready, models.ExportStatus) and ready.status == "ready" and ready.url, ready
        deleted = users["delete_me"].sync_detailed(client=as_guest)
        assert deleted.status_code == 204 and deleted.parsed is None
        detail = events["get_event"].sync(created.id, client=as_owner)
        assert [invitee.phone_number for invitee in detail.invitees] == [owner.phone_number, stranger]
        assert detail.messages == [] and detail.spots_filled == 0

        # A documented error comes back typed too, and an undocumented status would raise.
        missing = events["get_event"].sync_detailed(9_007_199_254_740_991, client=as_owner)
        assert missing.status_code == 404 and isinstance(missing.parsed, models.Detail), missing
        assert issubclass(errors.UnexpectedStatus, Exception)

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
    "files": ["invites.d.ts", "usage.ts"],
}


def test_openapi_typescript_types_compile_under_tsc(tmp_path):
    generator, tsc = NODE_TOOLS / "openapi-typescript", NODE_TOOLS / "tsc"
    assert generator.exists() and tsc.exists(), "tools/contract/node_modules is missing: run `make install`"
    generated = run([str(generator), str(DOCUMENT_PATH), "--output", str(tmp_path / "invites.d.ts")], cwd=tmp_path)
    output = generated.stdout + generated.stderr
    assert generated.returncode == 0, output
    assert not re.search(r"warn|error|⚠", output, re.IGNORECASE), output
    types = (tmp_path / "invites.d.ts").read_text()
    assert 'is_attending: boolean | components["schemas"]["OwnerAttending"] | null;' in types, types[:2000]
    (tmp_path / "usage.ts").write_text(USAGE_TS)
    (tmp_path / "tsconfig.json").write_text(json.dumps(TSCONFIG))
    compiled = run([str(tsc), "--project", str(tmp_path / "tsconfig.json")], cwd=tmp_path)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
