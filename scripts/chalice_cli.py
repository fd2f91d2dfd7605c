"""Chalice's CLI as this project runs it: ``.venv/bin/python scripts/chalice_cli.py [--settings FILE] <command> ...``.

Chalice 1.34 takes the Lambda runtime from the interpreter that runs it (``Config.lambda_python_version``), and
its packager accepts any wheel whose tag it thinks fits, builds the rest from source on this machine, and goes
on with a warning when that fails. That once shipped a Pillow built against the build host's libraries. Here:

1. **The runtime is fixed**: ``LAMBDA_RUNTIME`` (python3.12, Amazon Linux 2023, glibc 2.34), whatever Python
   runs the deploy (3.11 works: nothing is compiled here).
2. **Binary wheels only**, and nothing the runtime has already (``RUNTIME_PROVIDED``): every dependency of
   requirements.txt is resolved by ``pip download
   --only-binary=:all:`` for that runtime (``--python-version 3.12 --abi cp312`` and every manylinux tag up to
   glibc 2.34); a wheel tagged ``linux_x86_64`` (a local build) or needing a newer glibc is refused, nothing is
   built from an sdist, and a dependency without a fitting wheel stops the command with its name (exit 1).
3. **Generated stage settings** (``--settings build/stages/<stage>.json``, written by scripts/deploy.py from the
   stack's outputs; git-ignored): merged into the stage of ``.chalice/config.json`` in memory, never into the
   tracked file. ``deploy`` and ``package`` of dev/prod refuse a placeholder, a missing setting or a
   ``PIN_SECRET`` in the functions' environment (the key is read from SSM at run time).
4. **``local``** answers a path the API does not have as API Gateway does once deployed with the project's
   gateway responses (scripts/gateway.py): 404 ``{"detail": "Not found."}``, never echoing ``Authorization``;
   and a 204 whose Lambda response sets ``Content-Type`` to null (chalicelib/api/responses.py) with neither body
   nor Content-Type, as API Gateway's proxy integration does (``chalice local`` would send
   ``application/json`` for a missing header and the text "None" for a null one).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

LAMBDA_RUNTIME = "python3.12"
# Amazon Linux 2023, the OS of the python3.12 and python3.13 runtimes, has glibc 2.34.
RUNTIME_GLIBC = (2, 34)
MACHINE = "x86_64"
DEPLOYED_STAGES = ("dev", "prod")
# What a deployed function cannot run without (besides STAGE); filled from the stack by scripts/deploy.py.
REQUIRED_SETTINGS = (
    "STAGE",
    "USERS_TABLE",
    "AUTH_TABLE",
    "EVENTS_TABLE",
    "AVATAR_BUCKET",
    "AVATAR_BASE_URL",
    "APNS_PLATFORM_APPLICATION_ARN",
    "NOTIFICATIONS_QUEUE_URL",
    "NOTIFICATIONS_QUEUE_NAME",
    "PIN_KEY_PARAMETER",
)
# Distributions the Lambda Python runtime already has (boto3 and what it needs): PynamoDB pulls botocore in,
# which alone is most of the zip. Left out, the functions use the runtime's copies.
RUNTIME_PROVIDED = frozenset({"boto3", "botocore", "s3transfer", "jmespath", "python_dateutil", "six", "urllib3"})
# Settings that must never sit in a function's environment.
FORBIDDEN_SETTINGS = ("PIN_SECRET",)


class DeployRefused(Exception):
    """A problem that stops a deploy or package before anything is built or sent."""


# --- wheels ----------------------------------------------------------------------------------------------


def runtime_abi(runtime: str = LAMBDA_RUNTIME) -> str:
    major, minor = runtime.removeprefix("python").split(".")
    return f"cp{major}{minor}"


def pip_platforms(glibc: tuple[int, int] = RUNTIME_GLIBC, machine: str = MACHINE) -> list[str]:
    """Every manylinux tag a wheel for this runtime may carry (pip takes --platform literally)."""
    major, top = glibc
    tags = [f"manylinux_{major}_{minor}_{machine}" for minor in range(17, top + 1)]
    return [*tags, f"manylinux2014_{machine}", f"manylinux2010_{machine}", f"manylinux1_{machine}"]


_LEGACY_MANYLINUX = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}


def platform_glibc(platform: str, machine: str = MACHINE) -> tuple[int, int] | None:
    """The glibc a manylinux platform tag needs, or None when the tag is not manylinux for ``machine``."""
    match = re.fullmatch(r"manylinux_(\d+)_(\d+)_(.+)", platform)
    if match:
        return (int(match[1]), int(match[2])) if match[3] == machine else None
    legacy, _, arch = platform.partition("_")
    return _LEGACY_MANYLINUX.get(legacy) if arch == machine else None


def wheel_fits(filename: str, runtime: str = LAMBDA_RUNTIME, glibc: tuple[int, int] = RUNTIME_GLIBC) -> bool:
    """True when the wheel runs on the Lambda runtime: pure Python, or a manylinux build for its CPython
    ABI (or abi3) needing at most its glibc. ``linux_x86_64`` (built on some machine) never fits."""
    if not filename.endswith(".whl"):
        return False
    interpreters, abis, platforms = filename[: -len(".whl")].split("-")[-3:]
    abi = runtime_abi(runtime)
    for interpreter in interpreters.split("."):
        for wheel_abi in abis.split("."):
            for platform in platforms.split("."):
                if platform == "any":
                    if wheel_abi == "none" and interpreter.startswith(("py3", "cp3")):
                        return True
                    continue
                needed = platform_glibc(platform)
                if needed is None or needed > glibc:
                    continue
                if wheel_abi == abi or (wheel_abi == "abi3" and interpreter.startswith("cp3")):
                    return True
    return False


def download_wheels(requirements: str, directory: str, runtime: str = LAMBDA_RUNTIME) -> list[str]:
    """``pip download`` of the whole dependency closure, binary wheels for the runtime only.

    Raises DeployRefused naming what has no fitting wheel."""
    version = runtime.removeprefix("python")
    command = [sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "--only-binary=:all:"]
    command += ["--implementation", "cp", "--python-version", version, "--abi", runtime_abi(runtime)]
    for platform in pip_platforms():
        command += ["--platform", platform]
    command += ["--dest", directory, "-r", requirements]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        missing = re.findall(r"No matching distribution found for (\S+)", result.stderr)
        what = ", ".join(missing) or result.stderr.strip().splitlines()[-1:]
        raise DeployRefused(
            f"no wheel of {what} fits Lambda {runtime} (manylinux up to glibc "
            f"{RUNTIME_GLIBC[0]}.{RUNTIME_GLIBC[1]}, {MACHINE}); nothing is built from source: pin a version "
            f"that publishes one\n{result.stderr.strip()}"
        )
    files = sorted(p.name for p in Path(directory).iterdir())
    unfit = [name for name in files if not wheel_fits(name, runtime)]
    if unfit:
        raise DeployRefused(f"these do not fit Lambda {runtime}: {', '.join(unfit)}")
    return files


def _install_manylinux_builder() -> None:
    """Chalice's dependency builder, made strict: our download, no sdist builds, missing = fatal."""
    from chalice.deploy import deployer, packager

    class ManylinuxOnlyDependencyBuilder(packager.DependencyBuilder):
        def _download_dependencies(self, abi, directory, requirements_filename):
            if abi != runtime_abi():
                raise DeployRefused(f"chalice asked for {abi}, this project deploys {LAMBDA_RUNTIME}")
            wheels = {
                packager.Package(directory, name)
                for name in download_wheels(requirements_filename, directory)
                if name.split("-", 1)[0].lower() not in RUNTIME_PROVIDED
            }
            return wheels, set()

    deployer.PipDependencyBuilder = ManylinuxOnlyDependencyBuilder

    original = packager.BaseLambdaDeploymentPackager._deployment_package_filename

    def cache_name(self, project_dir, python_version, prefix=""):
        # a zip cached by plain chalice (which may hold sdist builds) is never reused
        return original(self, project_dir, python_version, prefix=f"{prefix}manylinux-")

    packager.BaseLambdaDeploymentPackager._deployment_package_filename = cache_name


def _fix_runtime() -> None:
    import warnings

    from chalice import config

    config.Config.lambda_python_version = property(lambda self: LAMBDA_RUNTIME)
    # chalice warns when the deploying Python differs from the runtime: here that is by design
    warnings.filterwarnings("ignore", message="You are currently running python")


# --- stage settings --------------------------------------------------------------------------------------


def is_placeholder(value) -> bool:
    return isinstance(value, str) and value.strip().startswith("<")


def stage_problems(stage: str, stage_config: dict) -> list[str]:
    """What stops a deployable stage: missing or placeholder settings, a pin key in the environment."""
    env = stage_config.get("environment_variables", {})
    found = [f"{name} is not set (run `make deploy STAGE={stage}`)" for name in REQUIRED_SETTINGS if not env.get(name)]
    found += [f"{name} is still a placeholder: {value}" for name, value in env.items() if is_placeholder(value)]
    found += [
        f"{name} must not be in the environment (the key is read from SSM)"
        for name in FORBIDDEN_SETTINGS
        if name in env
    ]
    for function in (stage_config.get("lambda_functions") or {}).values():
        for name in FORBIDDEN_SETTINGS:
            if name in (function.get("environment_variables") or {}):
                found.append(f"{name} must not be in a function's environment")
    if env.get("STAGE") and env["STAGE"] != stage:
        found.append(f"STAGE is {env['STAGE']!r}, not {stage!r}")
    return found


def merged_config(config: dict, stage: str | None, settings: dict | None) -> dict:
    """``config`` with ``settings`` ({"environment_variables": {...}, other stage keys...}) over its stage."""
    if not settings or stage is None:
        return config
    merged = json.loads(json.dumps(config))
    target = merged["stages"].setdefault(stage, {})
    for key, value in settings.items():
        if key == "environment_variables":
            target[key] = {**target.get(key, {}), **value}
        else:
            target[key] = value
    return merged


def _option(argv: list[str], name: str) -> str | None:
    for index, arg in enumerate(argv):
        if arg == name and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith(f"{name}="):
            return arg.split("=", 1)[1]
    return None


def _install_settings(argv: list[str], settings_file: str | None) -> None:
    from chalice.cli import factory

    command = next((arg for arg in argv if not arg.startswith("-")), None)
    stage = _option(argv, "--stage") or "dev"
    settings = json.loads(Path(settings_file).read_text()) if settings_file else None
    original = factory.CLIFactory.load_project_config

    def load_project_config(self):
        config = merged_config(original(self), stage, settings)
        if command in ("deploy", "package") and stage in DEPLOYED_STAGES:
            problems = stage_problems(stage, config["stages"].get(stage, {}))
            if problems:
                raise DeployRefused(f"stage {stage} is not deployable:\n  " + "\n  ".join(problems))
        return config

    factory.CLIFactory.load_project_config = load_project_config


# --- chalice local ---------------------------------------------------------------------------------------


def _install_local_not_found() -> None:
    from chalice import local
    from gateway import NOT_FOUND_BODY

    class NotFoundError(local.LocalGatewayException):
        CODE = 404

    original = local.LocalGateway.handle_request

    def handle_request(self, method, path, headers, body):
        try:
            self._generate_lambda_event(method, path, headers, body)
        except ValueError:  # no route: what the deployed gateway response answers
            raise NotFoundError({"Content-Type": "application/json"}, NOT_FOUND_BODY.encode()) from None
        return original(self, method, path, headers, body)

    local.LocalGateway.handle_request = handle_request


def _install_local_no_content() -> None:
    from chalice import local

    send = local.ChaliceRequestHandler._send_http_response

    def send_without_null_content_type(self, code, headers, body):
        if headers.get("Content-Type", "") is None and not body:
            del headers["Content-Type"]
            self._send_http_response_no_body(code, headers)
            return
        send(self, code, headers, body)

    local.ChaliceRequestHandler._send_http_response = send_without_null_content_type


# --- main -----------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    settings_file = None
    if argv[:1] == ["--settings"]:
        settings_file, argv = argv[1], argv[2:]
    import click
    from botocore.exceptions import NoRegionError
    from chalice import cli

    os.environ["INVITES_CHALICE_CLI"] = "1"  # app.py refuses plain chalice for deployed stages
    _fix_runtime()
    _install_manylinux_builder()
    _install_settings(argv, settings_file)
    _install_local_not_found()
    _install_local_no_content()
    try:
        cli.cli.main(args=argv, prog_name="chalice", obj={}, standalone_mode=False)
    except DeployRefused as refused:
        print(f"chalice_cli: {refused}", file=sys.stderr)
        return 1
    except NoRegionError:
        print("chalice_cli: no AWS region: set AWS_DEFAULT_REGION (or a region in ~/.aws/config)", file=sys.stderr)
        return 2
    except click.exceptions.Exit as done:
        return done.exit_code
    except click.ClickException as error:
        error.show()
        return error.exit_code
    except click.Abort:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
