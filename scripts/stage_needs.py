"""What a deployed stage needs before its functions may run: one list, read by both deploy paths.

    .venv/bin/python scripts/stage_needs.py --stage prod [--settings build/stages/prod.json] [--create-keys]

``make deploy`` (scripts/deploy.py) checks it before it touches the stack, and ``scripts/chalice_cli.py`` checks
it on every ``deploy`` and ``package`` of a deployed stage, so the CloudFormation pipeline cannot package a stage
that lacks any of it (docs/deploy.md, "A CloudFormation pipeline instead"):

- **keys** (SSM SecureStrings named by the functions' settings): the pin key (``PIN_KEY_PARAMETER``, usable: not
  the development key, a placeholder or short) and the stop list's key (``STOP_LIST_KEY_PARAMETER``, 64 hex
  digits). Without the stop list's key every text to a number fails (503) and "Stop texting me" with it.
- **settings** of the functions: ``SMS_COUNTRIES`` (ISO codes), ``SMS_MAX_PRICE_USD`` and
  ``SMS_MONTHLY_SEGMENTS`` (positive): without them a stage texts any country, at any price, without a budget.
- **two-way texting**: ``SMS_TWO_WAY`` on needs ``SMS_ORIGINATION_INVITES``, the two-way number the texts that
  ask come from and replies come to (routed to the inbound topic, ``INBOUND_SMS_TOPIC_NAME``).
- **the spend limit**: SNS's account ``MonthlySpendLimit`` above the text budget's cost
  (``SMS_MONTHLY_SEGMENTS`` x the stage's ``sms_segment_cost_usd`` of infra/stages.json), so the service's budget
  stops invitations before SNS stops every text, pins too.

``--create-keys`` makes the stop list's key when it is missing, from the pin key (as the first ``make deploy``
does: numbers already stopped stay stopped). Exit status 1 and one line per problem when something is missing.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import stage_config  # noqa: E402

CONFIG = ROOT / ".chalice" / "config.json"
STAGES_FILE = ROOT / "infra" / "stages.json"
COUNTRY_LIST = re.compile(r"[A-Z]{2}(,[A-Z]{2})*")
CREATE_PIN_KEY = 'aws ssm put-parameter --name {name} --type SecureString --value "$(openssl rand -hex 32)"'
CREATE_STOP_LIST_KEY = ".venv/bin/python scripts/stage_needs.py --stage {stage} --create-keys"


def _countries(value) -> str | None:
    if COUNTRY_LIST.fullmatch(str(value or "").replace(" ", "")):
        return None
    return 'the ISO 3166 codes of the countries the stage may text, comma-separated (e.g. "US,CA"), are required'


def positive(kind: type) -> Callable[[object], str | None]:
    def check(value) -> str | None:
        try:
            number = kind(value)
        except (TypeError, ValueError):
            number = 0
        if isinstance(value, bool) or number <= 0:
            return f"a positive {kind.__name__} is required"
        return None

    return check


@dataclass(frozen=True)
class Setting:
    """A setting of the functions; ``stage_key``: where infra/stages.json gives it (docs/deploy.md)."""

    name: str
    stage_key: str
    problem: Callable[[object], str | None]


SETTINGS = (
    Setting("SMS_COUNTRIES", "sms_countries", _countries),
    Setting("SMS_MAX_PRICE_USD", "sms_max_price_usd", positive(float)),
    Setting("SMS_MONTHLY_SEGMENTS", "sms_monthly_segments", positive(int)),
)


def _pin_key_problem(value: str) -> str | None:
    from chalicelib.pinkey import unusable

    problem = unusable(value)
    return f"{problem}: put a random key (openssl rand -hex 32)" if problem else None


def _stop_list_key_problem(value: str) -> str | None:
    from chalicelib.pinkey import STOP_LIST_KEY_FORMAT

    if STOP_LIST_KEY_FORMAT.fullmatch(value.strip()):
        return None
    return "must be 64 hex digits; never change it once made"


@dataclass(frozen=True)
class Key:
    """An SSM SecureString the functions read, named by their setting ``setting``."""

    setting: str
    what: str
    create: str
    problem: Callable[[str], str | None]


KEYS = (
    Key("PIN_KEY_PARAMETER", "the pin key", CREATE_PIN_KEY, _pin_key_problem),
    Key("STOP_LIST_KEY_PARAMETER", "the stop list's key", CREATE_STOP_LIST_KEY, _stop_list_key_problem),
)


def two_way_problem(two_way, origination) -> str | None:
    """Two-way texting (``SMS_TWO_WAY``) asks guests to reply to the number their texts come from: it needs that
    number named (``SMS_ORIGINATION_INVITES``: the two-way number whose replies are routed to the inbound topic;
    the account's default sender may be any number, one that takes no replies)."""
    if str(two_way or "").strip().lower() not in {"1", "true", "yes", "on"}:
        return None
    if not origination:
        return "SMS_TWO_WAY is on: SMS_ORIGINATION_INVITES must name the two-way number whose replies reach the stage"
    return None


def settings_problems(env: dict) -> list[str]:
    """What is missing or wrong among the functions' settings ([] when nothing)."""
    found = []
    for setting in SETTINGS:
        problem = setting.problem(env.get(setting.name))
        if problem:
            found.append(f"{setting.name} {env.get(setting.name)!r}: {problem} in every deployed stage")
    two_way = two_way_problem(env.get("SMS_TWO_WAY"), env.get("SMS_ORIGINATION_INVITES"))
    found += [f"{two_way} (docs/deploy.md)"] if two_way else []
    found += [f"{key.setting} is not set: it names {key.what} in SSM" for key in KEYS if not env.get(key.setting)]
    return found


def key_problems(ssm, env: dict, stage: str, settings: tuple[str, ...] | None = None) -> list[str]:
    """What is missing or unfit among the keys the settings name ([] when nothing); only ``settings`` when given."""
    found = []
    for key in KEYS:
        name = env.get(key.setting)
        if not name or (settings is not None and key.setting not in settings):
            continue
        try:
            parameter = ssm.get_parameter(Name=name, WithDecryption=True)["Parameter"]
        except ssm.exceptions.ParameterNotFound:
            found.append(f"no SSM parameter {name} ({key.what}): {key.create.format(name=name, stage=stage)}")
            continue
        if parameter["Type"] != "SecureString":
            found.append(f"SSM parameter {name} ({key.what}) is a {parameter['Type']}, not a SecureString")
            continue
        problem = key.problem(parameter["Value"])
        if problem:
            found.append(f"SSM parameter {name} ({key.what}) {problem}")
    return found


def budget_cost_usd(monthly_segments, segment_cost_usd) -> float:
    """What the stage's monthly text budget costs when all of it is sent."""
    return int(monthly_segments) * float(segment_cost_usd)


def spend_limit_problem(sns, monthly_segments, segment_cost_usd) -> str | None:
    """SNS's account-wide MonthlySpendLimit must be above the budget's cost, so that the service (which keeps
    pins going after invitations stop) decides what stops first, not SNS (which stops every text)."""
    attributes = sns.get_sms_attributes(attributes=["MonthlySpendLimit"])["attributes"]
    limit = float(attributes.get("MonthlySpendLimit") or 0)
    cost = budget_cost_usd(monthly_segments, segment_cost_usd)
    if limit > cost:
        return None
    return (
        f"SNS MonthlySpendLimit is {limit:g} USD, not above the text budget's cost of {cost:.2f} USD "
        f"(sms_monthly_segments x sms_segment_cost_usd): aws sns set-sms-attributes --attributes "
        f'MonthlySpendLimit={int(cost * 1.25) + 1} (docs/deploy.md, "Sizing the text budget")'
    )


def stage_problems(session, stage: str, env: dict, stage_settings: dict) -> list[str]:
    """Everything the stage lacks: the settings first; when they are complete, the keys and the spend limit
    as AWS reports them (with ``session``'s credentials)."""
    found = settings_problems(env)
    if found:
        return found
    found = key_problems(session.client("ssm"), env, stage)
    segment_cost = stage_settings.get("sms_segment_cost_usd")
    if positive(float)(segment_cost):
        found.append(f"sms_segment_cost_usd {segment_cost!r} of {stage} in infra/stages.json: a positive float")
    else:
        problem = spend_limit_problem(session.client("sns"), env["SMS_MONTHLY_SEGMENTS"], segment_cost)
        found += [problem] if problem else []
    return found


def ensure_stop_list_key(ssm, env: dict) -> bool:
    """Make the stop list's key once, as the key the list had when it was derived from the pin key, so the
    numbers already on it stay on it (from then on rotating the pin key leaves it). True when it was made."""
    from chalicelib.pinkey import derived_stop_list_key

    name = env["STOP_LIST_KEY_PARAMETER"]
    try:
        ssm.get_parameter(Name=name, WithDecryption=True)
        return False
    except ssm.exceptions.ParameterNotFound:
        pass
    pin = ssm.get_parameter(Name=env["PIN_KEY_PARAMETER"], WithDecryption=True)["Parameter"]["Value"]
    key = derived_stop_list_key(pin.encode()).hex()
    ssm.put_parameter(Name=name, Type="SecureString", Value=key, Overwrite=False)
    return True


def stage_environment(stage: str, settings: dict | None = None) -> dict:
    """The functions' settings of ``stage``: .chalice/config.json's, with a settings file's over them."""
    env = dict(json.loads(CONFIG.read_text())["stages"][stage].get("environment_variables", {}))
    env.update((settings or {}).get("environment_variables", {}))
    return env


def main(argv: list[str] | None = None) -> int:
    import boto3

    parser = stage_config.stage_arguments(__doc__)
    parser.add_argument("--settings", help="the stage file chalice_cli.py will be given (build/stages/<stage>.json)")
    parser.add_argument("--create-keys", action="store_true", help="make the stop list's key when it is missing")
    args = parser.parse_args(argv)
    settings = json.loads(Path(args.settings).read_text()) if args.settings else None
    env = stage_environment(args.stage, settings)
    session = boto3.session.Session()
    if args.create_keys and not key_problems(session.client("ssm"), env, args.stage, ("PIN_KEY_PARAMETER",)):
        if ensure_stop_list_key(session.client("ssm"), env):
            print(f"stage_needs: made {env['STOP_LIST_KEY_PARAMETER']} from the pin key")
    stage_settings = json.loads(STAGES_FILE.read_text())[args.stage]
    problems = stage_problems(session, args.stage, env, stage_settings)
    for problem in problems:
        print(f"stage_needs: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
