"""`make deploy STAGE=dev|prod`: the one deploy path (README, "Deploy").

    .venv/bin/python scripts/deploy.py --stage prod [--region eu-west-1] [--no-smoke]

With your AWS credentials, in order, stopping with a message and exit status 1 at the first problem:

1. checks: ``infra/stages.json`` has no placeholder and gives the stage its texting guards (countries, maximum
   price per text, monthly segment budget and segment price); the account keeps 100 unreserved concurrency after
   the stage's reserves (GetAccountSettings); the SSM SecureString ``/invites/<stage>/pin-secret`` exists
   and is not the development key or a placeholder (its value is never printed or written); SNS's account
   ``MonthlySpendLimit`` is above the text budget's cost; the APNS and FCM platform applications
   ``invites-<stage>-apns`` and ``invites-<stage>-fcm`` exist;
2. creates or updates the stack ``invites-<stage>`` of ``infra/template.yaml`` and waits for it;
3. writes the stage's settings from the stack's outputs to ``build/stages/<stage>.json`` (git-ignored;
   scripts/stage_config.py), never into the tracked ``.chalice/config.json``;
4. when ``.chalice/deployed/<stage>.json`` is missing (another machine, a fresh clone), finds the stage's
   existing REST API and functions and writes that file back, so the redeploy updates them instead of
   making a second API with a new URL;
5. ``chalice deploy`` through scripts/chalice_cli.py: runtime python3.12, manylinux wheels only, the gateway
   responses (404 for unknown paths, fixed bodies) inside the API definition it imports, the stage's reserved
   concurrency;
6. the stage's throttles (scripts/gateway.py) and the stack's web ACL (body limit, per-address rate rule) on the
   API stage (required on prod), and the failure destination of the asynchronously invoked handle_inbound_sms;
   the avatar bucket's notification of album uploads to process_photo_upload, with its failure destination;
   the texts' delivery-status log groups subscribed to record_text_receipts, with its failure destination;
   SNS's SMS attributes (delivery-status logging with the stack's role: every failure, a sample of deliveries)
   and its log groups' retention; then the texting guards read back (attributes, spend and success-rate alarms,
   the rate rule);
7. a smoke test of the URL: ``/openapi.json`` 200, ``GET /events`` without a token 401, an unknown path 404
   without echoing the ``Authorization`` header, and, with the stage's smoke token (SSM
   ``/invites/<stage>/smoke-token``, docs/operations.md), a 204 with neither body nor Content-Type.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

import async_invocation  # noqa: E402
import gateway  # noqa: E402
import photo_uploads  # noqa: E402
import pipeline  # noqa: E402
import stage_config  # noqa: E402
import stage_needs  # noqa: E402
import text_receipts  # noqa: E402
from chalice_cli import is_placeholder  # noqa: E402

STAGES_FILE = ROOT / "infra" / "stages.json"
# What AWS.MM.SMS.OriginationNumber takes: a number in E.164, or the id or ARN of a phone number or a pool of
# AWS End User Messaging SMS (a sender id is the separate sms_sender_id).
ORIGINATION_IDENTITY = re.compile(
    r"\+[1-9]\d{6,14}|(?:phone|pool)-[0-9a-f]{32}|arn:aws[a-z-]*:sms-voice:[a-z0-9-]+:\d{12}:(?:phone-number|pool)/[\w-]+"
)
TEMPLATE = ROOT / "infra" / "template.yaml"
CONFIG = ROOT / ".chalice" / "config.json"
DEPLOYED = ROOT / ".chalice" / "deployed"
APP_NAME = "invites"
SMOKE_ATTEMPTS = 10
EDGE_CERTIFICATE_REGION = "us-east-1"  # an edge-optimized API's custom domain takes its certificate from here


class Stop(Exception):
    """A problem that ends the deploy with its message."""


def say(text: str) -> None:
    print(f"deploy: {text}", flush=True)


# --- 1. checks ------------------------------------------------------------------------------------------


def stage_settings(stage: str) -> dict:
    stages = json.loads(STAGES_FILE.read_text())
    if stage not in stages or stage.startswith("_"):
        raise Stop(f"no stage {stage!r} in {STAGES_FILE.relative_to(ROOT)}")
    settings = stages[stage]
    placeholders = [path for path, value in _walk(settings) if is_placeholder(value)]
    if placeholders:
        raise Stop(f"fill these in {STAGES_FILE.relative_to(ROOT)} first: {', '.join(placeholders)}")
    domain = settings.get("custom_domain") or {}
    if bool(domain.get("domain_name")) != bool(domain.get("certificate_arn")):
        raise Stop("custom_domain needs both domain_name and certificate_arn (or neither)")
    certificate = domain.get("certificate_arn") or ""
    if certificate and certificate.split(":")[3:4] != [EDGE_CERTIFICATE_REGION]:
        raise Stop(
            f"custom_domain.certificate_arn must be an ACM certificate in {EDGE_CERTIFICATE_REGION}: the API is "
            "edge-optimized, and API Gateway takes an edge domain's certificate from that region only"
        )
    for key in ("sms_origination_pins", "sms_origination_invites"):
        value = settings.get(key) or ""
        if value and not ORIGINATION_IDENTITY.fullmatch(value):
            raise Stop(f"{key} {value!r}: an E.164 number, or a phone number's or pool's id or ARN (docs/deploy.md)")
    check_texting_settings(settings)
    return settings


# The stage's texting guards (docs/deploy.md, "Sizing the text budget"): each is required in a deployed stage. The
# countries, maximum price and monthly budget are scripts/stage_needs.py's (the pipeline's packaging checks them too).
MIN_SUCCESS_SAMPLING = 10  # percent of delivered texts SNS logs, at least (every failed one is logged)


def check_texting_settings(settings: dict) -> None:
    """Refuse a stage that could text anywhere, at any price, or without a budget."""
    for setting in stage_needs.SETTINGS:
        problem = setting.problem(settings.get(setting.stage_key))
        if problem:
            raise Stop(f"{setting.stage_key} {settings.get(setting.stage_key)!r}: {problem} in every deployed stage "
                       "(docs/deploy.md)")  # fmt: skip
    two_way = stage_needs.two_way_problem(settings.get("sms_two_way"), settings.get("sms_origination_invites"))
    if two_way:
        raise Stop(f"{two_way} (docs/deploy.md)")
    cost = settings.get("sms_segment_cost_usd")
    problem = stage_needs.positive(float)(cost)
    if problem:
        raise Stop(f"sms_segment_cost_usd {cost!r}: {problem} in every deployed stage (docs/deploy.md)")
    sampling = settings.get("sms_delivery_success_sampling_percent", MIN_SUCCESS_SAMPLING)
    if not isinstance(sampling, int) or not MIN_SUCCESS_SAMPLING <= sampling <= 100:
        raise Stop(f"sms_delivery_success_sampling_percent {sampling!r}: from {MIN_SUCCESS_SAMPLING} to 100")


def budget_cost_usd(settings: dict) -> float:
    """What the stage's monthly text budget costs when all of it is sent."""
    return stage_needs.budget_cost_usd(settings["sms_monthly_segments"], settings["sms_segment_cost_usd"])


def _walk(value, path: str = ""):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _walk(inner, f"{path}.{key}" if path else key)
    else:
        yield path, value


def chalice_stage(stage: str) -> dict:
    return json.loads(CONFIG.read_text())["stages"][stage]


def check_pin_key(session, stage: str) -> None:
    env = chalice_stage(stage)["environment_variables"]
    problems = stage_needs.key_problems(session.client("ssm"), env, stage, ("PIN_KEY_PARAMETER",))
    if problems:
        raise Stop(problems[0])


def ensure_stop_list_key(session, stage: str) -> None:
    """The stop list's own key (STOP_LIST_KEY_PARAMETER), made once from the pin key (scripts/stage_needs.py)."""
    env = chalice_stage(stage)["environment_variables"]
    if stage_needs.ensure_stop_list_key(session.client("ssm"), env):
        say(f"stop list key {env['STOP_LIST_KEY_PARAMETER']} created (the stop list no longer depends on the pin key)")
    problems = stage_needs.key_problems(session.client("ssm"), env, stage, ("STOP_LIST_KEY_PARAMETER",))
    if problems:
        raise Stop(problems[0])


def check_spend_limit(session, settings: dict) -> None:
    """SNS's account-wide MonthlySpendLimit above the budget's cost (scripts/stage_needs.py)."""
    problem = stage_needs.spend_limit_problem(
        session.client("sns"), settings["sms_monthly_segments"], settings["sms_segment_cost_usd"]
    )
    if problem:
        raise Stop(problem)


def apns_platform_application(session, stage: str) -> str:
    return platform_application(session, f"{APP_NAME}-{stage}-apns")


def fcm_platform_application(session, stage: str) -> str:
    """Android's (SNS platform GCM with the FCM service account's key), made as the APNS one is."""
    return platform_application(session, f"{APP_NAME}-{stage}-fcm")


def platform_application(session, name: str) -> str:
    sns = session.client("sns")
    for page in sns.get_paginator("list_platform_applications").paginate():
        for application in page["PlatformApplications"]:
            if application["PlatformApplicationArn"].rsplit("/", 1)[-1] == name:
                return application["PlatformApplicationArn"]
    raise Stop(f"no SNS platform application {name}: create it first (README, Deploy)")


# --- 2. the stack ---------------------------------------------------------------------------------------


def template_body(emulated: bool) -> str:
    if not emulated:
        return TEMPLATE.read_text()
    import local_stack  # the emulator cannot create CloudFront, alarms, subscriptions

    return local_stack.local_template_body(local_stack.load_template())


def stack_parameters(stage: str, settings: dict, apns_arn: str, fcm_arn: str = "") -> list[dict]:
    values = {
        "Stage": stage,
        "ApiName": APP_NAME,
        "ApiStageName": chalice_stage(stage)["api_gateway_stage"],
        "ApnsPlatformApplicationArn": apns_arn,
        "FcmPlatformApplicationArn": fcm_arn,
        "SmsSenderId": settings.get("sms_sender_id", ""),
        "AlarmEmail": settings.get("alarm_email", ""),
        "LoginRequestsPerAddress": str(settings.get("login_requests_per_address", 100)),
        "SmsBudgetHalfCostUsd": f"{budget_cost_usd(settings) * 0.5:.2f}",
        "SmsBudgetHighCostUsd": f"{budget_cost_usd(settings) * 0.8:.2f}",
        "TableDeletionProtection": "true" if settings.get("deletion_protection", True) else "false",
    }
    return [{"ParameterKey": key, "ParameterValue": value} for key, value in values.items()]


def deploy_stack(session, stage: str, settings: dict, push_apps: tuple[str, str], emulated: bool) -> dict[str, str]:
    cloudformation = session.client("cloudformation")
    name = f"{APP_NAME}-{stage}"
    arguments = {
        "StackName": name,
        "TemplateBody": template_body(emulated),
        "Parameters": stack_parameters(stage, settings, *push_apps),
        "Tags": [{"Key": "app", "Value": APP_NAME}, {"Key": "stage", "Value": stage}],
    }
    try:
        cloudformation.describe_stacks(StackName=name)
        exists = True
    except cloudformation.exceptions.ClientError:
        exists = False
    if exists:
        try:
            cloudformation.update_stack(**arguments)
            say(f"updating stack {name}")
            cloudformation.get_waiter("stack_update_complete").wait(StackName=name, WaiterConfig={"Delay": 5})
        except cloudformation.exceptions.ClientError as error:
            if "No updates are to be performed" not in str(error):
                raise Stop(f"stack {name}: {error}") from None
            say(f"stack {name} is up to date")
    else:
        say(f"creating stack {name} (the CDN takes some minutes)")
        cloudformation.create_stack(**arguments)
        cloudformation.get_waiter("stack_create_complete").wait(StackName=name, WaiterConfig={"Delay": 5})
    stack = cloudformation.describe_stacks(StackName=name)["Stacks"][0]
    if not stack["StackStatus"].endswith("_COMPLETE") or "ROLLBACK" in stack["StackStatus"]:
        raise Stop(f"stack {name}: {stack['StackStatus']} {stack.get('StackStatusReason', '')}")
    return {output["OutputKey"]: output["OutputValue"] for output in stack.get("Outputs", [])}


def emulated_stand_ins(session, stage: str, settings: dict, push_apps: tuple[str, str]) -> dict[str, str]:
    import local_stack

    parameters = {p["ParameterKey"]: p["ParameterValue"] for p in stack_parameters(stage, settings, *push_apps)}
    return local_stack.create_stand_ins(session, f"{APP_NAME}-{stage}", local_stack.load_template(), parameters)


# --- 3. settings ----------------------------------------------------------------------------------------


def write_settings(stage: str, settings: dict, outputs: dict[str, str], emulated: bool) -> Path:
    if emulated and not outputs.get("AvatarBaseUrl"):  # no CloudFront in the emulator: the bucket's own URL
        outputs = {**outputs, "AvatarBaseUrl": f"https://{outputs['AvatarBucketName']}.s3.amazonaws.com"}
    extra = {}
    domain = settings.get("custom_domain") or {}
    if domain.get("domain_name"):
        extra["api_gateway_custom_domain"] = {
            "domain_name": domain["domain_name"],
            "certificate_arn": domain["certificate_arn"],
        }
    try:
        return stage_config.write_settings(stage, outputs, extra, stage_settings=settings)
    except SystemExit as problem:
        raise Stop(str(problem)) from None


# --- 4. lost deploy state -------------------------------------------------------------------------------


def recover_deployed_state(session, stage: str) -> bool:
    """Rebuild ``.chalice/deployed/<stage>.json`` from what exists in the account. True when written."""
    path = DEPLOYED / f"{stage}.json"
    if path.exists():
        return False
    api_stage = chalice_stage(stage)["api_gateway_stage"]
    apigateway = session.client("apigateway")
    candidates = []
    for page in apigateway.get_paginator("get_rest_apis").paginate():
        for api in page["items"]:
            if api["name"] != APP_NAME:
                continue
            stages = {s["stageName"] for s in apigateway.get_stages(restApiId=api["id"]).get("item", [])}
            if api_stage in stages:
                candidates.append(api["id"])
    if not candidates:
        return False
    if len(candidates) > 1:
        raise Stop(f"{len(candidates)} REST APIs named {APP_NAME} have stage {api_stage}: {candidates}; keep one")
    rest_api_id = candidates[0]
    region = session.region_name
    lambda_client = session.client("lambda")
    resources = []
    functions = {"api_handler": f"{APP_NAME}-{stage}"}
    for name in ("send_notifications", "remind_upcoming_events"):
        functions[name] = f"{APP_NAME}-{stage}-{name}"
    for name, function_name in functions.items():
        try:
            arn = lambda_client.get_function(FunctionName=function_name)["Configuration"]["FunctionArn"]
        except lambda_client.exceptions.ResourceNotFoundException:
            continue
        resources.append({"name": name, "resource_type": "lambda_function", "lambda_arn": arn})
        if name == "send_notifications":
            for mapping in _event_source_mappings(lambda_client, arn):
                resources.append(
                    {
                        "name": f"{name}-sqs-event-source",
                        "resource_type": "sqs_event",
                        "queue_arn": mapping["EventSourceArn"],
                        "event_uuid": mapping["UUID"],
                        "queue": mapping["EventSourceArn"].rsplit(":", 1)[-1],
                        "lambda_arn": mapping["FunctionArn"],  # chalice compares the mapping's own
                    }
                )
    resources.append(
        {
            "name": "rest_api",
            "resource_type": "rest_api",
            "rest_api_id": rest_api_id,
            "rest_api_url": f"https://{rest_api_id}.execute-api.{region}.amazonaws.com/{api_stage}/",
        }
    )
    DEPLOYED.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"resources": resources, "schema_version": "2.0", "backend": "api"}, indent=2))
    say(f"{path.relative_to(ROOT)} was missing: recovered REST API {rest_api_id} and {len(functions)} functions")
    return True


def _event_source_mappings(lambda_client, function_arn: str) -> list[dict]:
    """The function's event source mappings (all pages; filtered here: moto ignores the FunctionName filter)."""
    found = []
    for page in lambda_client.get_paginator("list_event_source_mappings").paginate():
        found += [m for m in page["EventSourceMappings"] if m["FunctionArn"] == function_arn]
    return found


# --- 5. chalice deploy ----------------------------------------------------------------------------------


def deployed_url(stage: str) -> str:
    """The stage's API URL from chalice's deploy state ("" before the first deploy)."""
    path = DEPLOYED / f"{stage}.json"
    if not path.exists():
        return ""
    resources = json.loads(path.read_text())["resources"]
    return next((r["rest_api_url"] for r in resources if r.get("resource_type") == "rest_api"), "")


def public_base(settings: dict, api_url: str) -> str:
    """PUBLIC_BASE_URL of the stage: its custom domain, else its own API URL ("" when neither is known).
    Links in invitation texts (/i/<code>) and next/previous links are built on it."""
    domain = (settings.get("custom_domain") or {}).get("domain_name")
    if domain:
        return f"https://{domain}"
    return api_url.rstrip("/")


def set_public_base(settings_file: Path, base: str) -> None:
    generated = json.loads(settings_file.read_text())
    generated["environment_variables"]["PUBLIC_BASE_URL"] = base
    settings_file.write_text(json.dumps(generated, indent=2) + "\n")


def chalice_deploy(stage: str, settings_file: Path) -> dict:
    command = [sys.executable, str(ROOT / "scripts" / "chalice_cli.py"), "--settings", str(settings_file)]
    command += ["deploy", "--stage", stage]
    result = subprocess.run(command, cwd=ROOT, stdin=subprocess.DEVNULL)
    if result.returncode != 0:
        raise Stop(f"chalice deploy failed (exit {result.returncode}); see above")
    deployed = json.loads((DEPLOYED / f"{stage}.json").read_text())
    return {resource["name"]: resource for resource in deployed["resources"]}


def api_log_retention(session, stage: str) -> None:
    """chalice 1.34 gives the API function's retention to a log group named after ``api_handler``
    (``/aws/lambda/invites-<stage>-api_handler``), which the function never writes to: set it on the real one."""
    logs = session.client("logs")
    name = f"/aws/lambda/{APP_NAME}-{stage}"
    try:
        logs.create_log_group(logGroupName=name)
    except logs.exceptions.ResourceAlreadyExistsException:
        pass
    logs.put_retention_policy(logGroupName=name, retentionInDays=chalice_stage(stage)["log_retention_in_days"])


# --- 6. the web ACL -------------------------------------------------------------------------------------


def associate_web_acl(session, web_acl_arn: str | None, rest_api_id: str, api_stage: str) -> None:
    """Put the stack's web ACL (bodies over the limit answer 413) in front of the API stage. The association
    belongs to the stage, which ``chalice deploy``'s overwrite import keeps: setting it again changes nothing."""
    if not web_acl_arn:  # the emulator's stack has none
        say("no web ACL in the stack: the body limit is left to the function")
        return
    stage_arn = f"arn:aws:apigateway:{session.region_name}::/restapis/{rest_api_id}/stages/{api_stage}"
    session.client("wafv2").associate_web_acl(WebACLArn=web_acl_arn, ResourceArn=stage_arn)
    say(f"web ACL {web_acl_arn.rsplit('/', 2)[-2]} guards {rest_api_id}/{api_stage}")


def require_web_acl(stage: str, outputs: dict[str, str], emulated: bool) -> None:
    """Prod is never deployed without the body-limit web ACL (the emulator's stack has none)."""
    if stage in pipeline.STAGES_REQUIRING_WEB_ACL and not emulated and not outputs.get("ApiWebAclArn"):
        raise Stop(f"the {stage} stack has no ApiWebAclArn output: {stage} needs its web ACL (infra/template.yaml)")


# --- concurrency and asynchronous failures ----------------------------------------------------------------

# AWS keeps this much of an account's concurrency unreserved: a reservation that would leave less fails.
MIN_UNRESERVED_CONCURRENCY = 100


def check_unreserved_concurrency(session, stage: str, settings: dict) -> None:
    """Before reserving: the account must keep MIN_UNRESERVED_CONCURRENCY unreserved after the stage's reserves.
    New accounts start with a concurrency quota far below the usual 1000; what the stage's functions already
    reserve (a redeploy) is counted as theirs."""
    client = session.client("lambda")
    unreserved = client.get_account_settings()["AccountLimit"]["UnreservedConcurrentExecutions"]
    wanted = settings.get("reserved_concurrency", {})
    names = pipeline.function_names(stage)
    held = 0
    for function in wanted:
        try:
            held += client.get_function_concurrency(FunctionName=names[function]).get("ReservedConcurrentExecutions", 0)
        except client.exceptions.ResourceNotFoundException:  # not deployed yet
            pass
    more = sum(wanted.values()) - held
    if unreserved - more < MIN_UNRESERVED_CONCURRENCY:
        raise Stop(
            f"the account has {unreserved} unreserved concurrency; reserving {more} more for {stage} "
            f"({', '.join(f'{k} {v}' for k, v in wanted.items())}) would leave fewer than "
            f"{MIN_UNRESERVED_CONCURRENCY}, which AWS refuses: ask for a higher Lambda concurrency quota "
            "(Service Quotas, 'Concurrent executions') or lower reserved_concurrency in infra/stages.json"
        )
    say(f"concurrency: {unreserved} unreserved in the account, {more} more reserved by this deploy")


def set_inbound_failure_destination(session, stage: str, outputs: dict[str, str]) -> None:
    """SNS invokes handle_inbound_sms asynchronously: after Lambda's retries a failed reply goes to the stack's
    failure queue (alarmed), not nowhere. Chalice has no setting for it."""
    destination = outputs.get("InboundSmsFailureQueueArn")
    if not destination:
        raise Stop("the stack has no InboundSmsFailureQueueArn output: is it infra/template.yaml's?")
    session.client("lambda").put_function_event_invoke_config(
        FunctionName=pipeline.function_names(stage)[pipeline.INBOUND_FUNCTION],
        MaximumRetryAttempts=async_invocation.ASYNC_RETRY_ATTEMPTS,
        DestinationConfig={"OnFailure": {"Destination": destination}},
    )
    say("failed replies by text go to the inbound-sms failure queue")


# --- 6b. texting guards ---------------------------------------------------------------------------------


def turn_on_delivery_status_logging(session, settings: dict, outputs: dict[str, str]) -> None:
    """SNS logs every failed text and a sample of delivered ones with the stack's role (account-wide SMS
    attributes, which CloudFormation cannot set)."""
    sampling = settings.get("sms_delivery_success_sampling_percent", MIN_SUCCESS_SAMPLING)
    session.client("sns").set_sms_attributes(
        attributes={
            "DeliveryStatusIAMRole": outputs["SmsDeliveryStatusRoleArn"],
            "DeliveryStatusSuccessSamplingRate": str(sampling),
            "DefaultSMSType": "Transactional",
        }
    )
    say(f"SMS delivery status logged: every failure, {sampling}% of deliveries")


def delivery_log_groups(session) -> list[str]:
    """SNS's log groups of texts delivered and failed (it names them; it creates them on the first text)."""
    account = session.client("sts").get_caller_identity()["Account"]
    return text_receipts.log_groups(session.region_name, account)


def keep_delivery_logs(session, stage: str) -> None:
    """The delivery-status logs name each text's phone number: made now, kept only as long as the stage's own
    logs (``log_retention_in_days``), never the default of forever."""
    logs = session.client("logs")
    days = chalice_stage(stage)["log_retention_in_days"]
    for name in delivery_log_groups(session):
        try:
            logs.create_log_group(logGroupName=name)
        except logs.exceptions.ResourceAlreadyExistsException:
            pass
        logs.put_retention_policy(logGroupName=name, retentionInDays=days)


def text_guard_problems(session, stage: str, settings: dict, outputs: dict[str, str], stage_arn: str) -> list[str]:
    """What is missing of the stage's texting guards as AWS reports them after the deploy ([] when nothing):
    delivery-status logging, the spend and success-rate alarms, the web ACL's per-address rate rule."""
    problems = []
    sms = session.client("sns").get_sms_attributes()["attributes"]
    if sms.get("DeliveryStatusIAMRole") != outputs.get("SmsDeliveryStatusRoleArn"):
        problems.append("SNS DeliveryStatusIAMRole is not the stack's SmsDeliveryStatusRole")
    if int(sms.get("DeliveryStatusSuccessSamplingRate") or 0) < MIN_SUCCESS_SAMPLING:
        problems.append(f"SNS DeliveryStatusSuccessSamplingRate is below {MIN_SUCCESS_SAMPLING}%")
    cost = budget_cost_usd(settings)
    expected = {
        f"{APP_NAME}-{stage}-sms-spend": ("SMSMonthToDateSpentUSD", round(cost * 0.5, 2)),
        f"{APP_NAME}-{stage}-sms-spend-high": ("SMSMonthToDateSpentUSD", round(cost * 0.8, 2)),
        f"{APP_NAME}-{stage}-sms-success-rate": ("SMSSuccessRate", 0.9),
    }
    found = session.client("cloudwatch").describe_alarms(AlarmNames=list(expected))["MetricAlarms"]
    alarms = {alarm["AlarmName"]: (alarm.get("MetricName"), round(alarm["Threshold"], 2)) for alarm in found}
    for name, wanted in expected.items():
        if alarms.get(name) != wanted:
            problems.append(f"alarm {name}: {alarms.get(name)}, not {wanted}")
    acl = session.client("wafv2").get_web_acl_for_resource(ResourceArn=stage_arn).get("WebACL")
    rates = [rule.get("Statement", {}).get("RateBasedStatement") for rule in (acl or {}).get("Rules", [])]
    per_address = [rate for rate in rates if rate and rate.get("AggregateKeyType") == "IP"]
    if not any("auth" in json.dumps(rate, default=str) for rate in per_address):  # SearchString comes back as bytes
        problems.append("the API stage's web ACL has no per-address rate rule for the login routes")
    return problems


# --- 7. smoke test --------------------------------------------------------------------------------------


SMOKE_DEVICE_TOKEN = "0" * 64  # a device nobody registers: removing it changes nothing


def smoke_token(session, stage: str) -> str | None:
    """The stage's smoke-test bearer token (SSM SecureString ``/invites/<stage>/smoke-token``), if one is kept."""
    ssm = session.client("ssm")
    try:
        return ssm.get_parameter(Name=f"/{APP_NAME}/{stage}/smoke-token", WithDecryption=True)["Parameter"]["Value"]
    except ssm.exceptions.ParameterNotFound:
        return None


def smoke_test(url: str, attempts: int = SMOKE_ATTEMPTS, token: str | None = None) -> list[str]:
    """What the deployed URL gets wrong ([] when nothing); retried while a new deployment propagates.

    ``token``: a real user's bearer token; with it, a 204 is checked to carry neither body nor Content-Type."""
    import requests

    base = url.rstrip("/")
    made_up = f"1.smoke-{uuid.uuid4().hex}"
    problems: list[str] = []
    for attempt in range(attempts):
        problems = []
        try:
            docs = requests.get(f"{base}/openapi.json", timeout=10)
            if docs.status_code != 200 or "openapi" not in docs.json():
                problems.append(f"GET /openapi.json: {docs.status_code}")
            events = requests.get(f"{base}/events", timeout=10)
            if events.status_code != 401:
                problems.append(f"GET /events without a token: {events.status_code}, not 401")
            for method in ("GET", "POST", "DELETE"):
                for bearer in filter(None, (made_up, token)):
                    unknown = requests.request(
                        method,
                        f"{base}/no-such-path-{uuid.uuid4().hex[:8]}",
                        headers={"Authorization": f"Bearer {bearer}"},
                        timeout=10,
                    )
                    if unknown.status_code != 404 or unknown.text.strip() != gateway.NOT_FOUND_BODY:
                        problems.append(f"{method} of an unknown path: {unknown.status_code} {unknown.text[:80]}")
                    if bearer in unknown.text or any(bearer in value for value in unknown.headers.values()):
                        problems.append(f"{method} of an unknown path repeats the Authorization header")
            if token:
                problems += _no_content_problems(requests, base, token)
        except (requests.RequestException, ValueError) as error:
            problems.append(f"{type(error).__name__}: {error}")
        if not problems:
            return []
        if attempt + 1 < attempts:
            time.sleep(3)
    return problems


def _no_content_problems(requests, base: str, token: str) -> list[str]:
    answer = requests.post(
        f"{base}/notifications/remove_ios_device",
        json={"token": SMOKE_DEVICE_TOKEN},
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    if answer.status_code != 204:
        return [f"POST /notifications/remove_ios_device: {answer.status_code}, not 204 ({answer.text[:80]})"]
    found = []
    if answer.content:
        found.append(f"a 204 has a body: {answer.content[:80]!r}")
    if "Content-Type" in answer.headers:
        found.append(f"a 204 has Content-Type: {answer.headers['Content-Type']}")
    return found


# --- main -----------------------------------------------------------------------------------------------


def deploy(stage: str, region: str | None, smoke: bool, emulated: bool) -> str:
    import boto3

    settings = stage_settings(stage)
    session = boto3.session.Session(region_name=region)
    if session.region_name is None:
        raise Stop("no AWS region: pass --region or set AWS_DEFAULT_REGION")
    check_pin_key(session, stage)
    ensure_stop_list_key(session, stage)
    check_spend_limit(session, settings)
    push_apps = (apns_platform_application(session, stage), fcm_platform_application(session, stage))
    if not emulated:  # moto has no account settings
        check_unreserved_concurrency(session, stage, settings)
    outputs = deploy_stack(session, stage, settings, push_apps, emulated)
    if emulated:  # what the emulator's CloudFormation cannot create, made from the template (scripts/local_stack.py)
        outputs = {**outputs, **emulated_stand_ins(session, stage, settings, push_apps)}
    require_web_acl(stage, outputs, emulated)
    settings_file = write_settings(stage, settings, outputs, emulated)
    say(f"stage settings: {settings_file.relative_to(ROOT)}")
    recover_deployed_state(session, stage)
    base = public_base(settings, deployed_url(stage))
    if base:
        set_public_base(settings_file, base)
    deployed = chalice_deploy(stage, settings_file)
    if not base:  # the first deploy of the stage: its URL is known only now, and the texts' links need it
        set_public_base(settings_file, public_base(settings, deployed["rest_api"]["rest_api_url"]))
        say("first deploy of the stage: deploying again with PUBLIC_BASE_URL set to its URL")
        deployed = chalice_deploy(stage, settings_file)
    api_log_retention(session, stage)
    set_inbound_failure_destination(session, stage, outputs)
    photo_uploads.connect(session, pipeline.function_names(stage)[photo_uploads.FUNCTION], outputs)
    say("album uploads reach process_photo_upload (the bucket's notification, failures to their queue)")
    rest_api = deployed["rest_api"]
    api_stage = chalice_stage(stage)["api_gateway_stage"]
    gateway.apply_throttles(session.client("apigateway"), rest_api["rest_api_id"], api_stage, settings)
    say(f"throttles set on {rest_api['rest_api_id']}/{api_stage}")
    associate_web_acl(session, outputs.get("ApiWebAclArn"), rest_api["rest_api_id"], api_stage)
    keep_delivery_logs(session, stage)
    turn_on_delivery_status_logging(session, settings, outputs)
    text_receipts.connect(session, pipeline.function_names(stage)[text_receipts.FUNCTION], outputs)
    say("texts' delivery-status logs reach record_text_receipts (subscription filters, failures to their queue)")
    stage_arn = f"arn:aws:apigateway:{session.region_name}::/restapis/{rest_api['rest_api_id']}/stages/{api_stage}"
    problems = text_guard_problems(session, stage, settings, outputs, stage_arn)
    if problems:
        raise Stop("the texting guards are not all in place:\n  " + "\n  ".join(problems))
    say("texting guards in place: delivery-status logging, spend and success-rate alarms, per-address rate rule")
    url = rest_api["rest_api_url"]
    if smoke:
        token = smoke_token(session, stage)
        if token is None:
            say(f"no /{APP_NAME}/{stage}/smoke-token in SSM: the 204 check is skipped (docs/operations.md)")
        problems = smoke_test(url, token=token)
        if problems:
            raise Stop(f"smoke test of {url} failed:\n  " + "\n  ".join(problems))
        say("smoke test passed")
    say(f"deployed {stage}: {url}")
    return url


def main(argv: list[str] | None = None) -> int:
    parser = stage_config.stage_arguments(__doc__)
    parser.add_argument("--region", help="default: your AWS configuration's")
    parser.add_argument("--no-smoke", action="store_true", help="skip the smoke test of the deployed URL")
    args = parser.parse_args(argv)
    emulated = bool(os.environ.get("AWS_ENDPOINT_URL"))  # the deploy rehearsal against moto (tests/infra)
    try:
        deploy(args.stage, args.region, smoke=not args.no_smoke, emulated=emulated)
    except Stop as problem:
        print(f"deploy: {problem}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
