"""Cold start as Lambda runs it: the deployment zip unpacked read-only, on CPython 3.12, no bytecode written.

    python scripts/cold_start_zip.py [runs]     # packages the app, prints the figures as JSON

The app side is the zip ``scripts/chalice_cli.py package`` makes (with its unchecked-hash ``.pyc``). The
baseline is scripts/cold_start_baseline.py (a minimal Chalice + PynamoDB + boto3 handler making the same three
reads) in the same package as Chalice packages by default: the same files, no ``.pyc``. boto3, botocore and
their dependencies are not in either zip: as on Lambda, they come from a runtime directory both sides share,
compiled once, as the runtime image ships them. Each side's directory is made read-only (``chmod a-w``) and the
children run with PYTHONDONTWRITEBYTECODE=1, so nothing compiled during a run is kept for the next, as on
``/var/task``. Runs are paired (app and baseline, which goes first alternating) against one moto server on
127.0.0.1; the figure is the median of the per-pair ratios. The in-venv figure of scripts/cold_start.py stays
beside it in bench-results.json.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import statistics
import subprocess
import sys
import tempfile
import zipfile
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from chalice_cli import runtime_python  # noqa: E402

from scripts.cold_start import _CHILD, _SEED, _run, moto_server, proxy_event  # noqa: E402
from tests.utils.aws_env import TEST_ENVIRONMENT  # noqa: E402

# _CHILD, then the same request again on the now-warm handler: a cold start that only moved its work to the
# first warm request would show here.
_CHILD_AND_SECOND = (
    _CHILD
    + """
started = time.perf_counter()
answer = handler(json.loads(sys.argv[2]), None)
if answer["statusCode"] != 200:
    raise SystemExit(f"{sys.argv[1]} (second request): {answer}")
print((time.perf_counter() - started) * 1000)
"""
)

# What the runtime directory takes from this environment: the import names of chalice_cli.RUNTIME_PROVIDED.
RUNTIME_MODULES = ("boto3", "botocore", "s3transfer", "jmespath", "dateutil", "six.py", "urllib3")


def package(out: Path) -> Path:
    """``chalice package`` of the "local" stage (no stack settings needed; same code and dependencies)."""
    env = {**os.environ, "AWS_DEFAULT_REGION": os.environ.get("AWS_DEFAULT_REGION", "us-east-1")}
    command = [sys.executable, str(ROOT / "scripts" / "chalice_cli.py"), "package", "--stage", "local", str(out)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"packaging failed:\n{done.stdout}{done.stderr}")
    return out / "deployment.zip"


def unpack(zip_path: Path, target: Path, *, bytecode: bool) -> int:
    """The zip's files under ``target``; without ``bytecode``, as Chalice packages by default. Returns .pyc count."""
    with zipfile.ZipFile(zip_path) as archive:
        members = [n for n in archive.namelist() if bytecode or "__pycache__/" not in n]
        archive.extractall(target, members)
    return sum(1 for _ in target.rglob("*.pyc"))


def runtime_directory(target: Path, python: str) -> None:
    """boto3 and what it needs, from this environment, compiled by the runtime's Python (as the runtime has them)."""
    import boto3

    site = Path(boto3.__file__).resolve().parent.parent
    for name in RUNTIME_MODULES:
        source = site / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.exists():
            shutil.copy(source, target / name)
    subprocess.run([python, "-m", "compileall", "-q", "-j", "0", str(target)], check=True, capture_output=True)


def read_only(path: Path) -> None:
    for item in [path, *path.rglob("*")]:
        mode = item.stat().st_mode
        item.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def writable(path: Path) -> None:
    for item in [path, *path.rglob("*")]:
        item.chmod(item.stat().st_mode | stat.S_IWUSR)


@contextmanager
def task_directories(zip_path: Path, python: str, app_bytecode: bool = True):
    """(app dir, baseline dir, runtime dir, .pyc files in the app dir), all read-only while in use.

    ``app_bytecode=False`` unpacks the app as a default package too: the figure before the zip carried .pyc."""
    scratch = Path(tempfile.mkdtemp(prefix="cold-start-zip-"))
    try:
        app_dir, baseline_dir, runtime_dir = scratch / "app", scratch / "baseline", scratch / "runtime"
        compiled = unpack(zip_path, app_dir, bytecode=app_bytecode)
        unpack(zip_path, baseline_dir, bytecode=False)
        shutil.copy(ROOT / "scripts" / "cold_start_baseline.py", baseline_dir / "cold_start_baseline.py")
        runtime_directory(runtime_dir, python)
        for directory in (app_dir, baseline_dir, runtime_dir):
            read_only(directory)
        yield app_dir, baseline_dir, runtime_dir, compiled
    finally:
        writable(scratch)
        shutil.rmtree(scratch, ignore_errors=True)


def _child_env(endpoint: str, task: Path, runtime_dir: Path) -> dict[str, str]:
    """Only what a Lambda function has: its settings, credentials, and the task and runtime paths."""
    env = {key: os.environ[key] for key in ("PATH", "HOME", "LANG") if key in os.environ}
    env.update(TEST_ENVIRONMENT)
    env.update(
        AWS_ENDPOINT_URL=endpoint,
        PYTHONPATH=f"{task}{os.pathsep}{runtime_dir}",
        PYTHONDONTWRITEBYTECODE="1",
        LAMBDA_TASK_ROOT=str(task),
    )
    return env


def _timed(python: str, env: dict, cwd: Path, module: str, event: str) -> tuple[float, float]:
    """(ms to the first answer from a fresh process, ms of the second answer of the same request)."""
    done = subprocess.run(
        [python, "-s", "-c", _CHILD_AND_SECOND, module, event],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"cold start child ({module}) failed:\n{done.stderr[-3000:]}")
    # the app's request log lines share stdout with the two figures
    first, second = [line for line in done.stdout.splitlines() if not line.startswith("{")][-2:]
    return float(first), float(second)


def cold_start_from_zip(runs: int, zip_path: Path | None = None, app_bytecode: bool = True) -> dict:
    """Median of ``runs`` paired first answers from the unpacked zip, app and default-packaged baseline."""
    python = runtime_python()
    with tempfile.TemporaryDirectory() as out:
        zip_path = zip_path or package(Path(out))
        zip_mb = round(zip_path.stat().st_size / 1024 / 1024, 2)
        with (
            task_directories(zip_path, python, app_bytecode) as (app_dir, baseline_dir, runtime_dir, compiled),
            moto_server() as endpoint,
        ):
            seed_env = {**os.environ, **TEST_ENVIRONMENT, "AWS_ENDPOINT_URL": endpoint, "PYTHONPATH": str(ROOT)}
            seed = json.loads(_run(_SEED, seed_env))
            event = json.dumps(proxy_event(seed["event_id"], seed["token"]))
            sides = {
                "app": (_child_env(endpoint, app_dir, runtime_dir), app_dir, "app"),
                "baseline": (_child_env(endpoint, baseline_dir, runtime_dir), baseline_dir, "cold_start_baseline"),
            }
            for env, cwd, module in sides.values():  # warm the disk cache; not counted
                _timed(python, env, cwd, module, event)
            times: dict[str, list[float]] = {"app": [], "baseline": []}
            seconds: dict[str, list[float]] = {"app": [], "baseline": []}
            for run in range(runs):  # which side goes first alternates, so neither always meets a warmer cache
                order = ("app", "baseline") if run % 2 == 0 else ("baseline", "app")
                for side in order:
                    env, cwd, module = sides[side]
                    first, second = _timed(python, env, cwd, module, event)
                    times[side].append(first)
                    seconds[side].append(second)
    version = subprocess.run(
        [python, "-c", "import platform; print(platform.python_version())"], capture_output=True, text=True, check=True
    ).stdout.strip()
    ratios = [app / base for app, base in zip(times["app"], times["baseline"], strict=True)]
    return {
        "runs": runs,
        "python": version,
        "app": round(statistics.median(times["app"]), 1),
        "baseline": round(statistics.median(times["baseline"]), 1),
        "ratio": round(statistics.median(ratios), 3),
        # for reading noisy runs: far from "ratio", the pairs disagreed (a busy machine)
        "ratio_of_medians": round(statistics.median(times["app"]) / statistics.median(times["baseline"]), 3),
        # the second request through the same (now warm) handler, medians: beside the first, not part of it
        "app_second_request": round(statistics.median(seconds["app"]), 1),
        "baseline_second_request": round(statistics.median(seconds["baseline"]), 1),
        "app_pyc_files": compiled,
        "zip_mb": zip_mb,
    }


if __name__ == "__main__":
    # --without-bytecode: both sides packaged the default way (the figure before the zip carried .pyc)
    arguments = [arg for arg in sys.argv[1:] if arg != "--without-bytecode"]
    runs = int(arguments[0]) if arguments else 11
    print(json.dumps(cold_start_from_zip(runs, app_bytecode="--without-bytecode" not in sys.argv), indent=2))
