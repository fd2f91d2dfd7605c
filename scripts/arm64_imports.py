"""The app's imports under an aarch64 CPython, on a machine without an arm64 CPU:

    .venv/bin/python scripts/arm64_imports.py --rootfs /path/to/arm64/tree

``--rootfs`` is a directory holding an arm64 Linux userland with a CPython 3 (``usr/bin/python3.N``), run with
``qemu-aarch64-static -L <rootfs>`` (Debian's qemu-user-static; no binfmt registration or chroot needed). One way
to make it, as root, a few minutes and about 60 MB (Debian has no 3.12; trixie has 3.13)::

    apt-get install qemu-user-static debootstrap
    debootstrap --foreign --arch arm64 --variant=minbase --include=python3.13-minimal,libpython3.13-stdlib \\
        trixie /srv/arm64 http://deb.debian.org/debian
    for deb in /srv/arm64/var/cache/apt/archives/*.deb; do dpkg-deb -x "$deb" /srv/arm64; done

What it proves: every dependency of requirements.txt resolves to a wheel for aarch64 (scripts/chalice_cli.py's
strict download, for that Python's ABI), every compiled extension in them is an AArch64 ELF, and under the aarch64
interpreter the app imports with every route's handler module and every queue kind's, Pillow decodes and resizes a
JPEG through the upload's own code and phonenumbers parses a number. The Python is the tree's, so with Debian's 3.13
the wheels are the cp313 builds of the same releases the python3.12 package pins. Exit status 1 on any failure.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from chalice_cli import download_wheels  # noqa: E402
from package_check import ELF_MACHINES, elf_machine  # noqa: E402

QEMU = "qemu-aarch64-static"

_CHILD = """
import io, json, platform, sys
import app  # noqa: F401  - every route declared, as on a cold start
from chalicelib.jobs.queue_handler import handler_of  # imports every module that declares a queue kind
from chalicelib.loading import load_handler
from chalicelib.messaging.notifications.kinds import declared_kinds
for spec in [spec for blueprint in app.API_BLUEPRINTS for spec in blueprint.specs]:
    load_handler(spec.handler)  # each route's handler module, loaded by its first call in production
for kind in declared_kinds():
    handler_of(kind)  # each queue kind's handler, registered when the worker loaded the services
from PIL import Image
from chalicelib.services.media.images import process_image
import phonenumbers
out = io.BytesIO()
Image.new("RGB", (1600, 1200), (200, 120, 40)).save(out, "JPEG")
process_image(out.getvalue(), max_bytes=len(out.getvalue()) + 1, max_pixels=40_000_000)
phonenumbers.parse("+14155550190")
print(json.dumps({"machine": platform.machine(), "python": platform.python_version(),
                  "pillow": Image.__version__, "routes": len(app.app.routes)}))
"""


def tree_python(rootfs: Path) -> Path:
    found = sorted(rootfs.glob("usr/bin/python3.[0-9]*"), key=lambda p: len(p.name))
    found = [p for p in found if p.name.replace("python", "").replace(".", "").isdigit()]
    if not found:
        raise SystemExit(f"no usr/bin/python3.N in {rootfs}")
    return found[-1]


def run_arm64(rootfs: Path, python: Path, args: list[str], env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([QEMU, "-L", str(rootfs), str(python), *args], env=env, capture_output=True, text=True)


def _add_chalice_runtime(site: Path) -> None:
    """What ``chalice package`` puts in every zip of Chalice itself: its package's __init__ and app modules."""
    import chalice

    (site / "chalice").mkdir()
    for name in ("__init__.py", "app.py"):
        shutil.copy(Path(chalice.__file__).parent / name, site / "chalice" / name)


def prove(rootfs: Path) -> dict:
    if shutil.which(QEMU) is None:
        raise SystemExit(f"{QEMU} is not installed (Debian: apt-get install qemu-user-static)")
    python = tree_python(rootfs)
    version = run_arm64(rootfs, python, ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"], {})
    if version.returncode:
        raise SystemExit(f"the tree's Python does not run under {QEMU}:\n{version.stderr}")
    runtime = f"python{version.stdout.strip()}"
    with tempfile.TemporaryDirectory(prefix="arm64-imports-") as scratch:
        wheels, site = Path(scratch) / "wheels", Path(scratch) / "site"
        wheels.mkdir()
        names = download_wheels(str(ROOT / "requirements.txt"), str(wheels), runtime=runtime, machine="aarch64")
        for name in names:
            with zipfile.ZipFile(wheels / name) as wheel:
                wheel.extractall(site)
        _add_chalice_runtime(site)
        extensions = [p for p in site.rglob("*.so*") if p.is_file()]
        foreign = [
            str(p.relative_to(site)) for p in extensions if elf_machine(p.read_bytes()) != ELF_MACHINES["aarch64"]
        ]
        if foreign:
            raise SystemExit(f"not AArch64: {', '.join(foreign)}")
        from tests.utils.aws_env import TEST_ENVIRONMENT

        env = {**TEST_ENVIRONMENT, "PYTHONPATH": f"{ROOT}{os.pathsep}{site}", "PYTHONDONTWRITEBYTECODE": "1"}
        done = run_arm64(rootfs, python, ["-c", _CHILD], env)
        if done.returncode:
            raise SystemExit(f"the app does not import under aarch64 {runtime}:\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result.update(wheels=[n for n in names if not n.endswith("-none-any.whl")], extensions=len(extensions))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rootfs", required=True, type=Path)
    args = parser.parse_args(argv)
    print(json.dumps(prove(args.rootfs), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
