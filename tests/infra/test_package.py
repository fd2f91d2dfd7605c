"""`chalice package --stage prod` (through scripts/chalice_cli.py) makes a zip that imports on Lambda python3.12.

One packaging test, so pytest-xdist never packages twice. The first run on a machine downloads the wheels
(pip download of requirements.txt for the Lambda runtime's platform, about 20 s); later runs reuse chalice's
cache under .chalice/deployments (git-ignored). It opens the zip and fails when any compiled extension needs
a newer glibc than Amazon Linux 2023's 2.34 (ELF version needs) or comes from a non-manylinux build
or any module lacks its CPython 3.12 unchecked-hash .pyc (scripts/package_check.py), and lints the SAM
template: gateway responses inside the API definition, throttles merged in, reserves on the functions.
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

from tests.infra.locale_probe import formatted
from tests.infra.scripts import load
from tests.infra.stage_account import COMPLETE, STACK_SETTINGS, emulated_account
from tests.infra.test_template import load_template

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
STAGE = "prod"
# Lambda takes 50 MB zipped. 18.4 MB with Babel's CLDR data cut to the catalogue languages (27.7 MB with all of
# it, scripts/babel_data.py): the bar leaves about 2.5 MB for what comes next.
MAX_ZIP_BYTES = 20 * 1024 * 1024
PACKAGE_TIMEOUT_SECONDS = 600
# The catalogues' languages and English, and the locales they inherit from (pt_BR builds on pt, all on root).
BABEL_LOCALES = {"root", "en", "ar", "de", "es", "fr", "he", "it", "pt", "pt_BR"}


def _tool(name: str) -> str | None:
    local = BIN / name
    return str(local) if local.exists() else shutil.which(name)


def _environment() -> dict[str, str]:
    """No credentials and no endpoint: a stage file with a problem is refused before AWS is asked anything."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(AWS_DEFAULT_REGION="us-east-1", AWS_CONFIG_FILE=os.devnull, AWS_SHARED_CREDENTIALS_FILE=os.devnull)
    return env


def package_stage(tmp_path, settings: dict, env: dict | None = None) -> subprocess.CompletedProcess:
    """`chalice_cli.py --settings <a stage file of settings> package` of prod with the pipeline's merge template."""
    pipeline = load("pipeline")
    stages = json.loads((ROOT / "infra" / "stages.json").read_text())
    (tmp_path / "settings.json").write_text(json.dumps({"environment_variables": settings}))
    (tmp_path / "merge.json").write_text(json.dumps(pipeline.merge_template(STAGE, stages[STAGE])))
    command = [sys.executable, str(ROOT / "scripts" / "chalice_cli.py"), "--settings", str(tmp_path / "settings.json")]
    command += ["package", "--stage", STAGE, "--merge-template", str(tmp_path / "merge.json"), str(tmp_path / "out")]
    return subprocess.run(
        command,
        cwd=ROOT,
        env=env or _environment(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=PACKAGE_TIMEOUT_SECONDS,
    )


def test_packaging_refuses_placeholders_and_a_pin_key_in_the_environment(tmp_path):
    result = package_stage(tmp_path, {**STACK_SETTINGS, "AVATAR_BUCKET": "<stack output AvatarBucketName>"})
    assert result.returncode == 1 and "AVATAR_BUCKET is still a placeholder" in result.stderr
    result = package_stage(tmp_path, {**STACK_SETTINGS, "PIN_SECRET": "x" * 64})
    assert result.returncode == 1 and "PIN_SECRET must not be in the environment" in result.stderr
    result = package_stage(tmp_path, {k: v for k, v in STACK_SETTINGS.items() if k != "NOTIFICATIONS_QUEUE_URL"})
    assert result.returncode == 1 and "NOTIFICATIONS_QUEUE_URL is not set" in result.stderr
    assert not (tmp_path / "out").exists()


def test_chalice_package_for_prod(tmp_path):
    cfn_lint = _tool("cfn-lint")
    if cfn_lint is None:
        pytest.skip("cfn-lint is not installed")
    out = tmp_path / "out"
    # GIVEN the prod stage with its stack's settings, in an account with what the stage needs, WHEN it is packaged
    with emulated_account() as (env, _, _):
        result = package_stage(tmp_path, COMPLETE, env)
    assert result.returncode == 0, result.stdout + result.stderr

    # THEN the deployment zip is under 20 MiB and holds the app and its dependencies
    zip_path = out / "deployment.zip"
    size = zip_path.stat().st_size
    print(f"deployment.zip: {size / 1e6:.1f} MB")
    assert size < MAX_ZIP_BYTES, f"deployment.zip is {size / 1e6:.1f} MB"
    names = set(zipfile.ZipFile(zip_path).namelist())
    assert {"app.py", "chalicelib/config.py", "pynamodb/__init__.py", "PIL/Image.py"} <= names
    assert not any(name.startswith(("botocore/", "boto3/")) for name in names)  # the runtime has them
    # the passes' QR codes: segno (pure Python) is in the zip and draws an SVG from it alone
    assert "segno/__init__.py" in names
    unpacked = tmp_path / "unpacked"
    zipfile.ZipFile(zip_path).extractall(unpacked, [name for name in names if name.startswith("segno/")])
    drawn = subprocess.run(
        [sys.executable, "-S", "-c", "import segno; print(segno.make_qr('1.x').svg_inline()[:4], segno.__file__)"],
        cwd=unpacked,
        capture_output=True,
        text=True,
        check=True,
    )
    assert drawn.stdout.startswith("<svg") and str(unpacked) in drawn.stdout, drawn.stdout + drawn.stderr

    # Babel's locale data is the catalogue languages' and what they inherit, and every language reads from the
    # package alone exactly as with all of Babel's data: dates, its own name, its direction, its plural forms
    locale_data = {name.removeprefix("babel/locale-data/") for name in names if name.startswith("babel/locale-data/")}
    assert locale_data == {f"{locale}.dat" for locale in BABEL_LOCALES} | {"LICENSE.unicode"}
    run_from = ("babel/", "chalicelib/", "phonenumbers/", "tzdata/")
    zipfile.ZipFile(zip_path).extractall(unpacked, [name for name in names if name.startswith(run_from)])
    packaged = formatted([unpacked], isolated=True)
    assert packaged["babel"].startswith(str(unpacked))
    assert packaged["languages"] == formatted([ROOT])["languages"]

    # every compiled extension fits Amazon Linux 2023 (glibc 2.34) and comes from a manylinux wheel
    architecture = json.loads((ROOT / "infra" / "stages.json").read_text())[STAGE]["architecture"]
    report = load("package_check").check(zip_path, architecture=architecture)
    print(f"highest glibc needed: {report.max_glibc}")
    assert report.problems == []
    # every module carries its CPython 3.12 bytecode: the app, chalice's part and the dependencies
    assert report.bytecode == len([name for name in names if name.endswith(".py")]) > 500
    assert {"__pycache__/app.cpython-312.pyc", "chalicelib/__pycache__/config.cpython-312.pyc"} <= names
    assert "pynamodb/__pycache__/models.cpython-312.pyc" in names
    assert any(name.startswith("PIL/_imaging.cpython-312-") for name in report.glibc_needed)
    assert any(name.startswith("pillow.libs/libjpeg") for name in names)  # bundled, not the build host's

    # and the SAM template lints clean
    lint = subprocess.run([cfn_lint, "--", str(out / "sam.json")], capture_output=True, text=True, timeout=300)
    assert lint.returncode == 0, lint.stdout + lint.stderr

    sam = json.loads((out / "sam.json").read_text())
    resources = sam["Resources"]
    config = json.loads((ROOT / ".chalice" / "config.json").read_text())["stages"][STAGE]
    policies = {
        logical: json.loads((ROOT / ".chalice" / config["lambda_functions"][function]["iam_policy_file"]).read_text())
        for logical, function in (
            ("APIHandler", "api_handler"),
            ("SendNotifications", "send_notifications"),
            ("RemindUpcomingEvents", "remind_upcoming_events"),
            ("HandleInboundSms", "handle_inbound_sms"),
            ("ProcessPhotoUpload", "process_photo_upload"),
            ("RecordTextReceipts", "record_text_receipts"),
        )
    }

    # the avatar upload's media types are binary for API Gateway
    binary = resources["RestAPI"]["Properties"]["DefinitionBody"]["x-amazon-apigateway-binary-media-types"]
    assert {"multipart/form-data", "image/jpeg", "image/png"} <= set(binary)
    assert resources["RestAPI"]["Properties"]["StageName"] == config["api_gateway_stage"]

    functions = {name: r["Properties"] for name, r in resources.items() if r["Type"] == "AWS::Serverless::Function"}
    assert set(functions) == {
        "APIHandler",
        "SendNotifications",
        "RemindUpcomingEvents",
        "HandleInboundSms",
        "ProcessPhotoUpload",
        "RecordTextReceipts",
    }
    roles = set()
    for name, function in functions.items():
        # every function runs python3.12 with the stage's settings, sizes and its own hand-written policy
        assert function["Runtime"] == "python3.12", name
        assert function["Architectures"] == [architecture], name  # the stage's, arm64 unless it says x86_64
        assert function["Environment"]["Variables"] == {**config["environment_variables"], **COMPLETE}, name
        assert "PIN_SECRET" not in json.dumps(sam)
        logical_to_function = {load("pipeline").logical_id(f): f for f in config["lambda_functions"]}
        own = config["lambda_functions"][logical_to_function[name]].get("lambda_memory_size")
        assert function["MemorySize"] == (own or config["lambda_memory_size"]), name
        assert function["Timeout"] == config["lambda_timeout"], name
        role_name = function["Role"]["Fn::GetAtt"][0]
        roles.add(role_name)
        role = resources[role_name]["Properties"]
        assert [p["PolicyDocument"] for p in role["Policies"]] == [policies[name]], name
        assert not role.get("ManagedPolicyArns"), name
    assert len(roles) == 6
    # log groups with the stage's retention
    retention = [r["Properties"]["RetentionInDays"] for r in resources.values() if r["Type"] == "AWS::Logs::LogGroup"]
    assert retention == [config["log_retention_in_days"]] * 6
    # the names `chalice deploy` gives: those the policies' log statements and the alarms are written for, and
    # each log group is the one of a function that exists
    names = load("pipeline").function_names(STAGE)
    assert {logical: functions[logical]["FunctionName"] for logical in functions} == {
        load("pipeline").logical_id(function): name for function, name in names.items()
    }
    log_groups = [r for r in resources.values() if r["Type"] == "AWS::Logs::LogGroup"]
    groups = [r["Properties"]["LogGroupName"]["Fn::Sub"] for r in log_groups]
    assert sorted(groups) == sorted(f"/aws/lambda/${{{logical}}}" for logical in functions)
    # prod cannot go without its web ACL; failed replies by text go to the infra stack's failure queue
    assert "Condition" not in resources["ApiWebAclAssociation"] and "Default" not in sam["Parameters"]["ApiWebAclArn"]
    invoke = resources["InboundSmsInvokeConfig"]["Properties"]
    assert invoke["FunctionName"] == {"Ref": "HandleInboundSms"}
    # album uploads: S3's notification on the bucket (a custom resource), its permission and failure queue
    notified = resources["PhotoUploadsNotification"]["Properties"]
    assert notified["FunctionArn"] == {"Fn::GetAtt": ["ProcessPhotoUpload", "Arn"]}
    assert resources["PhotoUploadsInvokeConfig"]["Properties"]["FunctionName"] == {"Ref": "ProcessPhotoUpload"}
    # texts' delivery receipts: a subscription filter on each of SNS's log groups, its permission and failure queue
    for logical in ("TextReceiptsDelivered", "TextReceiptsFailed"):
        assert resources[logical]["Properties"]["DestinationArn"] == {"Fn::GetAtt": ["RecordTextReceipts", "Arn"]}
    assert resources["TextReceiptsInvokeConfig"]["Properties"]["FunctionName"] == {"Ref": "RecordTextReceipts"}
    # unknown paths: 404 with a fixed body (nothing of the request echoed), declared inside the API definition
    # (no separate GatewayResponse resources, which SAM drops or leaves behind on API updates)
    definition = resources["RestAPI"]["Properties"]["DefinitionBody"]
    responses = definition["x-amazon-apigateway-gateway-responses"]
    assert responses["MISSING_AUTHENTICATION_TOKEN"]["statusCode"] == "404"
    assert responses["MISSING_AUTHENTICATION_TOKEN"]["responseTemplates"] == {
        "application/json": '{"detail": "Not found."}'
    }
    assert not any("$context" in json.dumps(r) or "$input" in json.dumps(r) for r in responses.values())
    assert not [r for r in resources.values() if r["Type"] == "AWS::ApiGateway::GatewayResponse"]
    # stage and login throttles, resource paths encoded as CloudFormation wants them
    throttles = {(s["ResourcePath"], s["HttpMethod"]): s for s in resources["RestAPI"]["Properties"]["MethodSettings"]}
    assert set(throttles) == {("/*", "*"), ("/~1auth", "POST"), ("/~1auth~1verify_pin", "POST")}
    stage_wide = throttles[("/*", "*")]["ThrottlingRateLimit"]
    assert throttles[("/~1auth", "POST")]["ThrottlingRateLimit"] < stage_wide
    assert throttles[("/~1auth~1verify_pin", "POST")]["ThrottlingRateLimit"] < stage_wide
    # the queue worker and the schedule have their reserved concurrency; the API draws on the account's pool
    reserved = json.loads((ROOT / "infra" / "stages.json").read_text())[STAGE]["reserved_concurrency"]
    assert functions["SendNotifications"]["ReservedConcurrentExecutions"] == reserved["send_notifications"]
    assert functions["RemindUpcomingEvents"]["ReservedConcurrentExecutions"] == reserved["remind_upcoming_events"]
    assert "ReservedConcurrentExecutions" not in functions["APIHandler"]
    (queue_event,) = functions["SendNotifications"]["Events"].values()
    assert queue_event["Properties"]["ScalingConfig"] == {"MaximumConcurrency": reserved["send_notifications"]}

    # replies by text: the inbound function is subscribed to the topic infra/template.yaml makes for this stage
    (inbound,) = functions["HandleInboundSms"]["Events"].values()
    topic_name = load_template()["Resources"]["InboundSmsTopic"]["Properties"]["TopicName"]["Fn::Sub"]
    assert inbound["Type"] == "SNS"
    assert json.dumps(inbound["Properties"]["Topic"]).endswith(
        f':{topic_name.replace("${NamePrefix}", "invites").replace("${Stage}", STAGE)}"}}'
    ), inbound

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
