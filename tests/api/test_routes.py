"""The route table: every route names a handler that loads, each handler module's functions are all named, and
declaring the routes loads no handler."""

from __future__ import annotations

import ast
import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

from chalicelib.api.routes import API_BLUEPRINTS
from chalicelib.loading import load_handler

ROOT = Path(__file__).resolve().parents[2]
API = ROOT / "chalicelib" / "api"
SPECS = [spec for blueprint in API_BLUEPRINTS for spec in blueprint.specs]


@pytest.mark.parametrize("spec", SPECS, ids=[f"{'/'.join(s.methods)} {s.path}" for s in SPECS])
def test_every_named_handler_loads_and_takes_the_request(spec):
    handler = load_handler(spec.handler)
    assert list(inspect.signature(handler).parameters) == ["ctx"]
    if spec.error_page:
        assert list(inspect.signature(load_handler(spec.error_page)).parameters) == ["error", "method"]


def _handler_modules() -> set[str]:
    return {spec.handler.partition(":")[0] for spec in SPECS}


def test_every_handler_of_a_handler_module_answers_a_route():
    # a public function of a handler module taking only the request is a handler: one no route names is a route
    # someone forgot to declare
    named = {spec.handler for spec in SPECS}
    for module in sorted(_handler_modules()):
        tree = ast.parse((ROOT / (module.replace(".", "/") + ".py")).read_text())
        handlers = {
            f"{module}:{node.name}"
            for node in tree.body
            if isinstance(node, ast.FunctionDef)
            and not node.name.startswith("_")
            and [arg.arg for arg in node.args.args] == ["ctx"]
        }
        assert handlers - named == set(), module


def test_declaring_every_route_loads_no_handler_module():
    probe = (
        "import json, sys; from chalicelib.api.routes import API_BLUEPRINTS; "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('chalicelib.'))))"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = set(json.loads(done.stdout.strip().splitlines()[-1]))
    assert not loaded & _handler_modules()
    # of the services, only what authenticates every request
    assert {m for m in loaded if m.startswith("chalicelib.services.")} <= {
        "chalicelib.services.identity",
        "chalicelib.services.identity.tokens",
        "chalicelib.services.identity.users",
    }
