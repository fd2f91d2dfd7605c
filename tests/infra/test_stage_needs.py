"""Both deploy paths need the same things (scripts/stage_needs.py): the CloudFormation pipeline's packaging
(`chalice_cli.py --settings <stage file> package`) refuses a stage file or an account that lacks any of them,
naming it, before anything is built; and the pipeline guide's command makes the stop list's key.

The AWS side (SSM, SNS) is moto's server on 127.0.0.1; each packaging is a process, as in the pipeline."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.infra.scripts import load
from tests.infra.stage_account import COMPLETE, KEY, PIN_PARAMETER, STAGE, STOP_LIST_PARAMETER, emulated_account
from tests.infra.test_package import package_stage

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def account():
    """An emulated account with everything the stage needs: (process environment, its SSM and SNS clients)."""
    with emulated_account() as found:
        yield found


def _without(name: str) -> dict:
    return {key: value for key, value in COMPLETE.items() if key != name}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s, ssm, sns: _without("SMS_COUNTRIES"), "SMS_COUNTRIES None: the ISO 3166 codes"),
        (lambda s, ssm, sns: {**COMPLETE, "SMS_COUNTRIES": "USA"}, "SMS_COUNTRIES 'USA': the ISO 3166 codes"),
        (lambda s, ssm, sns: _without("SMS_MAX_PRICE_USD"), "SMS_MAX_PRICE_USD None: a positive float is required"),
        (lambda s, ssm, sns: {**COMPLETE, "SMS_MAX_PRICE_USD": "0"}, "SMS_MAX_PRICE_USD '0': a positive float"),
        (lambda s, ssm, sns: _without("SMS_MONTHLY_SEGMENTS"), "SMS_MONTHLY_SEGMENTS None: a positive int"),
        (lambda s, ssm, sns: {**COMPLETE, "STOP_LIST_KEY_PARAMETER": ""}, "STOP_LIST_KEY_PARAMETER is not set"),
        (
            lambda s, ssm, sns: (ssm.delete_parameter(Name=PIN_PARAMETER), COMPLETE)[1],
            f"no SSM parameter {PIN_PARAMETER} (the pin key): aws ssm put-parameter --name {PIN_PARAMETER}",
        ),
        (
            lambda s, ssm, sns: (ssm.delete_parameter(Name=STOP_LIST_PARAMETER), COMPLETE)[1],
            f"no SSM parameter {STOP_LIST_PARAMETER} (the stop list's key): "
            f".venv/bin/python scripts/stage_needs.py --stage {STAGE} --create-keys",
        ),
        (
            lambda s, ssm, sns: (sns.set_sms_attributes(attributes={"MonthlySpendLimit": "1"}), COMPLETE)[1],
            "SNS MonthlySpendLimit is 1 USD, not above the text budget's cost of 2200.00 USD",
        ),
    ],
    ids=[
        "no-countries", "bad-countries", "no-max-price", "zero-max-price", "no-monthly-segments",
        "no-stop-list-key-setting", "no-pin-key", "no-stop-list-key", "spend-limit-too-low",
    ],
)  # fmt: skip
def test_the_pipelines_packaging_refuses_a_stage_that_lacks_something_and_says_what(tmp_path, account, change, message):
    env, ssm, sns = account
    settings = change(None, ssm, sns)
    result = package_stage(tmp_path, settings, env)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"stage {STAGE} is not deployable" in result.stderr and message in result.stderr, result.stderr
    assert not (tmp_path / "out").exists()


def _needs(env: dict, *arguments: str) -> subprocess.CompletedProcess:
    command = [sys.executable, str(ROOT / "scripts" / "stage_needs.py"), "--stage", STAGE, *arguments]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_the_guides_command_makes_the_stop_list_key_from_the_pin_key_and_then_the_stage_has_all(tmp_path, account):
    env, ssm, _ = account
    ssm.delete_parameter(Name=STOP_LIST_PARAMETER)
    (tmp_path / "stage.json").write_text(json.dumps({"environment_variables": COMPLETE}))
    missing = _needs(env, "--settings", str(tmp_path / "stage.json"))
    assert missing.returncode == 1 and f"no SSM parameter {STOP_LIST_PARAMETER}" in missing.stderr
    made = _needs(env, "--settings", str(tmp_path / "stage.json"), "--create-keys")
    assert made.returncode == 0, made.stderr
    from chalicelib.pinkey import derived_stop_list_key

    stored = ssm.get_parameter(Name=STOP_LIST_PARAMETER, WithDecryption=True)["Parameter"]
    assert stored["Type"] == "SecureString" and stored["Value"] == derived_stop_list_key(KEY.encode()).hex()
    again = _needs(env, "--settings", str(tmp_path / "stage.json"), "--create-keys")  # made once, kept
    assert again.returncode == 0 and "made" not in again.stdout


def test_make_deploy_reads_the_same_list():
    deploy, needs = load("deploy"), load("stage_needs")
    stages = json.loads((ROOT / "infra" / "stages.json").read_text())
    for setting in needs.SETTINGS:
        settings = {**stages[STAGE], setting.stage_key: ""}
        with pytest.raises(deploy.Stop, match=setting.stage_key):
            deploy.check_texting_settings(settings)
    # and what make deploy writes for the functions carries every setting of the list
    env = load("stage_config").STAGE_SETTINGS
    assert {setting.stage_key: setting.name for setting in needs.SETTINGS}.items() <= env.items()


@pytest.mark.parametrize(
    ("two_way", "origination", "refused"),
    [("true", "", True), ("true", "+18885550123", False), ("", "", False), ("false", "", False)],
)
def test_two_way_texting_needs_the_number_replies_come_to_in_both_deploy_paths(two_way, origination, refused):
    deploy, needs = load("deploy"), load("stage_needs")
    env = {**COMPLETE, "SMS_TWO_WAY": two_way, "SMS_ORIGINATION_INVITES": origination}
    found = [problem for problem in needs.settings_problems(env) if "SMS_TWO_WAY" in problem]
    assert bool(found) == refused, found
    stages = json.loads((ROOT / "infra" / "stages.json").read_text())
    settings = {**stages[STAGE], "sms_two_way": two_way == "true", "sms_origination_invites": origination}
    if refused:
        with pytest.raises(deploy.Stop, match="SMS_ORIGINATION_INVITES"):
            deploy.check_texting_settings(settings)
    else:
        deploy.check_texting_settings(settings)
    assert load("stage_config").STAGE_SETTINGS["sms_two_way"] == "SMS_TWO_WAY"
