""".chalice/config.json: the deployable stages, wired to infra/template.yaml's outputs and to the stage policies."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from chalicelib.config import setting_types
from tests.infra.scripts import load
from tests.infra.test_template import load_template
from tests.utils.iam import allows

ROOT = Path(__file__).resolve().parents[2]
CONFIG = json.loads((ROOT / ".chalice" / "config.json").read_text())
STAGES = ("dev", "prod")
SETTINGS = {name.upper() for name in setting_types()}


@pytest.fixture(scope="module")
def template() -> dict:
    return load_template()


def _stage(stage: str) -> dict:
    return CONFIG["stages"][stage]


FUNCTIONS = ("api_handler", "send_notifications", "remind_upcoming_events", "handle_inbound_sms")


def _policy(stage: str, function: str) -> dict:
    return json.loads((ROOT / ".chalice" / _stage(stage)["lambda_functions"][function]["iam_policy_file"]).read_text())


def _allowed(stage: str, action: str, resource: str, function: str = "api_handler") -> bool:
    return allows(_policy(stage, function), action, resource)


def test_the_stages():
    assert set(CONFIG["stages"]) == {"dev", "prod", "local"}
    assert CONFIG["stages"]["local"] == {"api_gateway_stage": "api", "environment_variables": {"STAGE": "local"}}
    # distinct API Gateway stages, so each stage's 5xx alarm (ApiName + Stage dimensions) sees only its own API
    assert _stage("dev")["api_gateway_stage"] != _stage("prod")["api_gateway_stage"]


@pytest.mark.parametrize("stage", STAGES)
def test_each_function_has_its_own_policy_and_the_stage_its_sizes_and_log_retention(stage):
    config = _stage(stage)
    assert config["autogen_policy"] is False
    files = [config["lambda_functions"][function]["iam_policy_file"] for function in FUNCTIONS]
    assert len(set(files)) == len(FUNCTIONS) and all(name.startswith(f"policy-{stage}-") for name in files)
    assert all((ROOT / ".chalice" / name).exists() for name in files)
    assert "iam_policy_file" not in config  # no shared role
    assert 7 <= config["log_retention_in_days"] <= 400
    assert config["lambda_memory_size"] >= 1024  # Pillow's resize is CPU-bound; CPU comes with memory
    assert 3 <= config["lambda_timeout"] <= 28  # under API Gateway's 29 s


# Peak RSS (MiB) of each function's process on its heaviest path (scripts/memory_peaks.py, docs/operations.md
# "Memory"), the runtime's own process on top, and the headroom every setting keeps above both.
MEASURED_PEAK_MIB = {
    "api_handler": 70,  # a 12 MP avatar
    "send_notifications": 150,  # a heavy account's export, extrapolated to the brief's heavy account
    "remind_upcoming_events": 49,
    "handle_inbound_sms": 52,
}
RUNTIME_MIB = 30
HEADROOM = 2


def memory_size(stage: str, function: str) -> int:
    config = _stage(stage)
    return config["lambda_functions"][function].get("lambda_memory_size", config["lambda_memory_size"])


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("function", FUNCTIONS)
def test_each_function_has_memory_for_its_measured_peak_with_headroom(stage, function):
    assert memory_size(stage, function) >= HEADROOM * (MEASURED_PEAK_MIB[function] + RUNTIME_MIB)
    # the API keeps its CPU: a 12 MP avatar and a 500-number invite are CPU-bound, and CPU comes with memory
    assert memory_size(stage, "api_handler") >= 1024


@pytest.mark.parametrize("stage", STAGES)
def test_environment_names_settings_and_template_outputs(stage, template):
    env = _stage(stage)["environment_variables"]
    stage_config = load("stage_config")
    assert set(env) <= SETTINGS, f"not settings of chalicelib/config.py: {set(env) - SETTINGS}"
    assert env["STAGE"] == stage
    # what only the stack knows comes from build/stages/<stage>.json (scripts/deploy.py), not this file
    assert not set(stage_config.OUTPUT_SETTINGS.values()) - {
        "USERS_TABLE",
        "AUTH_TABLE",
        "EVENTS_TABLE",
        "NOTIFICATIONS_QUEUE_NAME",
    } & set(env)
    assert env["PIN_KEY_PARAMETER"] == f"/invites/{stage}/pin-secret"
    outputs = template["Outputs"]
    for output, setting in stage_config.OUTPUT_SETTINGS.items():
        assert output in outputs, output
        assert outputs[output]["Description"].split()[0] == setting  # the template says which setting it fills
    # what is known before the stack exists is written out, and matches the template's naming
    for setting, resource in (
        ("USERS_TABLE", "UsersTable"),
        ("AUTH_TABLE", "AuthTable"),
        ("EVENTS_TABLE", "EventsTable"),
    ):
        name = template["Resources"][resource]["Properties"]["TableName"]["Fn::Sub"]
        assert env[setting] == name.replace("${NamePrefix}", "invites").replace("${Stage}", stage)
    queue = template["Resources"]["NotificationsQueue"]["Properties"]["QueueName"]["Fn::Sub"]
    assert env["NOTIFICATIONS_QUEUE_NAME"] == queue.replace("${NamePrefix}", "invites").replace("${Stage}", stage)


@pytest.mark.parametrize("stage", STAGES)
def test_no_pin_key_and_no_placeholder_in_the_stage(stage):
    # the functions read the key from SSM; the environment holds only the parameter's name
    text = json.dumps(_stage(stage))
    assert "PIN_SECRET" not in text and "<" not in text


@pytest.mark.parametrize("stage", STAGES)
def test_the_policy_covers_the_stages_resources(stage):
    env = _stage(stage)["environment_variables"]
    account, region = "210987654321", "eu-west-1"
    for setting in ("USERS_TABLE", "AUTH_TABLE", "EVENTS_TABLE"):
        table = f"arn:aws:dynamodb:{region}:{account}:table/{env[setting]}"
        for action in ("dynamodb:GetItem", "dynamodb:Query", "dynamodb:TransactWriteItems", "dynamodb:DescribeTable"):
            assert _allowed(stage, action, table), (action, table)
    events = f"arn:aws:dynamodb:{region}:{account}:table/{env['EVENTS_TABLE']}"
    assert _allowed(stage, "dynamodb:Query", f"{events}/index/by_user")
    bucket = f"invites-{stage}-avatars-{account}"  # AvatarBucketName
    assert _allowed(stage, "s3:PutObject", f"arn:aws:s3:::{bucket}/avatars/1/x/big.jpg")
    assert not _allowed(
        stage, "s3:PutObject", f"arn:aws:s3:::invites-{'prod' if stage == 'dev' else 'dev'}-avatars-1/x"
    )
    queue = f"arn:aws:sqs:{region}:{account}:{env['NOTIFICATIONS_QUEUE_NAME']}"
    assert _allowed(stage, "sqs:SendMessage", queue) and _allowed(stage, "sqs:SendMessage", queue, FUNCTIONS[2])
    for action in ("sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"):
        assert _allowed(stage, action, queue, "send_notifications"), action
        assert not _allowed(stage, action, queue), action
    apns = f"arn:aws:sns:{region}:{account}:app/APNS/invites-{stage}-apns"  # the name README's deploy steps use
    assert _allowed(stage, "sns:CreatePlatformEndpoint", apns)
    assert _allowed(
        stage, "sns:DeleteEndpoint", f"arn:aws:sns:{region}:{account}:endpoint/APNS/invites-{stage}-apns/ab"
    )
    assert _allowed(stage, "sns:Publish", "*")  # texts to phone numbers have no resource ARN
    # the notification worker pushes to this stage's endpoints only; the schedule only queues
    assert _allowed(
        stage,
        "sns:Publish",
        f"arn:aws:sns:{region}:{account}:endpoint/APNS/invites-{stage}-apns/e",
        "send_notifications",
    )
    assert _allowed(stage, "sns:Publish", "*", "send_notifications")  # the texts of waitlist promotions
    # texts only: no function may publish to a topic (the inbound topic's STOP and START among them)
    for function in FUNCTIONS:
        for topic in (f"invites-{stage}-inbound-sms", f"invites-{stage}-alarms"):
            assert not _allowed(stage, "sns:Publish", f"arn:aws:sns:{region}:{account}:{topic}", function)
    assert not _allowed(stage, "s3:PutObject", f"arn:aws:s3:::{bucket}/a", "remind_upcoming_events")
    # the pin key: this stage's parameter, for the API and for the worker that signs an export's photo links
    # only; the stop list's key for every function that texts
    parameter = f"arn:aws:ssm:{region}:{account}:parameter/invites/{stage}/pin-secret"
    assert _allowed(stage, "ssm:GetParameter", parameter)
    assert not _allowed(stage, "ssm:GetParameter", f"arn:aws:ssm:{region}:{account}:parameter/invites/{stage}/other")
    readers = [f for f in FUNCTIONS if _allowed(stage, "ssm:GetParameter", parameter, f)]
    assert readers == ["api_handler", "send_notifications"]
    stop_list_key = f"arn:aws:ssm:{region}:{account}:parameter/invites/{stage}/stop-list-key"
    for function in FUNCTIONS:
        assert _allowed(stage, "ssm:GetParameter", stop_list_key, function) is (function != "remind_upcoming_events")
    # replies by text: the stop list (the auth table, hashed with its own key), HELP answers, and answering an
    # invitation by reply (the asking text's record, the events table, the owner's push on the queue)
    auth = f"arn:aws:dynamodb:{region}:{account}:table/{env['AUTH_TABLE']}"
    inbound = "handle_inbound_sms"
    assert _allowed(stage, "dynamodb:PutItem", auth, inbound) and _allowed(stage, "dynamodb:DeleteItem", auth, inbound)
    assert _allowed(stage, "ssm:GetParameter", stop_list_key, inbound) and _allowed(stage, "sns:Publish", "*", inbound)
    users = f"arn:aws:dynamodb:{region}:{account}:table/{env['USERS_TABLE']}"
    assert not _allowed(stage, "dynamodb:PutItem", users, inbound)
    assert _allowed(stage, "dynamodb:GetItem", users, inbound)  # the replier's chosen language, nothing more
    assert not _allowed(stage, "dynamodb:Query", users, inbound)
    assert _allowed(stage, "dynamodb:GetItem", auth, inbound)
    events_table = f"arn:aws:dynamodb:{region}:{account}:table/{env['EVENTS_TABLE']}"
    assert _allowed(stage, "dynamodb:TransactWriteItems", events_table, inbound)
    assert not _allowed(stage, "dynamodb:Query", f"{events_table}/index/by_user", inbound)
    assert _allowed(stage, "sqs:SendMessage", queue, inbound)
    assert not _allowed(stage, "sqs:ReceiveMessage", queue, inbound)
    assert _allowed(
        stage,
        "logs:PutLogEvents",
        f"arn:aws:logs:{region}:{account}:log-group:/aws/lambda/invites-{stage}:log-stream:x",
    )
    assert _allowed(
        stage,
        "logs:PutLogEvents",
        f"arn:aws:logs:{region}:{account}:log-group:/aws/lambda/invites-{stage}-send_notifications:log-stream:x",
        "send_notifications",
    )
    # nothing of the other stage
    other = "prod" if stage == "dev" else "dev"
    assert not _allowed(stage, "dynamodb:GetItem", f"arn:aws:dynamodb:{region}:{account}:table/invites-{other}-users")


def test_stage_settings_are_generated_outside_the_tracked_config(tmp_path, monkeypatch):
    stage_config = load("stage_config")
    monkeypatch.setattr(stage_config, "GENERATED", tmp_path / "stages")
    before = (ROOT / ".chalice" / "config.json").read_text()
    outputs = {output: f"value-of-{output}" for output in stage_config.OUTPUT_SETTINGS}
    outputs.update(UsersTableName="invites-prod-users", AuthTableName="invites-prod-auth")
    outputs.update(EventsTableName="invites-prod-events", NotificationsQueueName="invites-prod-notifications")
    path = stage_config.write_settings("prod", outputs)
    env = json.loads(path.read_text())["environment_variables"]
    assert env["AVATAR_BASE_URL"] == "value-of-AvatarBaseUrl" and env["STAGE"] == "prod"
    assert "PIN_SECRET" not in env and env["PIN_KEY_PARAMETER"] == "/invites/prod/pin-secret"
    assert (ROOT / ".chalice" / "config.json").read_text() == before
    ignored = subprocess.run(["git", "check-ignore", "-q", "build/stages/prod.json"], cwd=ROOT, check=False)
    assert ignored.returncode == 0, "build/stages/ must be git-ignored"
    # outputs of another prefix are refused: the policies would not cover them
    with pytest.raises(SystemExit, match="USERS_TABLE"):
        stage_config.write_settings("prod", {**outputs, "UsersTableName": "other-prod-users"})
    without_optional = {k: v for k, v in outputs.items() if k not in stage_config.OPTIONAL_OUTPUTS}
    assert stage_config.stage_environment({}, without_optional)["SMS_SENDER_ID"] == ""
