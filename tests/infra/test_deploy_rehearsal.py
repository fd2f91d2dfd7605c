"""`make deploy` (scripts/deploy.py) rehearsed against moto server on 127.0.0.1, as far as the emulator goes.

Covered: the pin-key and APNS checks, the stack (minus what moto's CloudFormation cannot create:
scripts/local_stack.py UNSUPPORTED_LOCALLY), the generated stage settings, `chalice deploy` through
scripts/chalice_cli.py creating the three functions with their own roles and reserves, the SQS mapping (its
pollers capped) and the hourly schedule, the gateway responses taken from the API definition chalice imports
(the emulator keeps them as AWS does: an overwrite import replaces them all), deletion protection, the restore
guide (scripts/restore.py: a table restored beside and swapped in; avatars back from their versions), and a
second deploy after the deploy state was lost; the texting guards: the deploy refuses an SNS spend limit below the
text budget's cost, then sets delivery-status logging, and the spend and success-rate alarms and the web ACL's
per-address rate rule are in place (the alarms and web ACL made from the template through their own APIs, as
moto's CloudFormation cannot create them: scripts/local_stack.py create_stand_ins).

What moto 5.2.5 cannot do, and what covers it instead:
- ImportRestApi/PutRestApi take only OpenAPI 3 and Chalice sends Swagger 2.0: the server here creates the
  API by its title with one placeholder method instead of the routes, keeping only the document's gateway
  responses (tests/infra/test_package.py lints the real API definition with cfn-lint);
- a point-in-time restore copies the table as it is at the call, not as it was; CloudFormation ignores the
  bucket's versioning and lifecycle (the test versions the bucket itself); there is no WAF;
- Lambda invoke needs Docker: no smoke test (`--no-smoke`); scripts/deploy.py's smoke test is run against
  `make run`'s stack in tests/test_local_stack.py;
- CloudFront, SNS subscriptions: not in the emulated stack (cfn-lint on the template); CloudWatch alarms and the
  web ACL are made through their own APIs instead (above), so their definitions are checked, not CloudFormation's
  handling of them.
The rehearsal runs on a copy of the project, so the working copy's .chalice/deployed is never touched.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import boto3
import pytest

from tests.infra.scripts import load
from tests.infra.stage_account import emulator_env
from tests.utils.live_stack import free_port

ROOT = Path(__file__).resolve().parents[2]
REGION = "us-east-1"
STAGE = "dev"
KEY = "9f" * 32
PINS_FROM, INVITES_FROM = "+18885550100", "+18885550111"  # the stage's origination identities (infra/stages.json)


def _accept_swagger_imports(monkeypatch) -> list[str]:
    """moto's ImportRestApi/PutRestApi refuse Swagger 2.0 (Chalice's format): create the API by title only,
    and keep of the document what AWS keeps: its gateway responses, those of an overwrite replacing all others
    (AWS deletes whatever an overwrite import does not define, except stages). Returns the imports' modes."""
    from moto.apigateway.models import APIGatewayBackend

    imports: list[str] = []

    def take_gateway_responses(api, api_doc, overwrite: bool) -> None:
        if overwrite:
            api.gateway_responses.clear()
        for kind, response in api_doc.get("x-amazon-apigateway-gateway-responses", {}).items():
            api.put_gateway_response(
                kind,
                response.get("statusCode"),
                response.get("responseParameters"),
                response.get("responseTemplates"),
            )

    def import_rest_api(self, api_doc, fail_on_warnings):
        api = self.create_rest_api(name=api_doc["info"]["title"], description="")
        self.put_method(api.id, api.root_resource_id, "GET", "NONE")  # a deployment needs one method
        self.put_integration(api.id, api.root_resource_id, "GET", "MOCK", uri="", integration_method="GET")
        take_gateway_responses(api, api_doc, overwrite=True)
        imports.append("import")
        return api

    def put_rest_api(self, function_id, api_doc, fail_on_warnings, mode="merge"):
        api = self.get_rest_api(function_id)
        take_gateway_responses(api, api_doc, overwrite=mode == "overwrite")
        imports.append(mode)
        return api

    monkeypatch.setattr(APIGatewayBackend, "import_rest_api", import_rest_api)
    monkeypatch.setattr(APIGatewayBackend, "put_rest_api", put_rest_api)
    return imports


@pytest.fixture
def emulator(monkeypatch):
    from moto.server import ThreadedMotoServer

    imports = _accept_swagger_imports(monkeypatch)
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    env = emulator_env(endpoint)
    try:
        yield endpoint, env, imports
    finally:
        server.stop()


@pytest.fixture
def publishes(monkeypatch) -> list[tuple[str, dict]]:
    """(phone number, message attributes) of every SMS Publish the emulator received (moto keeps no attributes)."""
    from moto.sns.responses import SNSResponse

    recorded = []
    original = SNSResponse.publish

    def recording(self):
        if self._get_param("PhoneNumber"):
            attributes = self._parse_message_attributes()
            recorded.append((self._get_param("PhoneNumber"), {k: v["Value"] for k, v in attributes.items()}))
        return original(self)

    monkeypatch.setattr(SNSResponse, "publish", recording)
    return recorded


def _texts_as_the_api_function(project: Path, env: dict, variables: dict) -> subprocess.CompletedProcess:
    """A pin and an invitation text, sent by the app's code with the deployed API function's settings (moto
    cannot invoke the function itself without Docker)."""
    script = """
from datetime import UTC, datetime
from chalicelib.services.identity import auth, users
from chalicelib.services.hosting import events
auth.request_pin("+14155550123", "192.0.2.1")
owner, _ = users.find_or_create_user("+14155550124", active=True)
when = datetime(2031, 6, 1, 18, 30, tzinfo=UTC)
data = events.EventInput(title="Picnic", event_date=when, is_time_specified=True, invite_phone_numbers=["+14155550125"])
events.create_event(owner, data)
"""
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=project,
        env={**env, **variables, "PYTHONPATH": str(project)},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def project(tmp_path) -> Path:
    """A copy of what a deploy reads, with chalice's package cache when there is one."""
    copy = tmp_path / "project"
    for name in ("app.py", "requirements.txt"):
        shutil.copy(ROOT / name, copy / name) if copy.exists() else (copy.mkdir(), shutil.copy(ROOT / name, copy))
    for name in ("chalicelib", "scripts", "infra"):
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / ".chalice").mkdir()
    for path in (ROOT / ".chalice").glob("*.json"):
        shutil.copy(path, copy / ".chalice")
    if (ROOT / ".chalice" / "deployments").exists():
        shutil.copytree(ROOT / ".chalice" / "deployments", copy / ".chalice" / "deployments")
    return copy


def _client(service: str, endpoint: str):
    return boto3.session.Session().client(
        service, region_name=REGION, endpoint_url=endpoint, aws_access_key_id="testing", aws_secret_access_key="testing"
    )


def _deploy(project: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(project / "scripts" / "deploy.py"), "--stage", STAGE, "--no-smoke"],
        cwd=project,
        env={**env, "PYTHONPATH": str(project)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_make_deploy_rehearsed_on_moto(emulator, project, publishes):
    endpoint, env, imports = emulator
    stages_file = project / "infra" / "stages.json"
    stages = json.loads(stages_file.read_text())
    stages[STAGE].update(sms_origination_pins=PINS_FROM, sms_origination_invites=INVITES_FROM)
    stages_file.write_text(json.dumps(stages))
    # GIVEN an account with the development pin key: the deploy stops before creating anything
    ssm = _client("ssm", endpoint)
    ssm.put_parameter(Name=f"/invites/{STAGE}/pin-secret", Type="SecureString", Value="local-development-pin-secret")
    refused = _deploy(project, env)
    assert refused.returncode == 1 and "holds the development key" in refused.stderr, refused.stderr
    assert _client("cloudformation", endpoint).describe_stacks()["Stacks"] == []
    # and while SNS's account spend limit is not above the text budget's cost (SNS would stop the pins first)
    ssm.put_parameter(Name=f"/invites/{STAGE}/pin-secret", Type="SecureString", Value=KEY, Overwrite=True)
    refused = _deploy(project, env)
    assert refused.returncode == 1 and "MonthlySpendLimit" in refused.stderr, refused.stderr
    assert _client("cloudformation", endpoint).describe_stacks()["Stacks"] == []
    budget_cost = stages[STAGE]["sms_monthly_segments"] * stages[STAGE]["sms_segment_cost_usd"]
    sns = _client("sns", endpoint)
    sns.set_sms_attributes(attributes={"MonthlySpendLimit": str(int(budget_cost) + 10)})
    # and without the APNS platform application
    refused = _deploy(project, env)
    assert refused.returncode == 1 and f"invites-{STAGE}-apns" in refused.stderr, refused.stderr

    # WHEN everything is in place and `make deploy STAGE=dev` runs
    _client("sns", endpoint).create_platform_application(Name=f"invites-{STAGE}-apns", Platform="APNS", Attributes={})
    # and without the FCM one (Android)
    refused = _deploy(project, env)
    assert refused.returncode == 1 and f"invites-{STAGE}-fcm" in refused.stderr, refused.stderr
    _client("sns", endpoint).create_platform_application(Name=f"invites-{STAGE}-fcm", Platform="GCM", Attributes={})
    done = _deploy(project, env)
    assert done.returncode == 0, done.stdout + done.stderr

    # THEN the stack exists and the settings were generated outside the tracked config
    stack = _client("cloudformation", endpoint).describe_stacks(StackName=f"invites-{STAGE}")["Stacks"][0]
    assert stack["StackStatus"] == "CREATE_COMPLETE"
    settings = json.loads((project / "build" / "stages" / f"{STAGE}.json").read_text())["environment_variables"]
    assert settings["NOTIFICATIONS_QUEUE_URL"].endswith(f"invites-{STAGE}-notifications")
    assert (project / ".chalice" / "config.json").read_text() == (ROOT / ".chalice" / "config.json").read_text()

    # the six functions: python3.12, the stage's sizes, settings by name, no secret in any environment
    lambda_client = _client("lambda", endpoint)
    functions = {f["FunctionName"]: f for f in lambda_client.list_functions()["Functions"]}
    names = {f"invites-{STAGE}", f"invites-{STAGE}-send_notifications", f"invites-{STAGE}-remind_upcoming_events"}
    names |= {f"invites-{STAGE}-handle_inbound_sms", f"invites-{STAGE}-process_photo_upload"}
    names |= {f"invites-{STAGE}-record_text_receipts"}
    assert set(functions) == names
    expected_env = {"STAGE", "USERS_TABLE", "AUTH_TABLE", "EVENTS_TABLE", "AVATAR_BUCKET", "AVATAR_BASE_URL"}
    expected_env |= {"NOTIFICATIONS_QUEUE_URL", "NOTIFICATIONS_QUEUE_NAME"}
    expected_env |= {"APNS_PLATFORM_APPLICATION_ARN", "FCM_PLATFORM_APPLICATION_ARN"}
    expected_env |= {"SMS_SENDER_ID", "PIN_KEY_PARAMETER", "PUBLIC_BASE_URL", "INBOUND_SMS_TOPIC_NAME"}
    expected_env.add("STOP_LIST_KEY_PARAMETER")
    expected_env |= {"SMS_ORIGINATION_PINS", "SMS_ORIGINATION_INVITES", "SUPPORT_CONTACT", "SMS_TWO_WAY"}
    expected_env |= {"SMS_COUNTRIES", "SMS_MAX_PRICE_USD", "SMS_MONTHLY_SEGMENTS"}
    stage_config = json.loads((ROOT / ".chalice" / "config.json").read_text())["stages"][STAGE]
    for name, function in functions.items():
        assert function["Runtime"] == "python3.12"
        own = stage_config["lambda_functions"].get(name.removeprefix(f"invites-{STAGE}-"), {})
        assert function["MemorySize"] == own.get("lambda_memory_size", 1024) and function["Timeout"] == 15, name
        variables = function["Environment"]["Variables"]
        assert set(variables) == expected_env
        assert KEY not in json.dumps(variables) and "PIN_SECRET" not in variables
    assert len({function["Role"] for function in functions.values()}) == len(names)  # a role each
    # failed replies by text go to the stack's failure queue; the stop list got its own key, from the pin key
    invoke_config = lambda_client.get_function_event_invoke_config(FunctionName=f"invites-{STAGE}-handle_inbound_sms")
    destination = invoke_config["DestinationConfig"]["OnFailure"]["Destination"]
    assert destination.endswith(f":invites-{STAGE}-inbound-sms-failures"), invoke_config
    stop_list_key = _client("ssm", endpoint).get_parameter(Name=f"/invites/{STAGE}/stop-list-key", WithDecryption=True)
    assert len(stop_list_key["Parameter"]["Value"]) == 64 and stop_list_key["Parameter"]["Type"] == "SecureString"
    # the texts' links and next/previous point at the stage's own URL (known after the first deploy)
    deployed = json.loads((project / ".chalice" / "deployed" / f"{STAGE}.json").read_text())
    (api_url,) = [r["rest_api_url"] for r in deployed["resources"] if r["resource_type"] == "rest_api"]
    assert functions[f"invites-{STAGE}"]["Environment"]["Variables"]["PUBLIC_BASE_URL"] == api_url.rstrip("/")

    # pins and invitations go out from the stage's own origination identities: what the emulator's Publish got
    api_variables = functions[f"invites-{STAGE}"]["Environment"]["Variables"]
    assert (api_variables["SMS_ORIGINATION_PINS"], api_variables["SMS_ORIGINATION_INVITES"]) == (
        PINS_FROM,
        INVITES_FROM,
    )
    sent = _texts_as_the_api_function(project, env, api_variables)
    assert sent.returncode == 0, sent.stderr
    origination = {number: attributes.get("AWS.MM.SMS.OriginationNumber") for number, attributes in publishes}
    assert origination == {"+14155550123": PINS_FROM, "+14155550125": INVITES_FROM}
    # only to the stage's countries, at most at its price per text, within its monthly budget
    assert (api_variables["SMS_COUNTRIES"], api_variables["SMS_MAX_PRICE_USD"]) == ("US", "0.05")
    assert api_variables["SMS_MONTHLY_SEGMENTS"] == str(stages[STAGE]["sms_monthly_segments"])
    assert {attributes.get("AWS.SNS.SMS.MaxPrice") for _, attributes in publishes} == {"0.05"}

    # the texting guards: SNS logs every failed text and a tenth of delivered ones with the stack's role ...
    assert "texting guards in place" in done.stdout, done.stdout
    sms = sns.get_sms_attributes()["attributes"]
    role = _client("cloudformation", endpoint).describe_stack_resource(
        StackName=f"invites-{STAGE}", LogicalResourceId="SmsDeliveryStatusRole"
    )["StackResourceDetail"]["PhysicalResourceId"]
    assert sms["DeliveryStatusIAMRole"].endswith(f"/{role}") and int(sms["DeliveryStatusSuccessSamplingRate"]) >= 10
    # (its logs name phone numbers: kept as long as the stage's own logs, not forever)
    delivery_logs = f"sns/{REGION}/123456789012/DirectPublishToPhoneNumber"
    groups = {
        g["logGroupName"]: g.get("retentionInDays")
        for g in _client("logs", endpoint).describe_log_groups()["logGroups"]
    }
    assert groups[delivery_logs] == groups[f"{delivery_logs}/Failure"] == 14
    # ... the spend alarms at half and 80% of the budget's cost, and the delivery rate below 90% ...
    alarms = {
        alarm["AlarmName"]: (alarm.get("MetricName"), alarm["Threshold"], alarm["ComparisonOperator"])
        for alarm in _client("cloudwatch", endpoint).describe_alarms()["MetricAlarms"]
    }
    assert alarms[f"invites-{STAGE}-sms-spend"] == (
        "SMSMonthToDateSpentUSD",
        round(budget_cost * 0.5, 2),
        "GreaterThanOrEqualToThreshold",
    )
    assert alarms[f"invites-{STAGE}-sms-spend-high"][:2] == ("SMSMonthToDateSpentUSD", round(budget_cost * 0.8, 2))
    assert alarms[f"invites-{STAGE}-sms-success-rate"] == ("SMSSuccessRate", 0.9, "LessThanThreshold")

    # replies by text: the stack's inbound topic invokes the inbound function
    topic = f"arn:aws:sns:{REGION}:123456789012:invites-{STAGE}-inbound-sms"
    subscriptions = _client("sns", endpoint).list_subscriptions_by_topic(TopicArn=topic)["Subscriptions"]
    assert [(s["Protocol"], s["Endpoint"].rsplit(":", 1)[-1]) for s in subscriptions] == [
        ("lambda", f"invites-{STAGE}-handle_inbound_sms")
    ]

    # the queue feeds the notification worker; the schedule runs the reminders hourly
    mappings = lambda_client.list_event_source_mappings()["EventSourceMappings"]
    assert [(m["EventSourceArn"].rsplit(":", 1)[-1], m["FunctionArn"].rsplit(":", 1)[-1]) for m in mappings] == [
        (f"invites-{STAGE}-notifications", f"invites-{STAGE}-send_notifications")
    ]
    events = _client("events", endpoint)
    rules = [r for r in events.list_rules()["Rules"] if r.get("ScheduleExpression")]
    assert [r["ScheduleExpression"] for r in rules] == ["rate(1 hour)"]
    targets = events.list_targets_by_rule(Rule=rules[0]["Name"])["Targets"]
    assert targets[0]["Arn"].endswith(f"invites-{STAGE}-remind_upcoming_events")

    # every function's log group expires its logs after the stage's retention
    described = _client("logs", endpoint).describe_log_groups()["logGroups"]
    groups = {group["logGroupName"]: group.get("retentionInDays") for group in described}
    assert {name: groups.get(f"/aws/lambda/{name}") for name in names} == {name: 14 for name in names}, groups

    # unknown paths: the gateway answers 404 with a fixed body, declared in the very definition chalice imported
    # in overwrite mode (scripts/deploy.py puts no gateway response of its own)
    assert "overwrite" in imports, imports
    apigateway = _client("apigateway", endpoint)
    apis = apigateway.get_rest_apis()["items"]
    assert [api["name"] for api in apis] == ["invites"]
    response = apigateway.get_gateway_response(restApiId=apis[0]["id"], responseType="MISSING_AUTHENTICATION_TOKEN")
    assert response["statusCode"] == "404"
    assert response["responseTemplates"] == {"application/json": '{"detail": "Not found."}'}
    declared = {r["responseType"] for r in apigateway.get_gateway_responses(restApiId=apis[0]["id"])["items"]}
    assert declared == set(load("gateway").GATEWAY_RESPONSES)
    # ... and a per-address rate rule for the login and web forms in the web ACL in front of the stage
    stage_arn = f"arn:aws:apigateway:{REGION}::/restapis/{apis[0]['id']}/stages/{STAGE}"
    acl = _client("wafv2", endpoint).get_web_acl_for_resource(ResourceArn=stage_arn)["WebACL"]
    rates = [rule for rule in acl["Rules"] if "RateBasedStatement" in rule["Statement"]]
    assert [(rule["Name"], rule["Statement"]["RateBasedStatement"]["AggregateKeyType"]) for rule in rates] == [
        ("login-and-forms-per-address", "IP")
    ]
    # and throttles the stage, the login routes tighter (infra/stages.json)
    settings = apigateway.get_stage(restApiId=apis[0]["id"], stageName=STAGE)["methodSettings"]
    stages = json.loads((ROOT / "infra" / "stages.json").read_text())[STAGE]["throttle"]
    assert settings["*/*"]["throttlingRateLimit"] == stages["rate"]
    assert settings["*/*"]["throttlingBurstLimit"] == stages["burst"]
    assert settings["~1auth/POST"]["throttlingRateLimit"] == stages["routes"]["POST /auth"]["rate"]
    assert (
        settings["~1auth~1verify_pin/POST"]["throttlingBurstLimit"]
        == stages["routes"]["POST /auth/verify_pin"]["burst"]
    )

    # the queue worker and the schedule have their reserved concurrency (infra/stages.json)
    reserved = json.loads((ROOT / "infra" / "stages.json").read_text())[STAGE]["reserved_concurrency"]
    for function, limit in reserved.items():
        concurrency = lambda_client.get_function_concurrency(FunctionName=f"invites-{STAGE}-{function}")
        assert concurrency["ReservedConcurrentExecutions"] == limit, function
    # and the queue's pollers invoke the worker no more often than its reserve (else throttled messages would
    # come back and, received 5 times, land in the dead-letter queue)
    (mapping,) = lambda_client.list_event_source_mappings()["EventSourceMappings"]
    assert mapping["ScalingConfig"] == {"MaximumConcurrency": reserved["send_notifications"]}
    # and no table can be deleted while the stage's deletion_protection is on
    dynamodb = _client("dynamodb", endpoint)
    for table in ("users", "auth", "events"):
        assert dynamodb.describe_table(TableName=f"invites-{STAGE}-{table}")["Table"]["DeletionProtectionEnabled"]
    with pytest.raises(dynamodb.exceptions.ClientError, match="DeletionProtectionEnabled"):
        dynamodb.delete_table(TableName=f"invites-{STAGE}-users")

    # the restore guide (docs/operations.md): a table copied beside the stage's, then swapped in. moto copies
    # the table as it is at the call, not as it was at a past second: the damage here comes after the copy.
    restore = load("restore")
    users = f"invites-{STAGE}-users"
    kept = {"pk": {"S": "USER#1"}, "sk": {"S": "PROFILE"}, "full_name": {"S": "Kept Safe"}}
    dynamodb.put_item(TableName=users, Item=kept)
    restored = restore.restore_table(dynamodb, STAGE, "users", None)
    dynamodb.delete_item(TableName=users, Key={"pk": kept["pk"], "sk": kept["sk"]})  # the mistake
    restore.swap(dynamodb, STAGE, "users", restored)
    assert dynamodb.get_item(TableName=users, Key={"pk": kept["pk"], "sk": kept["sk"]})["Item"] == kept
    table = dynamodb.describe_table(TableName=users)["Table"]
    assert table["DeletionProtectionEnabled"] and {i["IndexName"] for i in table["GlobalSecondaryIndexes"]} == {
        "favorites_by_phone"
    }
    backups = dynamodb.describe_continuous_backups(TableName=users)["ContinuousBackupsDescription"]
    assert backups["PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"] == "ENABLED"
    ttl = dynamodb.describe_time_to_live(TableName=users)["TimeToLiveDescription"]
    assert ttl == {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires_at"}
    assert any(b["BackupName"].startswith(f"{users}-before-swap-") for b in dynamodb.list_backups()["BackupSummaries"])
    # an avatar deleted, then one overwritten, come back from their noncurrent versions (moto's CloudFormation
    # ignores VersioningConfiguration: the bucket is versioned here as infra/template.yaml declares it)
    s3 = _client("s3", endpoint)
    bucket = json.loads((project / "build" / "stages" / f"{STAGE}.json").read_text())["environment_variables"][
        "AVATAR_BUCKET"
    ]
    s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Enabled"})
    s3.put_object(Bucket=bucket, Key="avatars/a.jpg", Body=b"first")
    s3.delete_object(Bucket=bucket, Key="avatars/a.jpg")
    restore.restore_avatar(s3, bucket, "avatars/a.jpg")
    assert s3.get_object(Bucket=bucket, Key="avatars/a.jpg")["Body"].read() == b"first"
    s3.put_object(Bucket=bucket, Key="avatars/a.jpg", Body=b"second")
    restore.restore_avatar(s3, bucket, "avatars/a.jpg")
    assert s3.get_object(Bucket=bucket, Key="avatars/a.jpg")["Body"].read() == b"first"

    # WHEN the deploy state is lost (another machine) and the stage is deployed again
    (project / ".chalice" / "deployed" / f"{STAGE}.json").unlink()
    again = _deploy(project, env)
    assert again.returncode == 0, again.stdout + again.stderr
    # THEN the same API, functions and queue mapping were updated, not second ones made
    assert [api["id"] for api in apigateway.get_rest_apis()["items"]] == [apis[0]["id"]]
    assert "recovered REST API" in again.stdout
    assert {f["FunctionName"] for f in lambda_client.list_functions()["Functions"]} == names
    assert len(lambda_client.list_event_source_mappings()["EventSourceMappings"]) == 1, again.stdout
