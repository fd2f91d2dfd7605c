"""scripts/chalice_cli.py takes only wheels that run on Lambda python3.12 and refuses to build from source."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.infra.scripts import load

cli = load("chalice_cli")


@pytest.mark.parametrize(
    ("filename", "fits"),
    [
        ("pillow-13.0.0-cp312-cp312-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl", True),
        ("pynamodb-6.1.0-py3-none-any.whl", True),
        ("cryptography-46.0.0-cp311-abi3-manylinux_2_34_x86_64.whl", True),
        ("thing-1.0-cp312-cp312-manylinux2014_x86_64.whl", True),
        ("pillow-13.0.0-cp311-cp311-manylinux_2_28_x86_64.whl", False),  # another Python
        ("thing-1.0-cp312-cp312-manylinux_2_35_x86_64.whl", False),  # newer glibc than Amazon Linux 2023
        ("pillow-13.0.0-cp312-cp312-linux_x86_64.whl", False),  # built on some machine: its libraries
        ("thing-1.0-cp312-cp312-manylinux_2_28_aarch64.whl", False),
        ("thing-1.0-cp312-cp312-musllinux_1_2_x86_64.whl", False),
        ("thing-1.0.tar.gz", False),
    ],
)
def test_which_wheels_fit_the_runtime(filename, fits):
    assert cli.wheel_fits(filename) is fits


def _wheel(directory, name: str) -> None:
    """A minimal wheel file named ``name`` (pip only reads its name and metadata here)."""
    dist, version = name.split("-")[:2]
    info = f"{dist}-{version}.dist-info"
    with zipfile.ZipFile(directory / name, "w") as archive:
        archive.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
        archive.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: false\n")
        archive.writestr(f"{info}/RECORD", "")


@pytest.fixture
def index(tmp_path, monkeypatch):
    """A local package index (no network): pip finds only what is put there."""
    links = tmp_path / "links"
    links.mkdir()
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(links))
    return links


def test_a_dependency_without_a_fitting_wheel_stops_the_build(tmp_path, index):
    # only a wheel for a newer glibc, and an sdist: chalice would have compiled the sdist on this machine
    _wheel(index, "fastthing-1.0-cp312-cp312-manylinux_2_39_x86_64.whl")
    (index / "fastthing-1.0.tar.gz").write_bytes(b"not used")
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("fastthing==1.0\n")
    with pytest.raises(cli.DeployRefused, match="no wheel of fastthing==1.0 fits Lambda python3.12"):
        cli.download_wheels(str(requirements), str(tmp_path / "out"))


def test_a_fitting_wheel_is_taken(tmp_path, index):
    _wheel(index, "fastthing-1.0-cp312-cp312-manylinux_2_28_x86_64.whl")
    _wheel(index, "fastthing-1.0-cp311-cp311-manylinux_2_28_x86_64.whl")
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("fastthing==1.0\n")
    taken = cli.download_wheels(str(requirements), str(tmp_path / "out"))
    assert taken == ["fastthing-1.0-cp312-cp312-manylinux_2_28_x86_64.whl"]


def test_plain_chalice_refuses_a_deployed_stage(tmp_path):
    # it would package for the deploying interpreter's runtime, build sdists on this machine and miss the
    # stack's settings: a Pillow linked against the build host's libraries, and deploys with placeholder settings
    chalice = Path(sys.executable).parent / "chalice"
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_") and k != "INVITES_CHALICE_CLI"}
    env.update(AWS_DEFAULT_REGION="us-east-1", AWS_CONFIG_FILE=os.devnull, AWS_SHARED_CREDENTIALS_FILE=os.devnull)
    result = subprocess.run(
        [str(chalice), "package", "--stage", "prod", str(tmp_path / "out")],
        cwd=cli.ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "make deploy" in result.stdout + result.stderr
    assert not (tmp_path / "out").exists()
