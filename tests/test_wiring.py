"""The wiring's event sources name their handlers as the routes do: every name given to ``load_handler`` in the
package loads (a route's handlers are tests/api/test_routes.py's)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from chalicelib.loading import load_handler

PACKAGE = Path(__file__).resolve().parent.parent / "chalicelib"


def _named_handlers() -> list[str]:
    """Every string literal passed to ``load_handler`` in chalicelib: the event sources' and the inline queue's."""
    return sorted(
        node.args[0].value
        for path in PACKAGE.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "load_handler"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    )


def test_the_event_sources_name_their_handlers():
    assert {name.partition(":")[0] for name in _named_handlers()} >= {
        "chalicelib.jobs.queue_handler",
        "chalicelib.jobs.schedule",
        "chalicelib.jobs.inbound_texts",
        "chalicelib.jobs.photo_uploads",
        "chalicelib.jobs.delivery_receipts",
    }


@pytest.mark.parametrize("name", _named_handlers())
def test_every_handler_the_wiring_names_loads(name):
    assert callable(load_handler(name))
