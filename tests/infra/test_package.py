"""`chalice package --stage prod` works offline, its zip stays small, and its SAM template lints clean.

One test, so pytest-xdist never packages twice. The first run on a machine builds the dependencies
(pip download of requirements.txt for Lambda's platform, about 50 s); later runs reuse chalice's cache
under .chalice/deployments (git-ignored) and take about 30 s.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.infra.test_template import load_template

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
STAGE = "prod"
MAX_ZIP_BYTES = 25 * 1024 * 1024
PACKAGE_TIMEOUT_SECONDS = 600


def _tool(name: str) -> str | None:
    local = BIN / name
    return str(local) if local.exists() else shutil.which(name)


def _environment() -> dict[str, str]:
    """No credentials and no endpoint: packaging must not need AWS."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(AWS_DEFAULT_REGION="us-east-1", AWS_CONFIG_FILE=os.devnull, AWS_SHARED_CREDENTIALS_FILE=os.devnull)
    return env


def test_chalice_package_for_prod(tmp_path):
    chalice, cfn_lint = _tool("chalice"), _tool("cfn-lint")
    if chalice is None or cfn_lint is None:
        pytest.skip("chalice or cfn-lint is not installed")
    out = tmp_path / "package"
    # GIVEN the prod stage WHEN it is packaged
    result = subprocess.run(
        [chalice, "package", "--stage", STAGE, str(out)],
        cwd=ROOT,
        env=_environment(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=PACKAGE_TIMEOUT_SECONDS,
    )
    assert result.returncode == 0, result.stdout + result.stderr

    # THEN the deployment zip is under 25 MB and holds the app and its dependencies
    zip_path = out / "deployment.zip"
    size = zip_path.stat().st_size
    print(f"deployment.zip: {size / 1e6:.1f} MB")
    assert size < MAX_ZIP_BYTES, f"deployment.zip is {size / 1e6:.1f} MB"
    names = set(zipfile.ZipFile(zip_path).namelist())
    assert {"app.py", "chalicelib/config.py", "pynamodb/__init__.py", "PIL/Image.py"} <= names

    # and the SAM template lints clean
    lint = subprocess.run([cfn_lint, "--", str(out / "sam.json")], capture_output=True, text=True, timeout=300)
    assert lint.returncode == 0, lint.stdout + lint.stderr

    sam = json.loads((out / "sam.json").read_text())
    resources = sam["Resources"]
    config = json.loads((ROOT / ".chalice" / "config.json").read_text())["stages"][STAGE]
    policy = json.loads((ROOT / ".chalice" / f"policy-{STAGE}.json").read_text())

    # the avatar upload's media types are binary for API Gateway
    binary = resources["RestAPI"]["Properties"]["DefinitionBody"]["x-amazon-apigateway-binary-media-types"]
    assert {"multipart/form-data", "image/jpeg", "image/png"} <= set(binary)
    assert resources["RestAPI"]["Properties"]["StageName"] == config["api_gateway_stage"]

    functions = {name: r["Properties"] for name, r in resources.items() if r["Type"] == "AWS::Serverless::Function"}
    assert "APIHandler" in functions
    for name, function in functions.items():
        # every function runs with the stage's settings, sizes and hand-written policy, nothing more
        assert function["Environment"]["Variables"] == config["environment_variables"], name
        assert function["MemorySize"] == config["lambda_memory_size"], name
        assert function["Timeout"] == config["lambda_timeout"], name
        role = resources[function["Role"]["Fn::GetAtt"][0]]["Properties"]
        assert [p["PolicyDocument"] for p in role["Policies"]] == [policy], name
        assert not role.get("ManagedPolicyArns"), name

    # the SQS handler listens to the queue infra/template.yaml makes for this stage

    template = load_template()
    queue_name = template["Resources"]["NotificationsQueue"]["Properties"]["QueueName"]["Fn::Sub"]
    expected = queue_name.replace("${NamePrefix}", "invites").replace("${Stage}", STAGE)
    sources = [
        event["Properties"]["Queue"]["Fn::Sub"]
        for function in functions.values()
        for event in function.get("Events", {}).values()
        if event["Type"] == "SQS"
    ]
    assert sources and all(source.endswith(f":{expected}") for source in sources), sources
