"""Queue kinds: one enumeration, each kind handled in the module it names, where its handler registers."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from chalicelib.jobs.queue_handler import handler_of
from chalicelib.messaging.notifications import kinds
from chalicelib.messaging.notifications.kinds import QueueKind, handles, registered_handler

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("kind", list(QueueKind), ids=[kind.name for kind in QueueKind])
def test_every_kind_is_handled_by_a_function_of_the_module_it_names(kind):
    handler = handler_of(kind)
    assert handler.__module__ == kind.handled_in
    assert getattr(importlib.import_module(kind.handled_in), handler.__name__) is handler


def test_a_kind_is_the_messages_type_on_the_wire():
    assert json.loads(json.dumps({"type": QueueKind.NEW_INVITE})) == {"type": "new_invite"}
    assert QueueKind("data_export") is QueueKind.DATA_EXPORT
    assert kinds.kind_of("no_such_type") is None and kinds.kind_of(None) is None


def test_a_handler_registered_outside_its_kinds_module_is_refused():
    with pytest.raises(ValueError, match="NUDGE is handled in chalicelib.services.conversation.host_messages"):
        handles(QueueKind.NUDGE)(lambda message: None)


def test_a_kind_takes_one_handler():
    handler_of(QueueKind.NUDGE)
    second = registered_handler(QueueKind.NUDGE)
    impostor = type(second)(second.__code__, second.__globals__, "impostor")
    impostor.__module__ = QueueKind.NUDGE.handled_in
    with pytest.raises(ValueError, match="NUDGE has a handler already"):
        handles(QueueKind.NUDGE)(impostor)


def test_the_worker_loads_a_kinds_module_on_its_first_message_only():
    probe = (
        "import json, sys; from chalicelib.jobs.queue_handler import handler_of; "
        "from chalicelib.messaging.notifications.kinds import QueueKind; "
        "before = 'chalicelib.services.account.data_export' in sys.modules; handler_of(QueueKind.DATA_EXPORT); "
        "print(json.dumps([before, 'chalicelib.services.account.data_export' in sys.modules, "
        "'chalicelib.services.conversation.host_messages' in sys.modules]))"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [False, True, False]


def _kinds_listed_together(path: Path) -> list[tuple[int, list[str]]]:
    """Dicts keyed by kinds, and lists, tuples or sets of two kinds or more, in the module at ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Dict):
            items = node.keys
        elif isinstance(node, ast.List | ast.Tuple | ast.Set):
            items = node.elts
        else:
            continue
        named = [
            item.attr
            for item in items
            if isinstance(item, ast.Attribute) and isinstance(item.value, ast.Name) and item.value.id == "QueueKind"
        ]
        if len(named) >= 2 or (isinstance(node, ast.Dict) and named):
            found.append((node.lineno, named))
    return found


def test_adding_a_kind_is_its_member_in_kinds_py_and_nothing_else_to_register():
    """No registry, re-export or table of kinds outside kinds.py: a kind is registered by its member there and
    ``@handles`` on its handler, which lives with the code it runs."""
    listed = {
        str(path.relative_to(ROOT)): found
        for path in sorted((ROOT / "chalicelib").rglob("*.py"))
        if path.name != "kinds.py" and (found := _kinds_listed_together(path))
    }
    assert listed == {}


def test_the_guard_finds_a_table_of_kinds(tmp_path):
    table = tmp_path / "table.py"
    table.write_text("HANDLERS = {QueueKind.NUDGE: 1}\nBOTH = (QueueKind.NUDGE, QueueKind.ANNOUNCEMENT)\n")
    assert _kinds_listed_together(table) == [(1, ["NUDGE"]), (2, ["NUDGE", "ANNOUNCEMENT"])]
