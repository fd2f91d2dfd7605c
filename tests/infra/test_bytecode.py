"""The deployment zip carries CPython 3.12 bytecode the runtime uses as it is (scripts/chalice_cli.py
compile_package), and scripts/package_check.py refuses a zip without it, or with another version's."""

from __future__ import annotations

import py_compile
import subprocess
import zipfile
from pathlib import Path

import pytest

from tests.infra.scripts import load

chalice_cli, package_check = load("chalice_cli"), load("package_check")
SOURCES = {"app.py": "from pkg import mod\nANSWER = mod.VALUE\n", "pkg/__init__.py": "", "pkg/mod.py": "VALUE = 42\n"}


@pytest.fixture(scope="module")
def python312() -> str:
    try:
        return chalice_cli.runtime_python()
    except chalice_cli.DeployRefused as missing:
        pytest.skip(str(missing))


def _zip(path: Path, extra: dict[str, bytes] | None = None) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in SOURCES.items():
            archive.writestr(name, text)
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return path


def _bytecode_problems(path: Path) -> list[str]:
    with zipfile.ZipFile(path) as archive:
        return package_check.bytecode_problems(archive, package_check.Report())


def test_a_zip_without_bytecode_is_refused(tmp_path):
    assert _bytecode_problems(_zip(tmp_path / "plain.zip")) == [
        "3 modules have no .pyc for CPython 3.12: app.py, pkg/__init__.py, pkg/mod.py"
    ]


def test_bytecode_of_another_python_is_refused(tmp_path):
    # GIVEN .pyc files named for 3.12 but compiled by this interpreter (3.11 here: another magic number)
    compiled = {}
    for name, text in SOURCES.items():
        source = tmp_path / "src" / name
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(text)
        target = tmp_path / "pyc" / name
        py_compile.compile(
            str(source), cfile=str(target), invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH
        )
        compiled[package_check.cached_name(name)] = target.read_bytes()
    problems = _bytecode_problems(_zip(tmp_path / "other.zip", compiled))
    assert problems and problems[0].startswith("3 modules are .pyc of another Python version (magic number)")


def test_timestamp_bytecode_is_refused(tmp_path, python312):
    # a 3.12 .pyc checked against its source's mtime: on a read-only /var/task a mismatch recompiles every start
    source = tmp_path / "mod.py"
    source.write_text("VALUE = 42\n")
    subprocess.run([python312, "-m", "py_compile", str(source)], check=True)
    (pyc,) = (tmp_path / "__pycache__").glob("mod.cpython-312.pyc")
    with zipfile.ZipFile(tmp_path / "stamped.zip", "w") as archive:
        archive.writestr("mod.py", source.read_text())
        archive.writestr("__pycache__/mod.cpython-312.pyc", pyc.read_bytes())
    assert _bytecode_problems(tmp_path / "stamped.zip") == [
        "1 modules are .pyc checked against their source (not unchecked-hash): __pycache__/mod.cpython-312.pyc"
    ]


def test_the_packaged_bytecode_is_used_without_reading_the_sources(tmp_path, python312):
    # GIVEN a zip compiled as the packager compiles it
    zip_path = _zip(tmp_path / "package.zip")
    assert chalice_cli.compile_package(zip_path, python312) == 3
    assert chalice_cli.compile_package(zip_path, python312) == 0  # once only
    report = package_check.Report()
    with zipfile.ZipFile(zip_path) as archive:
        assert package_check.bytecode_problems(archive, report) == [] and report.bytecode == 3
        # tracebacks name the deployed files
        assert b"/var/task/pkg/mod.py" in archive.read("pkg/__pycache__/mod.cpython-312.pyc")
    # WHEN it is unpacked read-only and a source no longer matches its bytecode
    task = tmp_path / "task"
    zipfile.ZipFile(zip_path).extractall(task)
    (task / "pkg" / "mod.py").write_text("raise SystemExit('the source was compiled at import')\n")
    for path in [task, *task.rglob("*")]:
        path.chmod(path.stat().st_mode & ~0o222)
    try:
        done = subprocess.run(
            [python312, "-s", "-c", "import app; print(app.ANSWER)"],
            cwd=task,
            env={"PYTHONDONTWRITEBYTECODE": "1", "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
        )
    finally:
        for path in [task, *task.rglob("*")]:
            path.chmod(path.stat().st_mode | 0o200)
    # THEN CPython 3.12 imported the packaged bytecode, not the source
    assert (done.returncode, done.stdout.strip()) == (0, "42"), done.stderr


def test_bytecode_of_the_deploying_python_is_replaced(tmp_path, python312):
    # GIVEN a zip as chalice makes it from a working copy: chalicelib's __pycache__ of the deploying Python in it
    stray = {"pkg/__pycache__/mod.cpython-311.pyc": b"stale"}
    zip_path = _zip(tmp_path / "package.zip", stray)
    # WHEN it is compiled for the runtime
    assert chalice_cli.compile_package(zip_path, python312) == 3
    # THEN every module has its 3.12 bytecode and the stray file is gone
    names = set(zipfile.ZipFile(zip_path).namelist())
    assert "pkg/__pycache__/mod.cpython-311.pyc" not in names
    assert _bytecode_problems(zip_path) == []
