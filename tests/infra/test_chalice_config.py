""".chalice/config.json: the deployable stages, wired to infra/template.yaml's outputs and to the stage policies."""

from __future__ import annotations

import dataclasses
import fnmatch
import json
from pathlib import Path

import pytest

from chalicelib.config import Settings
from tests.infra.scripts import load
from tests.infra.test_template import load_template

ROOT = Path(__file__).resolve().parents[2]
CONFIG = json.loads((ROOT / ".chalice" / "config.json").read_text())
STAGES = ("dev", "prod")
SETTINGS = {field.name.upper() for field in dataclasses.fields(Settings)}


@pytest.fixture(scope="module")
def template() -> dict:
    return load_template()


def _stage(stage: str) -> dict:
    return CONFIG["stages"][stage]


def _policy(stage: str) -> dict:
    return json.loads((ROOT / ".chalice" / _stage(stage)["iam_policy_file"]).read_text())


def _allowed(stage: str, action: str, resource: str) -> bool:
    for statement in _policy(stage)["Statement"]:
        if action in statement["Action"] and any(fnmatch.fnmatchcase(resource, r) for r in statement["Resource"]):
            return True
    return False


def test_the_stages():
    assert set(CONFIG["stages"]) == {"dev", "prod", "local"}
    assert CONFIG["stages"]["local"] == {"api_gateway_stage": "api", "environment_variables": {"STAGE": "local"}}
    # distinct API Gateway stages, so each stage's 5xx alarm (ApiName + Stage dimensions) sees only its own API
    assert _stage("dev")["api_gateway_stage"] != _stage("prod")["api_gateway_stage"]


@pytest.mark.parametrize("stage", STAGES)
def test_stage_uses_its_hand_written_policy_and_lambda_sizes(stage):
    config = _stage(stage)
    assert config["autogen_policy"] is False
    assert config["iam_policy_file"] == f"policy-{stage}.json"
    assert (ROOT / ".chalice" / config["iam_policy_file"]).exists()
    assert config["lambda_memory_size"] >= 1024  # Pillow's resize is CPU-bound; CPU comes with memory
    assert 3 <= config["lambda_timeout"] <= 28  # under API Gateway's 29 s


@pytest.mark.parametrize("stage", STAGES)
def test_environment_names_settings_and_template_outputs(stage, template):
    env = _stage(stage)["environment_variables"]
    stage_config = load("stage_config")
    assert set(env) <= SETTINGS, f"not settings of chalicelib/config.py: {set(env) - SETTINGS}"
    assert env["STAGE"] == stage
    assert set(stage_config.OUTPUT_SETTINGS.values()) | {"PIN_SECRET"} <= set(env)
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
def test_no_secret_is_committed(stage):
    secret = _stage(stage)["environment_variables"]["PIN_SECRET"]
    assert secret.startswith("<"), (
        f"PIN_SECRET of {stage} is filled in .chalice/config.json (scripts/stage_config.py): "
        "never commit it; restore the file with `git checkout -- .chalice/config.json` after deploying"
    )


@pytest.mark.parametrize("stage", STAGES)
def test_the_policy_covers_the_stages_resources(stage):
    env = _stage(stage)["environment_variables"]
    account, region = "210987654321", "eu-west-1"
    for setting in ("USERS_TABLE", "AUTH_TABLE", "EVENTS_TABLE"):
        table = f"arn:aws:dynamodb:{region}:{account}:table/{env[setting]}"
        for action in ("dynamodb:GetItem", "dynamodb:Query", "dynamodb:TransactWriteItems", "dynamodb:DescribeTable"):
            assert _allowed(stage, action, table), (action, table)
        assert _allowed(stage, "dynamodb:Query", f"{table}/index/by_user")
    bucket = f"invites-{stage}-avatars-{account}"  # AvatarBucketName
    assert _allowed(stage, "s3:PutObject", f"arn:aws:s3:::{bucket}/avatars/1/x/big.jpg")
    assert not _allowed(
        stage, "s3:PutObject", f"arn:aws:s3:::invites-{'prod' if stage == 'dev' else 'dev'}-avatars-1/x"
    )
    queue = f"arn:aws:sqs:{region}:{account}:{env['NOTIFICATIONS_QUEUE_NAME']}"
    for action in ("sqs:SendMessage", "sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"):
        assert _allowed(stage, action, queue), action
    apns = f"arn:aws:sns:{region}:{account}:app/APNS/invites-{stage}-apns"  # the name README's deploy steps use
    assert _allowed(stage, "sns:CreatePlatformEndpoint", apns)
    assert _allowed(
        stage, "sns:DeleteEndpoint", f"arn:aws:sns:{region}:{account}:endpoint/APNS/invites-{stage}-apns/ab"
    )
    assert _allowed(stage, "sns:Publish", "*")  # texts to phone numbers have no resource ARN
    assert _allowed(
        stage,
        "logs:PutLogEvents",
        f"arn:aws:logs:{region}:{account}:log-group:/aws/lambda/invites-{stage}:log-stream:x",
    )
    # nothing of the other stage
    other = "prod" if stage == "dev" else "dev"
    assert not _allowed(stage, "dynamodb:GetItem", f"arn:aws:dynamodb:{region}:{account}:table/invites-{other}-users")


def test_stage_config_fills_every_placeholder_from_the_outputs():
    stage_config = load("stage_config")
    env = _stage("prod")["environment_variables"]
    outputs = {output: f"value-of-{output}" for output in stage_config.OUTPUT_SETTINGS}
    outputs.update(UsersTableName="invites-prod-users", AuthTableName="invites-prod-auth")
    outputs.update(EventsTableName="invites-prod-events", NotificationsQueueName="invites-prod-notifications")
    filled = stage_config.stage_environment(env, outputs, pin_secret="s3cret")
    assert filled["PIN_SECRET"] == "s3cret" and filled["AVATAR_BASE_URL"] == "value-of-AvatarBaseUrl"
    assert stage_config.problems(filled, "prod", _policy("prod")) == []
    assert stage_config.problems(env, "prod", _policy("prod"))  # the committed placeholders are not deployable
    without_optional = {k: v for k, v in outputs.items() if k not in stage_config.OPTIONAL_OUTPUTS}
    assert stage_config.stage_environment(env, without_optional, None)["SMS_SENDER_ID"] == ""
