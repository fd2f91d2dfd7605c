"""Check a Lambda deployment zip against its runtime: ``python scripts/package_check.py out/deployment.zip``.

For every compiled extension (``*.so``) in the zip: the GLIBC_x.y symbol versions it needs (ELF version
needs, read with pyelftools) must all be at most the runtime's glibc; and every distribution that ships
compiled code must be a manylinux wheel (the ``Tag`` lines of its ``*.dist-info/WHEEL``), never a local build
(``linux_x86_64``) or an sdist built on the packaging machine. Every ``.py`` must have its bytecode beside it,
``__pycache__/<name>.cpython-312.pyc``, with CPython 3.12's magic number and the unchecked-hash flag, so the
runtime imports it from the read-only ``/var/task`` without compiling (scripts/chalice_cli.py writes them).
Every ``.so`` must also be built for the stage's machine (its ELF header's ``e_machine``: x86-64 for
``x86_64``, AArch64 for ``arm64``) and its wheel tagged for it: an x86 Pillow in an arm64 function fails only
when the first avatar is uploaded. ``--architecture arm64`` checks an arm64 package (default ``x86_64``).
The trimmed botocore data under ``botocore_data/`` must cover every service the functions use, and its endpoint
rules may call only what the floor's botocore implements (scripts/botocore_data.py).
Exit status 1 and one line per problem.
"""

from __future__ import annotations

import io
import re
import struct
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import botocore_data  # noqa: E402
from chalice_cli import (  # noqa: E402
    ARCHITECTURE_MACHINES,
    DEFAULT_ARCHITECTURE,
    LAMBDA_RUNTIME,
    RUNTIME_GLIBC,
    platform_glibc,
)

GLIBC_VERSION = re.compile(r"GLIBC_(\d+)\.(\d+)(?:\.(\d+))?$")
# importlib.util.MAGIC_NUMBER of CPython 3.12 (3531): a .pyc of any other version is recompiled on import.
RUNTIME_MAGIC = b"\xcb\r\r\n"
RUNTIME_CACHE_TAG = "cpython-312"
# PEP 552 flags word: bit 0 hash-based, bit 1 check the source. Unchecked hash: 0b01.
UNCHECKED_HASH_FLAGS = 0b01
# wheel-tag machine -> pyelftools' name of the ELF e_machine it must carry
ELF_MACHINES = {"x86_64": "EM_X86_64", "aarch64": "EM_AARCH64"}


@dataclass
class Report:
    glibc_needed: dict[str, tuple[int, int]] = field(default_factory=dict)  # .so -> highest GLIBC_ needed
    problems: list[str] = field(default_factory=list)

    bytecode: int = 0  # .py files with a fitting .pyc

    @property
    def max_glibc(self) -> tuple[int, int] | None:
        return max(self.glibc_needed.values(), default=None)


def glibc_versions(elf_bytes: bytes) -> set[tuple[int, int]]:
    """The GLIBC_x.y versions an ELF shared object needs."""
    from elftools.elf.elffile import ELFFile
    from elftools.elf.gnuversions import GNUVerNeedSection

    found = set()
    elf = ELFFile(io.BytesIO(elf_bytes))
    for section in elf.iter_sections():
        if not isinstance(section, GNUVerNeedSection):
            continue
        for _library, auxiliaries in section.iter_versions():
            for aux in auxiliaries:
                match = GLIBC_VERSION.match(aux.name)
                if match:
                    found.add((int(match[1]), int(match[2])))
    return found


def elf_machine(elf_bytes: bytes) -> str:
    """The ELF header's machine, as pyelftools names it (``EM_X86_64``, ``EM_AARCH64``)."""
    from elftools.elf.elffile import ELFFile

    return ELFFile(io.BytesIO(elf_bytes)).header["e_machine"]


def _owners(archive: zipfile.ZipFile) -> dict[str, str]:
    """Path in the zip -> the dist-info directory whose RECORD lists it."""
    owners = {}
    for name in archive.namelist():
        if name.endswith(".dist-info/RECORD"):
            dist_info = name.rsplit("/", 1)[0]
            for line in archive.read(name).decode().splitlines():
                path = line.split(",", 1)[0]
                if path:
                    owners[path] = dist_info
    return owners


def wheel_tags(archive: zipfile.ZipFile, dist_info: str) -> list[str]:
    text = archive.read(f"{dist_info}/WHEEL").decode()
    return [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("Tag:")]


def cached_name(source: str, cache_tag: str = RUNTIME_CACHE_TAG) -> str:
    """``pkg/mod.py`` -> ``pkg/__pycache__/mod.cpython-312.pyc`` (PEP 3147)."""
    directory, _, filename = source.rpartition("/")
    return f"{directory + '/' if directory else ''}__pycache__/{filename[:-3]}.{cache_tag}.pyc"


def bytecode_problems(archive: zipfile.ZipFile, report: Report) -> list[str]:
    """What keeps the runtime from importing the zip's modules without compiling them."""
    names = set(archive.namelist())
    missing, wrong_magic, checked = [], [], []
    for source in sorted(name for name in names if name.endswith(".py")):
        cached = cached_name(source)
        if cached not in names:
            missing.append(source)
            continue
        magic, flags = struct.unpack("<4sI", archive.read(cached)[:8])
        if magic != RUNTIME_MAGIC:
            wrong_magic.append(cached)
        elif flags != UNCHECKED_HASH_FLAGS:
            checked.append(cached)
        else:
            report.bytecode += 1
    problems = []
    for found, what in (
        (missing, "have no .pyc for CPython 3.12"),
        (wrong_magic, "are .pyc of another Python version (magic number)"),
        (checked, "are .pyc checked against their source (not unchecked-hash)"),
    ):
        if found:
            shown = ", ".join(found[:5]) + (f" and {len(found) - 5} more" if len(found) > 5 else "")
            problems.append(f"{len(found)} modules {what}: {shown}")
    return problems


def botocore_data_problems(archive: zipfile.ZipFile) -> list[str]:
    """The trimmed botocore data (scripts/botocore_data.py): every service the functions use has its model and
    endpoint rules, and no rule calls a function an older runtime botocore (down to the floor) lacks."""
    import json

    prefix = f"{botocore_data.DIRECTORY}/"
    names = [name for name in archive.namelist() if name.startswith(prefix)]
    problems = [f"{prefix}{n}.json is missing" for n in botocore_data.ROOT_FILES if f"{prefix}{n}.json" not in names]
    for service in botocore_data.packaged_services():
        for kind in ("service-2", "endpoint-rule-set-1"):
            found = [n for n in names if n.startswith(f"{prefix}{service}/") and n.endswith(f"/{kind}.json")]
            if not found:
                problems.append(f"{prefix} has no {kind} of {service}")
            if kind == "endpoint-rule-set-1":
                for name in found:
                    called = botocore_data.rule_functions(json.loads(archive.read(name)))
                    if unknown := called - botocore_data.RULE_FUNCTIONS:
                        problems.append(f"{name} calls {sorted(unknown)}, which the floor's botocore lacks")
    return problems


def check(
    zip_path: str | Path, glibc: tuple[int, int] = RUNTIME_GLIBC, architecture: str = DEFAULT_ARCHITECTURE
) -> Report:
    report = Report()
    machine = ARCHITECTURE_MACHINES[architecture]
    with zipfile.ZipFile(zip_path) as archive:
        owners = _owners(archive)
        checked_dists = set()
        for name in archive.namelist():
            if not (name.endswith(".so") or ".so." in name.rsplit("/", 1)[-1]):
                continue
            elf = archive.read(name)
            built_for = elf_machine(elf)
            if built_for != ELF_MACHINES[machine]:
                report.problems.append(f"{name} is built for {built_for}, the stage runs on {architecture}")
            needed = glibc_versions(elf)
            if needed:
                report.glibc_needed[name] = max(needed)
                if max(needed) > glibc:
                    have = ".".join(map(str, glibc))
                    report.problems.append(f"{name} needs GLIBC_{'.'.join(map(str, max(needed)))}, runtime has {have}")
            owner = owners.get(name)
            if owner is None:
                report.problems.append(f"{name} belongs to no wheel (no RECORD lists it): built or copied by hand?")
                continue
            if owner in checked_dists:
                continue
            checked_dists.add(owner)
            platforms = [tag.rsplit("-", 1)[-1] for tag in wheel_tags(archive, owner)]
            fitting = [p for p in platforms if (platform_glibc(p, machine) or (99, 0)) <= glibc]
            if not fitting:
                report.problems.append(
                    f"{owner} is not a manylinux {machine} wheel for glibc <= {glibc}: tags {platforms}"
                )
        report.problems += bytecode_problems(archive, report)
        report.problems += botocore_data_problems(archive)
    return report


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("zip")
    parser.add_argument("--architecture", choices=sorted(ARCHITECTURE_MACHINES), default=DEFAULT_ARCHITECTURE)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    report = check(args.zip, architecture=args.architecture)
    top = report.max_glibc
    print(
        f"{len(report.glibc_needed)} extensions; highest glibc needed: {'.'.join(map(str, top)) if top else '-'}"
        f" (Lambda {LAMBDA_RUNTIME}: {'.'.join(map(str, RUNTIME_GLIBC))}); {report.bytecode} modules compiled"
    )
    for problem in report.problems:
        print(f"package_check: {problem}", file=sys.stderr)
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
