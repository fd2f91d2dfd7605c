"""A deployable stage's settings from the outputs of its `infra/template.yaml` stack (used by scripts/deploy.py).

The names known before the stack exists (tables, queue name, the SSM name of the pin key) are committed in
``.chalice/config.json``; what only the stack knows (bucket, CDN URL, queue URL, APNS ARN, sender id) is
written to ``build/stages/<stage>.json`` (git-ignored), which ``scripts/chalice_cli.py --settings`` merges
into the stage in memory. The tracked config file is never edited, and no key is written anywhere: the
functions read the pin key from SSM at run time (chalicelib/pinkey.py).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEPLOYED_STAGES = ["dev", "prod"]
CONFIG = ROOT / ".chalice" / "config.json"
GENERATED = ROOT / "build" / "stages"

# Stack output -> the app's setting (chalicelib/config.py). Optional outputs (conditional in the template)
# become "" when the stack has none.
OUTPUT_SETTINGS = {
    "UsersTableName": "USERS_TABLE",
    "AuthTableName": "AUTH_TABLE",
    "EventsTableName": "EVENTS_TABLE",
    "AvatarBucketName": "AVATAR_BUCKET",
    "AvatarBaseUrl": "AVATAR_BASE_URL",
    "NotificationsQueueUrl": "NOTIFICATIONS_QUEUE_URL",
    "NotificationsQueueName": "NOTIFICATIONS_QUEUE_NAME",
    "ApnsPlatformApplicationArn": "APNS_PLATFORM_APPLICATION_ARN",
    "FcmPlatformApplicationArn": "FCM_PLATFORM_APPLICATION_ARN",
    "SmsSenderId": "SMS_SENDER_ID",
}
OPTIONAL_OUTPUTS = {"ApnsPlatformApplicationArn", "FcmPlatformApplicationArn", "SmsSenderId"}

# infra/stages.json key -> the app's setting, passed through as is (the stack needs none of them). Always written,
# "" when the stage leaves one out: the app's default (the account's default origination identity, no contact).
# The texting guards (countries, maximum price, monthly budget) are never left out: scripts/deploy.py refuses that.
STAGE_SETTINGS = {
    "sms_origination_pins": "SMS_ORIGINATION_PINS",
    "sms_origination_invites": "SMS_ORIGINATION_INVITES",
    "support_contact": "SUPPORT_CONTACT",
    "sms_countries": "SMS_COUNTRIES",
    "sms_max_price_usd": "SMS_MAX_PRICE_USD",
    "sms_monthly_segments": "SMS_MONTHLY_SEGMENTS",
    "sms_two_way": "SMS_TWO_WAY",
}


def stage_environment(
    current: dict[str, str], outputs: dict[str, str], *, may_lack: frozenset[str] = frozenset()
) -> dict[str, str]:
    """``current`` with every output-backed setting replaced.

    ``may_lack``: outputs that may be missing besides the optional ones (the emulator's stack has no CDN)."""
    missing = sorted(set(OUTPUT_SETTINGS) - OPTIONAL_OUTPUTS - may_lack - set(outputs))
    if missing:
        raise SystemExit(f"stage_config: the stack has no output {', '.join(missing)}: is it infra/template.yaml's?")
    env = dict(current)
    for output, setting in OUTPUT_SETTINGS.items():
        env[setting] = outputs.get(output, "")
    return env


def policy_resources(stage: str) -> str:
    """Every Resource of the stage's function policies, as one text to search."""
    config = json.loads(CONFIG.read_text())["stages"][stage]
    texts = []
    for function in config.get("lambda_functions", {}).values():
        policy = json.loads((CONFIG.parent / function["iam_policy_file"]).read_text())
        texts += [json.dumps(statement["Resource"]) for statement in policy["Statement"] if "Resource" in statement]
    return "\n".join(texts)


def problems(env: dict[str, str], stage: str) -> list[str]:
    """What would break the deployed stage: no APNS, another stage's names, names no policy covers."""
    found = []
    if not env.get("APNS_PLATFORM_APPLICATION_ARN"):
        found.append("APNS_PLATFORM_APPLICATION_ARN is empty: create the platform application invites-<stage>-apns")
    if env.get("STAGE") != stage:
        found.append(f"STAGE is {env.get('STAGE')!r}, not {stage!r}")
    resources = policy_resources(stage)
    for setting in ("USERS_TABLE", "AUTH_TABLE", "EVENTS_TABLE", "NOTIFICATIONS_QUEUE_NAME"):
        if env.get(setting) and f':{env[setting]}"' not in resources and f'/{env[setting]}"' not in resources:
            found.append(f"{setting}={env[setting]} is not named in the {stage} policies (another NamePrefix?)")
    parameter = env.get("PIN_KEY_PARAMETER", "")
    if parameter and f"parameter{parameter}" not in resources:
        found.append(f"PIN_KEY_PARAMETER={parameter} is not the parameter the {stage} API policy may read")
    parameter = env.get("STOP_LIST_KEY_PARAMETER", "")
    if parameter and f"parameter{parameter}" not in resources:
        found.append(f"STOP_LIST_KEY_PARAMETER={parameter} is not a parameter the {stage} policies may read")
    return found


def write_settings(
    stage: str, outputs: dict[str, str], extra: dict | None = None, stage_settings: dict | None = None
) -> Path:
    """``build/stages/<stage>.json`` for ``chalice_cli.py --settings``; raises SystemExit on problems.
    ``stage_settings``: the stage's entry of infra/stages.json (STAGE_SETTINGS are taken from it)."""
    committed = json.loads(CONFIG.read_text())["stages"][stage].get("environment_variables", {})
    env = stage_environment(committed, outputs)
    for key, setting in STAGE_SETTINGS.items():
        env[setting] = str((stage_settings or {}).get(key) or "")
    found = problems(env, stage)
    if found:
        raise SystemExit("stage_config: " + "\n  ".join(found))
    GENERATED.mkdir(parents=True, exist_ok=True)
    path = GENERATED / f"{stage}.json"
    path.write_text(json.dumps({"environment_variables": env, **(extra or {})}, indent=2) + "\n")
    return path


def stage_arguments(doc: str) -> argparse.ArgumentParser:
    """The command line a script about one deployed stage opens with: its description (the first paragraph of
    its docstring ``doc``) and the required ``--stage``."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--stage", required=True, choices=DEPLOYED_STAGES)
    return parser
