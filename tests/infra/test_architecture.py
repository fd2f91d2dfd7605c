"""A stage's architecture (infra/stages.json) chooses the wheels chalice packages, and the package check refuses
a compiled extension or a wheel built for another machine."""

from __future__ import annotations

import json
import struct
import zipfile

import pytest

from tests.infra.scripts import load
from tests.infra.test_wheels import _wheel, index  # noqa: F401  (the local package index fixture)

cli, package_check = load("chalice_cli"), load("package_check")

ELF_MACHINE_NUMBERS = {"x86_64": 62, "aarch64": 183}


def _elf(machine: str) -> bytes:
    """The 64-byte header of a little-endian 64-bit ELF shared object for ``machine``, with no sections."""
    ident = b"\x7fELF" + bytes([2, 1, 1]) + bytes(9)
    fields = (3, ELF_MACHINE_NUMBERS[machine], 1, 0, 0, 0, 0, 64, 0, 0, 64, 0, 0)
    return ident + struct.pack("<HHIQQQIHHHHHH", *fields)


def _package(tmp_path, so_machine: str, wheel_machine: str):
    """A deployment zip holding one compiled extension in one wheel's files."""
    path = tmp_path / "deployment.zip"
    info = "fastthing-1.0.dist-info"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("fastthing/_speedups.cpython-312-x.so", _elf(so_machine))
        archive.writestr(f"{info}/WHEEL", f"Wheel-Version: 1.0\nTag: cp312-cp312-manylinux_2_28_{wheel_machine}\n")
        archive.writestr(f"{info}/RECORD", "fastthing/_speedups.cpython-312-x.so,,\n")
    return path


def _architecture_problems(report) -> list[str]:
    return [p for p in report.problems if "built for" in p or "is not a manylinux" in p]


def test_an_x86_extension_in_an_arm64_package_is_refused(tmp_path):
    zip_path = _package(tmp_path, "x86_64", "x86_64")
    assert _architecture_problems(package_check.check(zip_path)) == []
    problems = _architecture_problems(package_check.check(zip_path, architecture="arm64"))
    assert any("is built for EM_X86_64, the stage runs on arm64" in p for p in problems)
    assert any("is not a manylinux aarch64 wheel" in p for p in problems)


def test_an_aarch64_extension_passes_for_arm64_only(tmp_path):
    zip_path = _package(tmp_path, "aarch64", "aarch64")
    assert _architecture_problems(package_check.check(zip_path, architecture="arm64")) == []
    problems = _architecture_problems(package_check.check(zip_path))
    assert any("is built for EM_AARCH64, the stage runs on x86_64" in p for p in problems)


def test_an_extension_whose_wheel_tag_lies_about_its_machine_is_refused(tmp_path):
    # tagged aarch64 but compiled for x86: only the ELF header tells
    zip_path = _package(tmp_path, "x86_64", "aarch64")
    problems = _architecture_problems(package_check.check(zip_path, architecture="arm64"))
    assert problems == ["fastthing/_speedups.cpython-312-x.so is built for EM_X86_64, the stage runs on arm64"]


def test_the_stage_architecture_becomes_chalice_lambda_architecture():
    config = {"stages": {"prod": {"api_gateway_stage": "api"}}}
    merged = cli.with_architecture(config, "prod", {"architecture": "arm64"})
    assert merged["stages"]["prod"]["lambda_architecture"] == "arm64"
    # a stage that names no architecture (a new one) runs on arm64
    assert cli.with_architecture(config, "prod", {})["stages"]["prod"]["lambda_architecture"] == "arm64"
    with pytest.raises(cli.DeployRefused, match="architecture 'arm' is not one of"):
        cli.with_architecture(config, "prod", {"architecture": "arm"})


def test_every_stage_names_a_known_architecture():
    stages = json.loads(cli.STAGES_FILE.read_text())
    for stage in cli.DEPLOYED_STAGES:
        assert stages[stage]["architecture"] in cli.ARCHITECTURE_MACHINES


def test_an_arm64_stage_downloads_aarch64_wheels(tmp_path, index):  # noqa: F811
    from chalice.deploy import deployer, packager

    cli._install_manylinux_builder()
    _wheel(index, "fastthing-1.0-cp312-cp312-manylinux_2_28_x86_64.whl")
    _wheel(index, "fastthing-1.0-cp312-cp312-manylinux_2_28_aarch64.whl")
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("fastthing==1.0\n")
    builder = deployer.PipDependencyBuilder(packager.OSUtils(), architecture="arm64")
    out = tmp_path / "out"
    out.mkdir()
    wheels, sdists = builder._download_dependencies(cli.runtime_abi(), str(out), str(requirements))
    assert [w.filename for w in wheels] == ["fastthing-1.0-cp312-cp312-manylinux_2_28_aarch64.whl"] and not sdists
    assert cli.wheel_fits(
        "pillow-13.0.0-cp312-cp312-manylinux_2_27_aarch64.manylinux_2_28_aarch64.whl", machine="aarch64"
    )
