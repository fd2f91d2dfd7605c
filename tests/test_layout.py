"""The package's shape: modules small enough to read, imports at the top where readers and the import contracts
see them, every module inside the one-way layers, and each capability package saying what it is for."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "chalicelib"
MAX_LINES = 400
# Imports of the app's own modules made inside a function: each says why on its line (a cold start it spares).
MAX_FUNCTION_LEVEL_IMPORTS = 15


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _function_level_imports(path: Path) -> list[tuple[int, str]]:
    source = path.read_text()
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom) and (inner.module or "").startswith("chalicelib"):
                    found.append((inner.lineno, lines[inner.lineno - 1]))
                elif isinstance(inner, ast.Import) and any(a.name.startswith("chalicelib") for a in inner.names):
                    found.append((inner.lineno, lines[inner.lineno - 1]))
    return found


def test_no_module_is_over_the_line_limit():
    long = {str(p.relative_to(ROOT)): n for p in _modules() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}


def test_function_level_imports_are_few_and_each_gives_its_reason():
    found = [(path, line, text) for path in _modules() for line, text in _function_level_imports(path)]
    assert len(found) <= MAX_FUNCTION_LEVEL_IMPORTS, found
    assert [f"{p}:{n}" for p, n, text in found if "#" not in text] == []


def test_every_top_level_module_sits_in_a_layer_of_the_one_way_contract():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    (layers,) = [c for c in config if c["type"] == "layers" and c.get("containers") == ["chalicelib"]]
    named = {name.strip() for layer in layers["layers"] for name in layer.replace("|", ":").split(":")}
    on_disk = {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    on_disk |= {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert on_disk - named == set()


def test_each_capability_package_only_says_what_it_is_for():
    # no re-exports: importing a package loads nothing but its docstring, so a cold start pays for no sibling
    packages = [p for p in (PACKAGE / "services").iterdir() if (p / "__init__.py").exists()]
    assert len(packages) >= 8
    for package in packages:
        tree = ast.parse((package / "__init__.py").read_text())
        assert len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr), package.name
        docstring = ast.get_docstring(tree)
        assert docstring and "\n" not in docstring, package.name
    assert [p.name for p in (PACKAGE / "services").glob("*.py") if p.name != "__init__.py"] == []
