"""Chalice's CLI as this project runs it: ``.venv/bin/python scripts/chalice_cli.py [--settings FILE] <command> ...``.

Chalice 1.34 takes the Lambda runtime from the interpreter that runs it (``Config.lambda_python_version``), and
its packager accepts any wheel whose tag it thinks fits, builds the rest from source on this machine, and goes
on with a warning when that fails. That once shipped a Pillow built against the build host's libraries. Here:

1. **The runtime is fixed**: ``LAMBDA_RUNTIME`` (python3.12, Amazon Linux 2023, glibc 2.34), whatever Python
   runs the deploy (3.11 works; only the bytecode of point 6 needs a CPython 3.12 on the machine).
2. **Binary wheels only**, and nothing the runtime has already (``RUNTIME_PROVIDED``): every dependency of
   requirements.txt is resolved by ``pip download
   --only-binary=:all:`` for that runtime (``--python-version 3.12 --abi cp312`` and every manylinux tag up to
   glibc 2.34); a wheel tagged ``linux_x86_64`` (a local build) or needing a newer glibc is refused, nothing is
   built from an sdist, and a dependency without a fitting wheel stops the command with its name (exit 1).
3. **Generated stage settings** (``--settings build/stages/<stage>.json``, written by scripts/deploy.py from the
   stack's outputs; git-ignored): merged into the stage of ``.chalice/config.json`` in memory, never into the
   tracked file. ``deploy`` and ``package`` of dev/prod refuse a placeholder, a missing setting or a
   ``PIN_SECRET`` in the functions' environment (the key is read from SSM at run time).
4. **Gateway responses in the API definition**: every swagger document Chalice generates (the one
   ``chalice deploy`` imports with ``PutRestApi`` in overwrite mode, and the SAM ``DefinitionBody`` of
   ``chalice package``) declares the gateway responses of scripts/gateway.py as
   ``x-amazon-apigateway-gateway-responses``, so no deploy path can leave API Gateway's defaults in place.
5. **Reserved concurrency** of the queue worker and the schedule from ``infra/stages.json``
   (``reserved_concurrency``), for ``deploy`` and ``package`` alike.
6. **Bytecode in the zip**: every ``.py`` of the deployment package (the app, chalice's runtime part and every
   dependency) gets its ``__pycache__/<name>.cpython-312.pyc``, compiled by CPython 3.12 (``LAMBDA_PYTHON``, else
   pyenv's 3.12) as unchecked-hash ``.pyc``: Python loads them without reading or stat-comparing the source,
   which matters on Lambda's read-only ``/var/task`` where nothing compiled at a cold start can be kept
   (docs/operations.md, "Bytecode in the package"). scripts/package_check.py refuses a zip without them.
   The zip also carries ``botocore_data/``: botocore's data for the services the functions use, trimmed
   (scripts/botocore_data.py), which chalicelib/aws.py reads before the runtime's copy. Babel's locale data
   keeps only the catalogue languages' files (scripts/babel_data.py); the cached zip is named by those languages.
7. **``local``** answers a path the API does not have as API Gateway does once deployed with the project's
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
# A stage's ``architecture`` (infra/stages.json: the Lambda name) -> the machine in wheel tags and ELF headers.
# Chalice's own packager maps it the same way when its ``lambda_architecture`` is set, which this CLI does.
ARCHITECTURE_MACHINES = {"x86_64": "x86_64", "arm64": "aarch64"}
# Chalice's own default, which a package of a stage not in infra/stages.json (``local``) gets.
DEFAULT_ARCHITECTURE = "x86_64"
# A deployed stage whose entry in infra/stages.json names no architecture: 20 % cheaper per GB-second, the same
# memory, every native wheel built for it and its imports proven (docs/operations.md, "The architecture").
NEW_STAGE_ARCHITECTURE = "arm64"
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
    "FCM_PLATFORM_APPLICATION_ARN",
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


def wheel_fits(
    filename: str, runtime: str = LAMBDA_RUNTIME, glibc: tuple[int, int] = RUNTIME_GLIBC, machine: str = MACHINE
) -> bool:
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
                needed = platform_glibc(platform, machine)
                if needed is None or needed > glibc:
                    continue
                if wheel_abi == abi or (wheel_abi == "abi3" and interpreter.startswith("cp3")):
                    return True
    return False


def download_wheels(
    requirements: str, directory: str, runtime: str = LAMBDA_RUNTIME, machine: str = MACHINE
) -> list[str]:
    """``pip download`` of the whole dependency closure, binary wheels for the runtime on ``machine`` only.

    Raises DeployRefused naming what has no fitting wheel."""
    version = runtime.removeprefix("python")
    command = [sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "--only-binary=:all:"]
    command += ["--implementation", "cp", "--python-version", version, "--abi", runtime_abi(runtime)]
    for platform in pip_platforms(machine=machine):
        command += ["--platform", platform]
    command += ["--dest", directory, "-r", requirements]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        missing = re.findall(r"No matching distribution found for (\S+)", result.stderr)
        what = ", ".join(missing) or result.stderr.strip().splitlines()[-1:]
        raise DeployRefused(
            f"no wheel of {what} fits Lambda {runtime} (manylinux up to glibc "
            f"{RUNTIME_GLIBC[0]}.{RUNTIME_GLIBC[1]}, {machine}); nothing is built from source: pin a version "
            f"that publishes one\n{result.stderr.strip()}"
        )
    files = sorted(p.name for p in Path(directory).iterdir())
    unfit = [name for name in files if not wheel_fits(name, runtime, machine=machine)]
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
                # self._machine: chalice's own mapping of the stage's lambda_architecture (aarch64 for arm64)
                for name in download_wheels(requirements_filename, directory, machine=self._machine)
                if name.split("-", 1)[0].lower() not in RUNTIME_PROVIDED
            }
            return wheels, set()

    deployer.PipDependencyBuilder = ManylinuxOnlyDependencyBuilder

    original = packager.BaseLambdaDeploymentPackager._deployment_package_filename

    def cache_name(self, project_dir, python_version, prefix=""):
        # a zip cached by plain chalice (which may hold sdist builds) is never reused, nor one whose Babel data
        # was cut for other catalogue languages
        import babel_data

        languages = "-".join(babel_data.project_locales(project_dir))
        return original(self, project_dir, python_version, prefix=f"{prefix}manylinux-{languages}-")

    packager.BaseLambdaDeploymentPackager._deployment_package_filename = cache_name


# --- bytecode ------------------------------------------------------------------------------------------

# Where the functions' code lives on Lambda: baked into the .pyc so tracebacks name the deployed files.
LAMBDA_TASK_ROOT = "/var/task"
PYENV_PYTHON = Path.home() / ".pyenv" / "versions" / "3.12.1" / "bin" / "python3.12"


_WHICH_PYTHON = "import sys, platform; print(platform.python_implementation(), *sys.version_info[:2])"


def runtime_python(runtime: str = LAMBDA_RUNTIME) -> str:
    """A CPython of the runtime's minor version, to compile the package with (a .pyc is version-specific)."""
    version = runtime.removeprefix("python")
    candidates = [os.environ.get("LAMBDA_PYTHON"), str(PYENV_PYTHON), f"python{version}"]
    for candidate in filter(None, candidates):
        try:
            found = subprocess.run(
                [
                    candidate,
                    "-c",
                    "import sys, platform; print(platform.python_implementation(), *sys.version_info[:2])",
                ],
                capture_output=True,
                text=True,
                check=False,
            ).stdout.split()
        except OSError:
            continue
        if found == ["CPython", *version.split(".")]:
            return candidate
    raise DeployRefused(
        f"no CPython {version} to compile the package for Lambda {runtime}: set LAMBDA_PYTHON to one "
        f"(tried {', '.join(filter(None, candidates))})"
    )


def compile_package(zip_path: str | Path, python: str | None = None) -> int:
    """Give every ``.py`` of the zip an unchecked-hash ``.pyc`` compiled by ``python`` (CPython 3.12).

    Any other bytecode in the zip goes (chalice copies chalicelib/ as it is, ``__pycache__`` of the deploying
    Python included). Returns how many were compiled; 0 when every module has its 3.12 ``.pyc`` already."""
    import shutil
    import tempfile
    import zipfile

    zip_path = Path(zip_path)
    with zipfile.ZipFile(zip_path) as archive:
        names = archive.namelist()
        sources = [name for name in names if name.endswith(".py")]
        if all(_cached_name(source) in names for source in sources):
            return 0
        kept = [info for info in archive.infolist() if "__pycache__/" not in info.filename]
        with tempfile.TemporaryDirectory() as scratch:
            root = Path(scratch) / "task"
            archive.extractall(root, [info.filename for info in kept])
            command = [python or runtime_python(), "-m", "compileall", "-q", "-j", "0"]
            command += ["--invalidation-mode", "unchecked-hash", "-s", str(root), "-p", LAMBDA_TASK_ROOT, str(root)]
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            compiled = sorted(path.relative_to(root).as_posix() for path in root.rglob("__pycache__/*.pyc"))
            if done.returncode and not compiled:
                raise DeployRefused(f"compiling the package failed:\n{done.stdout}{done.stderr}")
            rebuilt = zip_path.with_suffix(".pyc.zip")
            with zipfile.ZipFile(rebuilt, "w", zipfile.ZIP_DEFLATED) as out:
                for info in kept:
                    out.writestr(info, archive.read(info.filename))
                for name in compiled:
                    source = _source_of(name)
                    stamp = archive.getinfo(source).date_time if source in names else (2020, 1, 1, 0, 0, 0)
                    info = zipfile.ZipInfo(name, date_time=stamp)
                    info.external_attr = 0o644 << 16
                    info.compress_type = zipfile.ZIP_DEFLATED
                    out.writestr(info, (root / name).read_bytes())
            shutil.move(rebuilt, zip_path)
    return len(compiled)


def add_botocore_data(zip_path: str | Path) -> int:
    """Put the trimmed botocore data of scripts/botocore_data.py under ``botocore_data/`` in the zip (replacing
    any there: a cached zip may hold another botocore's). Returns how many files were written."""
    import shutil
    import tempfile
    import zipfile

    import botocore_data

    zip_path = Path(zip_path)
    prefix = f"{botocore_data.DIRECTORY}/"
    with tempfile.TemporaryDirectory() as scratch:
        files = botocore_data.build(Path(scratch) / botocore_data.DIRECTORY)
        rebuilt = zip_path.with_suffix(".data.zip")
        with zipfile.ZipFile(zip_path) as archive, zipfile.ZipFile(rebuilt, "w", zipfile.ZIP_DEFLATED) as out:
            for info in archive.infolist():
                if not info.filename.startswith(prefix):
                    out.writestr(info, archive.read(info.filename))
            for path in files:
                info = zipfile.ZipInfo(path.relative_to(scratch).as_posix(), date_time=(2020, 1, 1, 0, 0, 0))
                info.external_attr = 0o644 << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                out.writestr(info, path.read_bytes())
        shutil.move(rebuilt, zip_path)
    return len(files)


def _cached_name(source: str) -> str:
    """``pkg/mod.py`` -> ``pkg/__pycache__/mod.cpython-312.pyc``."""
    directory, _, filename = source.rpartition("/")
    tag = runtime_abi().replace("cp", "cpython-")
    return f"{directory + '/' if directory else ''}__pycache__/{filename[:-3]}.{tag}.pyc"


def _source_of(pyc_name: str) -> str:
    """``pkg/__pycache__/mod.cpython-312.pyc`` -> ``pkg/mod.py``."""
    directory, _, filename = pyc_name.rpartition("__pycache__/")
    return f"{directory}{filename.split('.', 1)[0]}.py"


def _install_bytecode() -> None:
    """Compile every package chalice makes or refreshes (a new zip, or the app injected into a cached one)."""
    import babel_data
    from chalice.deploy import packager

    if getattr(packager.LambdaDeploymentPackager, "compiles_bytecode", False):
        return
    create = packager.LambdaDeploymentPackager.create_deployment_package
    inject = packager.BaseLambdaDeploymentPackager.inject_latest_app

    def create_deployment_package(self, project_dir, python_version):
        package = create(self, project_dir, python_version)
        added = compile_package(package)
        if added:
            self._ui.write(f"Compiled {added} modules for {LAMBDA_RUNTIME} (unchecked-hash .pyc).\n")
        add_botocore_data(package)
        dropped = babel_data.trim(package)
        if dropped:
            self._ui.write(f"Left out {dropped} locale files of Babel no catalogue language needs.\n")
        return package

    def inject_latest_app(self, deployment_package_filename, project_dir):
        inject(self, deployment_package_filename, project_dir)
        _drop_bytecode(deployment_package_filename)  # the app's sources changed: its .pyc must too
        compile_package(deployment_package_filename)
        add_botocore_data(deployment_package_filename)

    packager.LambdaDeploymentPackager.create_deployment_package = create_deployment_package
    packager.BaseLambdaDeploymentPackager.inject_latest_app = inject_latest_app
    packager.LambdaDeploymentPackager.compiles_bytecode = True


def _drop_bytecode(zip_path: str) -> None:
    """Remove every .pyc of a zip (after chalice replaced the app's sources, the old ones no longer match)."""
    import shutil
    import zipfile

    rebuilt = f"{zip_path}.nopyc.zip"
    with zipfile.ZipFile(zip_path) as archive, zipfile.ZipFile(rebuilt, "w", zipfile.ZIP_DEFLATED) as out:
        for info in archive.infolist():
            if "__pycache__/" not in info.filename:
                out.writestr(info, archive.read(info.filename))
    shutil.move(rebuilt, zip_path)


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
    """What stops a deployable stage: missing or placeholder settings (the stack's, and the texting guards of
    scripts/stage_needs.py), a pin key in the environment."""
    import stage_needs

    env = stage_config.get("environment_variables", {})
    found = [f"{name} is not set (run `make deploy STAGE={stage}`)" for name in REQUIRED_SETTINGS if not env.get(name)]
    named_above = tuple(f"{name} " for name in REQUIRED_SETTINGS)
    found += [problem for problem in stage_needs.settings_problems(env) if not problem.startswith(named_above)]
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


def aws_needs_problems(stage: str, stage_config: dict, stage_settings: dict) -> list[str]:
    """scripts/stage_needs.py's list checked in AWS with the caller's credentials, as ``make deploy`` checks it."""
    import boto3
    import stage_needs
    from botocore.exceptions import BotoCoreError, ClientError

    env = stage_config.get("environment_variables", {})
    try:
        return stage_needs.stage_problems(boto3.session.Session(), stage, env, stage_settings)
    except (BotoCoreError, ClientError) as error:
        return [f"could not check the stage's keys and spend limit in AWS ({error}): package with the credentials "
                "of the account the stage deploys to (docs/deploy.md)"]  # fmt: skip


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


STAGES_FILE = ROOT / "infra" / "stages.json"


def with_reserved_concurrency(config: dict, stage: str, stage_settings: dict) -> dict:
    """``config`` with the stage's ``reserved_concurrency`` ({function: n}, infra/stages.json) on its functions.

    A burst of queue messages or a slow schedule then never takes the concurrency the API needs."""
    reserved = stage_settings.get("reserved_concurrency") or {}
    if not reserved:
        return config
    merged = json.loads(json.dumps(config))
    functions = merged["stages"].setdefault(stage, {}).setdefault("lambda_functions", {})
    for function, limit in reserved.items():
        functions.setdefault(function, {})["reserved_concurrency"] = int(limit)
    return merged


def stage_architecture(stage_settings: dict) -> str:
    """The Lambda architecture of a stage (infra/stages.json ``architecture``), refused when Lambda has no such."""
    architecture = stage_settings.get("architecture", NEW_STAGE_ARCHITECTURE)
    if architecture not in ARCHITECTURE_MACHINES:
        raise DeployRefused(f"architecture {architecture!r} is not one of {', '.join(ARCHITECTURE_MACHINES)}")
    return architecture


def with_architecture(config: dict, stage: str, stage_settings: dict) -> dict:
    """``config`` with the stage's architecture as chalice's ``lambda_architecture``: every function and the
    wheels chalice's packager asks for (manylinux ..._aarch64 for arm64) follow it."""
    merged = json.loads(json.dumps(config))
    merged["stages"].setdefault(stage, {})["lambda_architecture"] = stage_architecture(stage_settings)
    return merged


def cap_queue_pollers(app, stage_settings: dict):
    """Each SQS event source invokes its function at most as often as the function's reserved concurrency.

    The pollers of an SQS event source do not see the function's reserved concurrency: past it, invocations
    are throttled, the messages come back after the visibility timeout and, received 5 times, go to the
    dead-letter queue. Its maximum concurrency (ScalingConfig) keeps the pollers within the reserve."""
    from chalice.app import SQSEventConfig

    reserved = stage_settings.get("reserved_concurrency") or {}
    for source in app.event_sources:
        if isinstance(source, SQSEventConfig) and source.name in reserved:
            source.maximum_concurrency = int(reserved[source.name])
    return app


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
        stages = json.loads(STAGES_FILE.read_text())
        if stage in DEPLOYED_STAGES and stage in stages:
            config = with_reserved_concurrency(config, stage, stages[stage])
            config = with_architecture(config, stage, stages[stage])
        if command in ("deploy", "package") and stage in DEPLOYED_STAGES:
            problems = stage_problems(stage, config["stages"].get(stage, {}))
            if not problems:  # then what only AWS knows: the keys in SSM, SNS's spend limit
                problems = aws_needs_problems(stage, config["stages"][stage], stages.get(stage, {}))
            if problems:
                raise DeployRefused(f"stage {stage} is not deployable:\n  " + "\n  ".join(problems))
        return config

    factory.CLIFactory.load_project_config = load_project_config

    stages = json.loads(STAGES_FILE.read_text())
    if stage in DEPLOYED_STAGES and stage in stages:
        load_app = factory.CLIFactory.load_chalice_app

        def load_chalice_app(self, *args, **kwargs):
            return cap_queue_pollers(load_app(self, *args, **kwargs), stages[stage])

        factory.CLIFactory.load_chalice_app = load_chalice_app
        if command == "package":
            _install_snapstart_integration(stages[stage])


# --- the API definition --------------------------------------------------------------------------------


def _install_gateway_responses() -> None:
    """Every swagger generator of Chalice (deploy: Templated, package: CFN/Terraform) inherits this method."""
    from chalice.deploy import swagger
    from gateway import add_gateway_responses

    generate = swagger.SwaggerGenerator.generate_swagger
    if getattr(generate, "adds_gateway_responses", False):
        return

    def generate_swagger(self, app, rest_api=None):
        return add_gateway_responses(generate(self, app, rest_api))

    generate_swagger.adds_gateway_responses = True
    swagger.SwaggerGenerator.generate_swagger = generate_swagger


def _install_snapstart_integration(stage_settings: dict) -> None:
    """With the stage's ``snapstart`` on, ``chalice package``'s API definition invokes the API function's alias
    (scripts/pipeline.py publishes it with SnapStart): an unqualified ARN runs $LATEST, which SnapStart skips."""
    if not stage_settings.get("snapstart"):
        return
    from chalice.deploy import swagger
    from pipeline import SNAPSTART_ALIAS

    # SAM names the alias resource <function>Alias<name>; its Ref is the alias's ARN. (``APIHandler.Alias`` is
    # resolved in a Ref, not inside Fn::Sub.)
    alias = f"APIHandlerAlias{SNAPSTART_ALIAS}"

    def alias_uri(self, lambda_arn=None):
        return {
            "Fn::Sub": (
                "arn:${AWS::Partition}:apigateway:${AWS::Region}:lambda:path/2015-03-31"
                f"/functions/${{{alias}}}/invocations"
            )
        }

    swagger.CFNSwaggerGenerator._uri = alias_uri


# --- chalice local ---------------------------------------------------------------------------------------


# The methods the API declares on its paths (chalicelib/api/blueprint.py); API Gateway answers any other one
# (OPTIONS without CORS, TRACE, QUERY...) as a path it does not have.
API_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"})


def _install_local_not_found() -> None:
    import uuid

    from chalice import local
    from gateway import NOT_FOUND_BODY

    class NotFoundError(local.LocalGatewayException):
        CODE = 404

    original = local.LocalGateway.handle_request

    def not_found() -> NotFoundError:
        headers = {"Content-Type": "application/json", "X-Request-Id": str(uuid.uuid4())}
        return NotFoundError(headers, NOT_FOUND_BODY.encode())

    def handle_request(self, method, path, headers, body):
        if method not in API_METHODS:  # chalice local would answer OPTIONS 200 itself
            raise not_found()
        try:
            self._generate_lambda_event(method, path, headers, body)
        except ValueError:  # no route: what the deployed gateway response answers
            raise not_found() from None
        return original(self, method, path, headers, body)

    local.LocalGateway.handle_request = handle_request

    def any_method(self, name: str):
        # http.server answers a method without a do_<METHOD> with 501; here every one reaches the gateway
        if name.startswith("do_") and name[3:].isalpha() and name[3:].isupper():
            return self._generic_handle
        raise AttributeError(name)

    local.ChaliceRequestHandler.__getattr__ = any_method


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
    _install_bytecode()
    _install_settings(argv, settings_file)
    _install_gateway_responses()
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
