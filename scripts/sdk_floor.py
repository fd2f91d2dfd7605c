"""The unit and API tests against the oldest AWS SDK the functions may meet on Lambda (infra/sdk-floor.txt).

    .venv/bin/python scripts/sdk_floor.py [pytest arguments]     # CI runs it after `make test`

The floor's boto3, botocore and s3transfer are installed once into build/sdk-floor (git-ignored; ``pip install
--no-deps --target``) and put ahead of the environment's own on PYTHONPATH, so everything else (moto, pytest,
the app's dependencies) stays as the environment has it. The run is the fast suite (``-m "not slow"``);
INVITES_SDK_FLOOR tells tests/infra/test_sdk_floor.py which botocore it must find.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLOOR_FILE = ROOT / "infra" / "sdk-floor.txt"
TARGET = ROOT / "build" / "sdk-floor"


def pins(path: Path = FLOOR_FILE) -> dict[str, str]:
    """{distribution: version} of the floor file's ``name==version`` lines."""
    found = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            found[name.strip().lower()] = version.strip()
    return found


def installed(target: Path = TARGET) -> dict[str, str]:
    found = {}
    for info in target.glob("*.dist-info"):
        name, _, version = info.name.removesuffix(".dist-info").rpartition("-")
        found[name.lower().replace("_", "-")] = version
    return found


def install(floor: dict[str, str], target: Path = TARGET) -> None:
    if all(installed(target).get(name) == version for name, version in floor.items()):
        return
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps"]
    command += ["--upgrade", "--target", str(target), *(f"{name}=={version}" for name, version in floor.items())]
    subprocess.run(command, check=True)


def main(argv: list[str] | None = None) -> int:
    floor = pins()
    install(floor)
    env = {**os.environ, "INVITES_SDK_FLOOR": floor["botocore"]}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TARGET), os.environ.get("PYTHONPATH")]))
    arguments = list(sys.argv[1:] if argv is None else argv) or ["-n", "2", "-m", "not slow"]
    print(f"sdk_floor: unit and API tests with boto3 {floor['boto3']}, botocore {floor['botocore']}", flush=True)
    failed = subprocess.run([sys.executable, "-m", "pytest", *arguments], cwd=ROOT, env=env).returncode
    if failed or argv or sys.argv[1:]:
        return failed
    # The one check that needs both botocores: data packaged from this environment's, read by the floor's (it
    # skips in `make test`, which runs before the floor is installed, and in the floor's own run above).
    print("sdk_floor: the floor's botocore reads data packaged from this environment's", flush=True)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:xdist", "tests/infra/test_botocore_data.py", "-rs"], cwd=ROOT
    ).returncode


if __name__ == "__main__":
    sys.exit(main())
