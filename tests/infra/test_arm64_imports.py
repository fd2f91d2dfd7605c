"""Under an aarch64 CPython (qemu-user), the app imports with its aarch64 wheels and Pillow processes a photo.

Slow (about 2 minutes, most of it emulated Python): in the packaging group, and it needs ``ARM64_ROOTFS``, an
arm64 tree with a CPython 3 (scripts/arm64_imports.py says how to make one), and qemu-aarch64-static."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.infra.scripts import load


def test_the_app_imports_and_processes_an_image_under_aarch64():
    rootfs = os.environ.get("ARM64_ROOTFS")
    if not rootfs or shutil.which("qemu-aarch64-static") is None:
        pytest.skip("needs ARM64_ROOTFS (an arm64 tree with python3) and qemu-aarch64-static")
    result = load("arm64_imports").prove(Path(rootfs))
    assert result["machine"] == "aarch64"
    assert result["routes"] > 30
    assert any(name.startswith("pillow-") and "aarch64" in name for name in result["wheels"])
    assert result["extensions"] > 0
