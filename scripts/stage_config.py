"""Write a Chalice stage's environment from the outputs of its `infra/template.yaml` stack.

    .venv/bin/python scripts/stage_config.py --stage prod [--stack invites-prod] [--region us-east-1]

Reads ``aws cloudformation describe-stacks`` outputs (your normal AWS credentials), fills
``stages.<stage>.environment_variables`` of ``.chalice/config.json`` and fetches ``PIN_SECRET`` from the SSM
SecureString ``/invites/<stage>/pin-secret`` (``--pin-secret-parameter`` to name another one,
``--keep-pin-secret`` to leave the file's value alone). Then ``chalice deploy --stage <stage>``.

The secret then sits in the working copy of ``.chalice/config.json``: deploy, then restore the file
(``git checkout -- .chalice/config.json``), never commit it (tests/infra/test_chalice_config.py fails while
it is there). Nothing else it writes is secret.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / ".chalice" / "config.json"

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
    "SmsSenderId": "SMS_SENDER_ID",
}
OPTIONAL_OUTPUTS = {"ApnsPlatformApplicationArn", "SmsSenderId"}
PLACEHOLDER_START = "<"  # committed values still to be filled look like "<stack output ... of invites-prod>"


def is_placeholder(value: str) -> bool:
    return value.startswith(PLACEHOLDER_START)


def stage_environment(
    current: dict[str, str], outputs: dict[str, str], pin_secret: str | None, *, may_lack: frozenset[str] = frozenset()
) -> dict[str, str]:
    """``current`` with every output-backed setting (and PIN_SECRET, when given) replaced.

    ``may_lack``: outputs that may be missing besides the optional ones (the emulator's stack has no CDN)."""
    missing = sorted(set(OUTPUT_SETTINGS) - OPTIONAL_OUTPUTS - may_lack - set(outputs))
    if missing:
        raise SystemExit(f"stage_config: the stack has no output {', '.join(missing)}: is it infra/template.yaml's?")
    env = dict(current)
    for output, setting in OUTPUT_SETTINGS.items():
        env[setting] = outputs.get(output, "")
    if pin_secret is not None:
        env["PIN_SECRET"] = pin_secret
    return env


def problems(env: dict[str, str], stage: str, policy: dict) -> list[str]:
    """What would break the deployed stage: unfilled placeholders, names the stage policy does not cover."""
    found = [f"{name} is still a placeholder" for name, value in env.items() if is_placeholder(value)]
    if not env.get("APNS_PLATFORM_APPLICATION_ARN"):
        found.append("APNS_PLATFORM_APPLICATION_ARN is empty: deploy the stack with ApnsPlatformApplicationArn")
    if env.get("STAGE") != stage:
        found.append(f"STAGE is {env.get('STAGE')!r}, not {stage!r}")
    resources = json.dumps(policy)
    for setting in ("USERS_TABLE", "AUTH_TABLE", "EVENTS_TABLE", "NOTIFICATIONS_QUEUE_NAME"):
        if env.get(setting) and f':{env[setting]}"' not in resources and f'/{env[setting]}"' not in resources:
            found.append(f"{setting}={env[setting]} is not named in policy-{stage}.json (another NamePrefix?)")
    return found


def _stack_outputs(stack: str, region: str | None) -> dict[str, str]:
    import boto3

    cloudformation = boto3.session.Session(region_name=region).client("cloudformation")
    described = cloudformation.describe_stacks(StackName=stack)["Stacks"][0]
    return {output["OutputKey"]: output["OutputValue"] for output in described.get("Outputs", [])}


def _pin_secret(parameter: str, region: str | None) -> str:
    import boto3

    ssm = boto3.session.Session(region_name=region).client("ssm")
    return ssm.get_parameter(Name=parameter, WithDecryption=True)["Parameter"]["Value"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stage", required=True, choices=["dev", "prod"])
    parser.add_argument("--stack", help="stack name (default invites-<stage>)")
    parser.add_argument("--region", help="region of the stack (default: your AWS configuration's)")
    parser.add_argument(
        "--pin-secret-parameter", help="SSM SecureString of PIN_SECRET (default /invites/<stage>/pin-secret)"
    )
    parser.add_argument("--keep-pin-secret", action="store_true", help="leave PIN_SECRET as the file has it")
    args = parser.parse_args(argv)

    config = json.loads(CONFIG.read_text())
    stage = config["stages"][args.stage]
    policy = json.loads((CONFIG.parent / stage.get("iam_policy_file", f"policy-{args.stage}.json")).read_text())
    outputs = _stack_outputs(args.stack or f"invites-{args.stage}", args.region)
    secret = None
    if not args.keep_pin_secret:
        secret = _pin_secret(args.pin_secret_parameter or f"/invites/{args.stage}/pin-secret", args.region)
    stage["environment_variables"] = stage_environment(stage.get("environment_variables", {}), outputs, secret)
    CONFIG.write_text(json.dumps(config, indent=2) + "\n")
    print(f"stage_config: wrote stages.{args.stage}.environment_variables of {CONFIG.relative_to(ROOT)}")
    found = problems(stage["environment_variables"], args.stage, policy)
    for problem in found:
        print(f"stage_config: {problem}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
