"""scripts/docs_assets.py: the vendored Swagger UI files are checked, then copied where GET /docs serves them."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import docs_assets  # noqa: E402


@pytest.fixture
def folders(tmp_path, monkeypatch):
    source, target = tmp_path / "third_party", tmp_path / "static"
    shutil.copytree(docs_assets.SOURCE, source)
    monkeypatch.setattr(docs_assets, "SOURCE", source)
    monkeypatch.setattr(docs_assets, "TARGET", target)
    return source, target


def test_vendored_files_match_their_checksums_and_carry_the_licence():
    docs_assets.check_source()
    assert "Apache License" in (docs_assets.SOURCE / "LICENSE").read_text()
    assert "SmartBear" in (docs_assets.SOURCE / "NOTICE").read_text()


def test_copies_every_file_and_the_version_without_npm(folders, monkeypatch):
    source, target = folders
    monkeypatch.setattr(shutil, "which", lambda name: None)  # no Node anywhere
    assert docs_assets.main([]) == 0
    for name in (*docs_assets.FILES, "VERSION"):
        assert (target / name).read_bytes() == (source / name).read_bytes(), name


def test_a_changed_vendored_file_is_refused_and_nothing_is_copied(folders, capsys):
    source, target = folders
    (source / "swagger-ui.css").write_text("body {}")
    assert docs_assets.main([]) == 1
    assert "swagger-ui.css differs from SHA256SUMS" in capsys.readouterr().err
    assert not target.exists()


def test_a_stale_copy_is_replaced(folders):
    source, target = folders
    assert docs_assets.main([]) == 0
    (target / "swagger-ui-bundle.js").write_text("old")
    assert docs_assets.main([]) == 0
    assert (target / "swagger-ui-bundle.js").read_bytes() == (source / "swagger-ui-bundle.js").read_bytes()
