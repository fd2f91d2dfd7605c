"""Queue kinds: one enumeration, each kind handled in the module it names, where its handler registers."""

from __future__ import annotations

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
