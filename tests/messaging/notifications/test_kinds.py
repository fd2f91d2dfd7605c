"""Queue kinds: each declared in the module that handles it, beside its handler; adding one is one file."""

from __future__ import annotations

import ast
import copy
import importlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from chalicelib import services
from chalicelib.jobs import queue_handler
from chalicelib.jobs.queue_handler import handler_of
from chalicelib.messaging.notifications import kinds
from chalicelib.messaging.notifications.kinds import declared_kinds, handles, kind_named, queue_kind, registered_handler
from chalicelib.services.conversation.host_messages import NUDGE
from tests.utils.notifications import run_queue, use_queue

ROOT = Path(__file__).resolve().parents[3]
ONE_FILE_KIND = Path(__file__).with_name("one_file_kind.py")

# The "type" of messages that may sit in the queue across a deploy: a kind once used keeps its name.
NAMES_ON_THE_WIRE = {
    "account_deletion",
    "announcement",
    "change_texts_due",
    "contact_joined",
    "data_export",
    "due_step",
    "event_cancelled",
    "event_changed",
    "guest_removed",
    "invite_rsvp",
    "join_requested",
    "new_invite",
    "nudge",
    "owned_event_deletion",
    "text_retry",
    "upcoming_event",
    "waitlist_dropped",
    "waitlist_promoted",
}


@pytest.fixture
def kinds_restored(monkeypatch):
    """The registry as it was before the test, whatever the test declares."""
    monkeypatch.setattr(kinds, "_declared", copy.copy(kinds._declared))
    monkeypatch.setattr(kinds, "_sent_by", copy.deepcopy(kinds._sent_by))


def _run_as_module(module: str, code: str) -> dict:
    """Run ``code`` as the top of a module named ``module``; returns its namespace."""
    namespace = {"__name__": module, "queue_kind": queue_kind, "kind_named": kind_named, "handles": handles}
    exec(compile(code, f"<{module}>", "exec"), namespace)  # noqa: S102 - a fixed snippet of the test
    return namespace


@pytest.mark.parametrize("kind", sorted(declared_kinds()))
def test_every_kind_is_handled_by_a_function_of_the_module_that_declares_it(kind):
    module = declared_kinds()[kind]
    handler = handler_of(kind)
    assert handler.__module__ == module
    assert getattr(importlib.import_module(module), handler.__name__) is handler
    assert getattr(importlib.import_module(module), kind.upper()) == kind


def test_the_names_queued_messages_carry_are_all_still_declared():
    assert NAMES_ON_THE_WIRE <= set(declared_kinds())


def test_a_kind_is_the_messages_type_on_the_wire():
    assert json.loads(json.dumps({"type": NUDGE})) == {"type": "nudge"}
    assert kinds.kind_of("data_export") == "data_export"
    assert kinds.kind_of("no_such_type") is None and kinds.kind_of(None) is None


def test_a_handler_registered_outside_its_kinds_module_is_refused():
    with pytest.raises(ValueError, match="nudge is handled in chalicelib.services.conversation.host_messages"):
        handles(NUDGE)(lambda message: None)


def test_a_kind_takes_one_handler():
    first = registered_handler(NUDGE)
    impostor = type(first)(first.__code__, first.__globals__, "impostor")
    impostor.__module__ = first.__module__
    with pytest.raises(ValueError, match="nudge has a handler already"):
        handles(NUDGE)(impostor)


def test_a_name_declared_by_a_second_module_is_refused(kinds_restored):
    with pytest.raises(ValueError, match="'nudge' is declared in chalicelib.services.conversation.host_messages"):
        _run_as_module("chalicelib.services.hosting.copycat", 'NUDGE = queue_kind("nudge")')


@pytest.mark.parametrize("name", ["Nudge", "nudge now", "", "x" * 49, 7])
def test_a_kind_is_named_by_a_plain_word(name, kinds_restored):
    with pytest.raises(ValueError, match="a queue kind is named by a word"):
        queue_kind(name)


def test_the_worker_refuses_a_name_sent_that_no_module_declares(kinds_restored):
    _run_as_module("chalicelib.services.hosting.typo", 'GUEST_WAVD = kind_named("guest_wavd")')
    with pytest.raises(LookupError, match="guest_wavd, sent by chalicelib.services.hosting.typo, is declared by no"):
        queue_handler.load_every_kind()


def test_the_worker_refuses_a_kind_declared_without_its_handler(kinds_restored):
    _run_as_module("chalicelib.services.hosting.forgetful", 'GUEST_WAVED = queue_kind("guest_waved")')
    with pytest.raises(LookupError, match="guest_waved has no handler in chalicelib.services.hosting.forgetful"):
        queue_handler.load_every_kind()


def test_a_kind_added_in_one_file_is_sent_queued_and_handled(client, override_settings, monkeypatch, tmp_path,
                                                              kinds_restored):
    """The module is copied among the services' modules, as a new file of a capability package, and nothing else
    changes: the worker's load finds the kind, the message goes through SQS and the worker's Lambda function."""
    shutil.copy(ONE_FILE_KIND, tmp_path / "guest_waves.py")
    monkeypatch.setattr(services, "__path__", [*services.__path__, str(tmp_path)])
    monkeypatch.delitem(sys.modules, "chalicelib.services.guest_waves", raising=False)
    queue_handler.load_every_kind()  # what the worker's cold start does
    waves = sys.modules["chalicelib.services.guest_waves"]
    url = use_queue(override_settings)

    assert waves.wave(event_id=7, user_id=8)
    bodies = run_queue(client, url)

    assert [json.loads(body)["type"] for body in bodies] == ["guest_waved"]
    assert waves.handled == [{"event_id": 7, "user_id": 8}]
    assert declared_kinds()["guest_waved"] == "chalicelib.services.guest_waves"


def test_a_sender_loads_no_handler_module_and_the_worker_declares_every_kind_at_its_import():
    probe = (
        "import json, sys; from chalicelib.messaging.notifications import kinds; "
        "import chalicelib.services.hosting.events; "
        "sender = ['chalicelib.services.notifications.notification_jobs' in sys.modules, "
        "sorted(kinds.declared_kinds())]; "
        "import chalicelib.jobs.queue_handler; "
        "print(json.dumps([*sender, sorted(kinds.declared_kinds())]))"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded, declared_before, declared_after = json.loads(done.stdout.strip().splitlines()[-1])
    assert loaded is False and "new_invite" not in declared_before  # it sends new_invite by name
    assert set(declared_after) == set(declared_kinds()) >= NAMES_ON_THE_WIRE


def _kinds_made_elsewhere_than_a_module_constant(path: Path) -> list[int]:
    """Lines of ``path`` calling queue_kind or kind_named other than as ``NAME = queue_kind("name")`` at the
    module's top: a kind made in a function escapes the worker's check, and a table of kinds is a second list."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    allowed = {
        id(statement.value)
        for statement in tree.body
        if isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
        and isinstance(statement.value, ast.Call)
        and len(statement.value.args) == 1
        and isinstance(statement.value.args[0], ast.Constant)
        and statement.targets[0].id == str(statement.value.args[0].value).upper()
    }
    return sorted(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in {"queue_kind", "kind_named"}
        and id(node) not in allowed
    )


def test_every_kind_is_a_module_constant_named_as_its_value():
    found = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / "chalicelib").rglob("*.py"))
        if path.name != "kinds.py" and (lines := _kinds_made_elsewhere_than_a_module_constant(path))
    }
    assert found == {}


def test_the_guard_finds_a_kind_made_in_a_function_or_a_table(tmp_path):
    module = tmp_path / "table.py"
    module.write_text(
        'NUDGE = kind_named("nudge")\n'
        'BOTH = (kind_named("nudge"), kind_named("announcement"))\n'
        'WAVE = queue_kind("guest_waved")\n'
        "def send():\n"
        '    return kind_named("nudge")\n'
    )
    assert _kinds_made_elsewhere_than_a_module_constant(module) == [2, 2, 3, 5]
