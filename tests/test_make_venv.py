"""scripts/make_venv.py: never leaves a half-built .venv, never touches the venv a symlinked .venv points to."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import make_venv  # noqa: E402


def test_a_symlinked_venv_loses_its_link_and_its_target_is_untouched(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    (shared / "bin").mkdir(parents=True)
    (shared / "bin" / "python").write_text("the shared venv")
    link = tmp_path / ".venv"
    link.symlink_to(shared)
    monkeypatch.setattr(make_venv, "make", lambda path, uv: path.mkdir())
    assert make_venv.main([str(link), "--no-uv"]) == 0
    assert not link.is_symlink() and link.is_dir()
    assert (shared / "bin" / "python").read_text() == "the shared venv"


def test_a_venv_that_fails_to_build_is_removed_whole(tmp_path, monkeypatch, capsys):
    def half_build(path, uv):
        (path / "bin").mkdir(parents=True)
        raise subprocess.CalledProcessError(1, ["python", "-m", "ensurepip"])

    monkeypatch.setattr(make_venv, "make", half_build)
    assert make_venv.main([str(tmp_path / ".venv"), "--uv", "0.0.0"]) == 1
    assert not (tmp_path / ".venv").exists()
    assert "could not make" in capsys.readouterr().err


def test_without_uv_the_venv_gets_pip_from_ensurepip(tmp_path, monkeypatch, capsys):
    commands = []

    def run(command, **kwargs):
        commands.append(command)
        if "uv==0.0.0" in command:  # the uv bootstrap fails: no such release
            raise subprocess.CalledProcessError(1, command)

    monkeypatch.setattr(make_venv.venv, "create", lambda path, with_pip: (path / "bin").mkdir(parents=True))
    monkeypatch.setattr(make_venv.subprocess, "run", run)
    assert make_venv.main([str(tmp_path / ".venv"), "--uv", "0.0.0"]) == 0
    assert commands[-1][1:] == ["-m", "ensurepip", "--default-pip"]
    assert not (tmp_path / ".venv" / "bin" / "uv").exists()
    assert "pip installs the packages" in capsys.readouterr().err
