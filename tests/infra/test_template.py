"""infra/template.yaml and the PynamoDB models describe the same tables, and the template lints clean.

Production and `make run` both build the tables from the template; tests build them from the models
(tests/conftest.py). These tests keep the two from drifting apart.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pynamodb.attributes import TTLAttribute

from chalicelib.models.auth import AuthTable
from chalicelib.models.events import EventsTable
from chalicelib.models.users import UsersTable
from tests.infra.scripts import load  # noqa: E402

TEMPLATE = Path(__file__).resolve().parents[2] / "infra" / "template.yaml"
# Template resource -> the model of its table.
TABLE_MODELS = {"UsersTable": UsersTable, "AuthTable": AuthTable, "EventsTable": EventsTable}


def load_template() -> dict:
    """The template with short-form tags in their long form, read as `make run` reads it."""
    return load("local_stack").load_template(TEMPLATE)


@pytest.fixture(scope="module")
def template() -> dict:
    return load_template()


def _keys(key_schema: list[dict]) -> dict[str, str]:
    return {key["AttributeName"]: key["KeyType"] for key in key_schema}


def _attribute_definitions(definitions: list[dict]) -> dict[str, str]:
    return {d["AttributeName"]: d["AttributeType"] for d in definitions}


def _projection(projection: dict) -> tuple[str, list[str]]:
    return projection["ProjectionType"], sorted(projection.get("NonKeyAttributes", []))


def _item_models(model: type) -> list[type]:
    """The table model and every item class stored in it (its discriminator subclasses)."""
    found, pending = [], [model]
    while pending:
        cls = pending.pop()
        found.append(cls)
        pending.extend(cls.__subclasses__())
    return found


def _ttl_attributes(model: type) -> set[str]:
    return {
        attribute.attr_name
        for cls in _item_models(model)
        for attribute in cls.get_attributes().values()
        if isinstance(attribute, TTLAttribute)
    }


def _table(template: dict, logical_id: str) -> dict:
    resource = template["Resources"][logical_id]
    assert resource["Type"] == "AWS::DynamoDB::Table"
    return resource["Properties"]


def test_every_table_of_the_template_has_a_model(template):
    tables = {name for name, r in template["Resources"].items() if r["Type"] == "AWS::DynamoDB::Table"}
    assert tables == set(TABLE_MODELS)


@pytest.mark.parametrize("logical_id", sorted(TABLE_MODELS))
def test_keys_and_attributes_match_the_model(template, logical_id):
    model, table = TABLE_MODELS[logical_id], _table(template, logical_id)
    schema = model._get_schema()

    expected_keys = {model._hash_keyname: "HASH"}
    if model._range_keyname:
        expected_keys[model._range_keyname] = "RANGE"
    assert _keys(table["KeySchema"]) == expected_keys == _keys(schema["key_schema"])
    assert _attribute_definitions(table["AttributeDefinitions"]) == _attribute_definitions(
        schema["attribute_definitions"]
    )
    assert table["BillingMode"] == model.Meta.billing_mode == "PAY_PER_REQUEST"
    assert not table.get("LocalSecondaryIndexes") and not schema["local_secondary_indexes"]


@pytest.mark.parametrize("logical_id", sorted(TABLE_MODELS))
def test_global_secondary_indexes_match_the_model(template, logical_id):
    model, table = TABLE_MODELS[logical_id], _table(template, logical_id)
    in_template = {
        index["IndexName"]: (_keys(index["KeySchema"]), _projection(index["Projection"]))
        for index in table.get("GlobalSecondaryIndexes", [])
    }
    in_model = {
        index["index_name"]: (_keys(index["key_schema"]), _projection(index["projection"]))
        for index in model._get_schema()["global_secondary_indexes"]
    }
    assert in_template == in_model
    # Every projected attribute is one some item of the table actually stores.
    stored = {a.attr_name for cls in _item_models(model) for a in cls.get_attributes().values()}
    for name, (_, (_, non_key)) in in_template.items():
        assert set(non_key) <= stored, f"{name} projects attributes no item has: {set(non_key) - stored}"


@pytest.mark.parametrize("logical_id", sorted(TABLE_MODELS))
def test_ttl_matches_the_models_ttl_attribute(template, logical_id):
    model, table = TABLE_MODELS[logical_id], _table(template, logical_id)
    ttl = table.get("TimeToLiveSpecification")
    in_template = {ttl["AttributeName"]} if ttl and ttl.get("Enabled") else set()
    assert in_template == _ttl_attributes(model)
    assert len(in_template) <= 1  # DynamoDB allows one TTL attribute per table


@pytest.mark.parametrize("logical_id", sorted(TABLE_MODELS))
def test_tables_are_encrypted_recoverable_and_kept(template, logical_id):
    resource = template["Resources"][logical_id]
    table = resource["Properties"]
    assert table["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
    assert table["SSESpecification"]["SSEEnabled"] is True
    assert resource["DeletionPolicy"] == resource["UpdateReplacePolicy"] == "Retain"
    # deleting the table fails while the stage's deletion_protection is on (infra/stages.json)
    assert table["DeletionProtectionEnabled"] == {"Fn::If": ["TablesProtected", True, False]}
    assert template["Conditions"]["TablesProtected"] == {"Fn::Equals": [{"Ref": "TableDeletionProtection"}, "true"]}
    assert template["Parameters"]["TableDeletionProtection"]["Default"] == "true"


def test_avatar_versions_stay_restorable_for_a_while(template):
    bucket = template["Resources"]["AvatarBucket"]["Properties"]
    assert bucket["VersioningConfiguration"] == {"Status": "Enabled"}
    (rule,) = [r for r in bucket["LifecycleConfiguration"]["Rules"] if "Prefix" not in r]  # the bucket-wide one
    assert rule["Status"] == "Enabled"
    assert rule["NoncurrentVersionExpiration"] == {"NoncurrentDays": {"Ref": "AvatarNoncurrentVersionDays"}}
    assert rule["ExpiredObjectDeleteMarker"] is True
    assert "ExpirationInDays" not in rule  # current avatars never expire


def test_avatar_bucket_is_private(template):
    bucket = template["Resources"]["AvatarBucket"]
    assert bucket["Type"] == "AWS::S3::Bucket"
    block = bucket["Properties"]["PublicAccessBlockConfiguration"]
    assert block == dict.fromkeys(
        ("BlockPublicAcls", "BlockPublicPolicy", "IgnorePublicAcls", "RestrictPublicBuckets"), True
    )
    assert "AccessControl" not in bucket["Properties"]


def test_outputs_name_every_table_and_bucket(template):
    stateful = {
        name for name, r in template["Resources"].items() if r["Type"] in ("AWS::DynamoDB::Table", "AWS::S3::Bucket")
    }
    referenced = {output["Value"].get("Ref") for output in template["Outputs"].values()}
    assert stateful <= referenced


def test_cfn_lint_passes():
    local = Path(sys.executable).parent / "cfn-lint"
    binary = str(local) if local.exists() else shutil.which("cfn-lint")
    if binary is None:
        pytest.skip("cfn-lint is not installed")
    result = subprocess.run([binary, "--", str(TEMPLATE)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


# --- queue, CDN, alarms ----------------------------------------------------------------------------------


def test_notification_queue_has_a_dead_letter_queue(template):
    import json

    queue = template["Resources"]["NotificationsQueue"]["Properties"]
    assert queue["QueueName"] == {"Fn::Sub": "${NamePrefix}-${Stage}-notifications"}
    assert queue["RedrivePolicy"] == {
        "deadLetterTargetArn": {"Fn::GetAtt": ["NotificationsDeadLetterQueue", "Arn"]},
        "maxReceiveCount": 5,
    }
    dead = template["Resources"]["NotificationsDeadLetterQueue"]["Properties"]
    assert dead["MessageRetentionPeriod"] > queue["MessageRetentionPeriod"]  # a dead letter outlives its source
    # AWS: visibility timeout at least 6x the timeout of the function the queue feeds
    config = json.loads((TEMPLATE.parents[1] / ".chalice" / "config.json").read_text())
    for stage in ("dev", "prod"):
        settings = config["stages"][stage]
        timeouts = [settings["lambda_timeout"]] + [
            f.get("lambda_timeout", 0) for f in settings.get("lambda_functions", {}).values()
        ]
        assert queue["VisibilityTimeout"] >= 6 * max(timeouts), stage


def test_only_the_distribution_reads_the_bucket(template):
    resources = template["Resources"]
    statements = resources["AvatarBucketPolicy"]["Properties"]["PolicyDocument"]["Statement"]
    allows = [s for s in statements if s["Effect"] == "Allow"]
    assert len(allows) == 1
    (allow,) = allows
    assert allow["Principal"] == {"Service": "cloudfront.amazonaws.com"} and allow["Action"] == "s3:GetObject"
    assert "${AvatarDistribution}" in allow["Condition"]["StringEquals"]["AWS:SourceArn"]["Fn::Sub"]
    origin = resources["AvatarDistribution"]["Properties"]["DistributionConfig"]["Origins"][0]
    assert origin["OriginAccessControlId"] == {"Fn::GetAtt": ["AvatarOriginAccessControl", "Id"]}
    assert template["Outputs"]["AvatarBaseUrl"]["Value"] == {"Fn::Sub": "https://${AvatarDistribution.DomainName}"}


def test_export_files_are_not_served_by_the_distribution_and_expire(template):
    resources = template["Resources"]
    statements = resources["AvatarBucketPolicy"]["Properties"]["PolicyDocument"]["Statement"]
    (allow,) = [s for s in statements if s["Effect"] == "Allow"]
    readable = [entry["Fn::Sub"] for entry in allow["Resource"]]
    assert readable == [
        "${AvatarBucket.Arn}/avatars/*",
        "${AvatarBucket.Arn}/favorites/*",
        "${AvatarBucket.Arn}/covers/*",
    ]
    rules = resources["AvatarBucket"]["Properties"]["LifecycleConfiguration"]["Rules"]
    (rule,) = [r for r in rules if r.get("Prefix") == "exports/"]
    assert rule["Status"] == "Enabled" and rule["ExpirationInDays"] == 1
    assert rule["NoncurrentVersionExpiration"] == {"NoncurrentDays": 1}


def test_alarms_watch_sms_spend_dead_letters_and_5xx(template):
    alarms = {
        r["Properties"]["MetricName"]: r["Properties"]
        for r in template["Resources"].values()
        if r["Type"] == "AWS::CloudWatch::Alarm" and r["Properties"].get("Namespace", "AWS/Lambda") != "AWS/Lambda"
    }
    assert set(alarms) == {
        "SMSMonthToDateSpentUSD",
        "SMSSuccessRate",
        "ApproximateNumberOfMessagesVisible",
        "5XXError",
        "ApproximateAgeOfOldestMessage",
    }
    assert alarms["SMSMonthToDateSpentUSD"]["Namespace"] == "AWS/SNS"
    dead = alarms["ApproximateNumberOfMessagesVisible"]
    assert dead["Dimensions"] == [
        {"Name": "QueueName", "Value": {"Fn::GetAtt": ["NotificationsDeadLetterQueue", "QueueName"]}}
    ]
    assert dead["Threshold"] == 0 and dead["ComparisonOperator"] == "GreaterThanThreshold"
    api = alarms["5XXError"]
    assert api["Namespace"] == "AWS/ApiGateway" and api["Statistic"] == "Average"  # the average is the rate
    assert {d["Name"]: d["Value"] for d in api["Dimensions"]} == {
        "ApiName": {"Ref": "ApiName"},
        "Stage": {"Ref": "ApiStageName"},
    }
    for alarm in alarms.values():
        assert alarm["AlarmActions"] == [{"Ref": "AlarmTopic"}]


def test_a_stuck_worker_alarms_before_the_dead_letter_queue_fills(template):
    oldest = template["Resources"]["QueueOldestMessageAlarm"]["Properties"]
    assert oldest["Namespace"] == "AWS/SQS" and oldest["Statistic"] == "Maximum"
    assert oldest["Dimensions"] == [{"Name": "QueueName", "Value": {"Fn::GetAtt": ["NotificationsQueue", "QueueName"]}}]
    assert oldest["Threshold"] == {"Ref": "QueueOldestMessageAlarmSeconds"}
    # shorter than the queue keeps a message (4 days), longer than a few receive cycles of 90 s
    assert 90 * 5 < template["Parameters"]["QueueOldestMessageAlarmSeconds"]["Default"] < 345600


@pytest.mark.parametrize(
    ("logical_id", "metric"),
    [("DynamoDbThrottlesAlarm", "ThrottledRequests"), ("DynamoDbSystemErrorsAlarm", "SystemErrors")],
)
def test_dynamodb_throttles_and_system_errors_alarm_on_every_table(template, logical_id, metric):
    alarm = template["Resources"][logical_id]["Properties"]
    (query,) = alarm["Metrics"]
    expression = query["Expression"]["Fn::Sub"]
    assert expression.startswith(f'SELECT SUM({metric}) FROM SCHEMA("AWS/DynamoDB", Operation, TableName)')
    assert all(f"TableName = '${{{table}}}'" in expression for table in TABLE_MODELS)
    assert alarm["Threshold"] == 0 and alarm["ComparisonOperator"] == "GreaterThanThreshold"
    assert alarm["AlarmActions"] == [{"Ref": "AlarmTopic"}]


def test_the_web_acl_answers_bodies_over_the_limit_with_the_api_s_413(template):
    import json
    import re

    from chalicelib.config import Settings

    acl = template["Resources"]["ApiWebAcl"]["Properties"]
    assert acl["Scope"] == "REGIONAL" and acl["DefaultAction"] == {"Allow": {}}
    rule = next(rule for rule in acl["Rules"] if rule["Name"] == "body-over-limit")
    response = rule["Action"]["Block"]["CustomResponse"]
    assert response["ResponseCode"] == 413
    body = acl["CustomResponseBodies"][response["CustomResponseBodyKey"]]
    assert body["ContentType"] == "APPLICATION_JSON"
    assert json.loads(body["Content"]) == {"detail": "Request body too large. Maximum size is 4 MB."}
    statement = rule["Statement"]["RegexMatchStatement"]
    assert statement["FieldToMatch"] == {"SingleHeader": {"Name": "content-length"}}
    # the expression matches exactly the lengths above the app's own limit
    limit = Settings.request_max_bytes
    matches = re.compile(statement["RegexString"]).fullmatch
    for length in [*range(limit - 2000, limit + 2000), 0, 1, 999_999, 4_099_999, 4_189_999, 4_194_303]:
        assert bool(matches(str(length))) == (length > limit), length
    for length in (4_200_000, 4_999_999, 5_000_000, 9_999_999, 10_485_760, 99_999_999, 123_456_789_012):
        assert matches(str(length)), length
    assert matches("0004194305") and not matches("0004194304") and not matches("4194305 ") and not matches("-5")


def test_every_function_has_errors_and_throttles_alarms(template):
    watched = {
        (r["Properties"]["MetricName"], r["Properties"]["Dimensions"][0]["Value"]["Fn::Sub"])
        for r in template["Resources"].values()
        if r["Type"] == "AWS::CloudWatch::Alarm" and r["Properties"].get("Namespace") == "AWS/Lambda"
    }
    # chalice deploy's function names: <app>-<stage> for the API, <app>-<stage>-<function> for the others
    functions = {
        "${ApiName}-${Stage}",
        "${ApiName}-${Stage}-send_notifications",
        "${ApiName}-${Stage}-remind_upcoming_events",
        "${ApiName}-${Stage}-handle_inbound_sms",
        "${ApiName}-${Stage}-process_photo_upload",
        "${ApiName}-${Stage}-record_text_receipts",
    }
    assert watched == {(metric, name) for metric in ("Errors", "Throttles") for name in functions}


def test_the_local_copy_drops_only_what_moto_cannot_create(template):
    import copy
    import json

    from tests.infra.scripts import load

    local_stack = load("local_stack")
    local = json.loads(local_stack.local_template_body(copy.deepcopy(template)))
    dropped = set(template["Resources"]) - set(local["Resources"])
    assert dropped == {
        "AvatarBucketPolicy",
        "AvatarOriginAccessControl",
        "AvatarDistribution",
        "AlarmEmailSubscription",
        "SmsSpendAlarm",
        "SmsSpendHighAlarm",
        "SmsSuccessRateAlarm",
        "DeadLetterAlarm",
        "InboundSmsFailuresAlarm",
        "PhotoUploadFailuresAlarm",
        "TextReceiptFailuresAlarm",
        "Api5xxAlarm",
        "QueueOldestMessageAlarm",
        "DynamoDbThrottlesAlarm",
        "DynamoDbSystemErrorsAlarm",
        "ApiWebAcl",
        "InboundSmsTopicPolicy",
    } | {
        f"{function}{metric}Alarm"
        for function in ("Api", "NotificationWorker", "Reminders", "InboundSms", "PhotoUploads", "TextReceipts")
        for metric in ("Errors", "Throttles")
    }
    assert set(template["Outputs"]) - set(local["Outputs"]) == {"AvatarBaseUrl", "AvatarDistributionId", "ApiWebAclArn"}
    assert set(local_stack.OUTPUT_SETTINGS) <= set(local["Outputs"])


def test_only_this_accounts_texting_numbers_may_publish_inbound_texts(template):
    (statement,) = template["Resources"]["InboundSmsTopicPolicy"]["Properties"]["PolicyDocument"]["Statement"]
    assert statement["Principal"] == {"Service": "sms-voice.amazonaws.com"}
    assert statement["Condition"]["StringEquals"] == {"aws:SourceAccount": {"Ref": "AWS::AccountId"}}
    source = statement["Condition"]["ArnLike"]["aws:SourceArn"]["Fn::Sub"]
    assert source == "arn:${AWS::Partition}:sms-voice:${AWS::Region}:${AWS::AccountId}:*"


# --- texting guards ----------------------------------------------------------------------------------------


def test_sms_spend_alarms_at_half_and_80_percent_of_the_budget_cost_and_on_the_success_rate(template):
    alarms = {
        name: r["Properties"]
        for name, r in template["Resources"].items()
        if r["Type"] == "AWS::CloudWatch::Alarm" and r["Properties"].get("Namespace") == "AWS/SNS"
    }
    spend = {
        alarm["Threshold"]["Ref"]: alarm
        for alarm in alarms.values()
        if alarm["MetricName"] == "SMSMonthToDateSpentUSD"
    }
    assert set(spend) == {"SmsBudgetHalfCostUsd", "SmsBudgetHighCostUsd"}
    for alarm in spend.values():
        assert alarm["Statistic"] == "Maximum" and alarm["ComparisonOperator"] == "GreaterThanOrEqualToThreshold"
        assert "Dimensions" not in alarm  # SNS reports the account's spend without dimensions
    (success,) = [alarm for alarm in alarms.values() if alarm["MetricName"] == "SMSSuccessRate"]
    assert success["Threshold"] == {"Ref": "SmsSuccessRateAlarmBelow"} and success["Statistic"] == "Average"
    assert success["ComparisonOperator"] == "LessThanThreshold"
    assert template["Parameters"]["SmsSuccessRateAlarmBelow"]["Default"] == 0.9
    for alarm in alarms.values():
        assert alarm["AlarmActions"] == [{"Ref": "AlarmTopic"}]


def test_sns_may_write_delivery_status_logs_and_nothing_else(template):
    role = template["Resources"]["SmsDeliveryStatusRole"]["Properties"]
    (trust,) = role["AssumeRolePolicyDocument"]["Statement"]
    assert trust["Principal"] == {"Service": "sns.amazonaws.com"} and trust["Action"] == "sts:AssumeRole"
    (policy,) = role["Policies"]
    (statement,) = policy["PolicyDocument"]["Statement"]
    assert all(action.startswith("logs:") for action in statement["Action"])
    (resource,) = statement["Resource"]
    assert "DirectPublishToPhoneNumber" in resource["Fn::Sub"]
    assert template["Outputs"]["SmsDeliveryStatusRoleArn"]["Value"] == {"Fn::GetAtt": ["SmsDeliveryStatusRole", "Arn"]}


def _path_matcher(rule: dict):
    import re

    scope = rule["Statement"]["RateBasedStatement"]["ScopeDownStatement"]["AndStatement"]["Statements"]
    (method,) = [s["ByteMatchStatement"] for s in scope if "ByteMatchStatement" in s]
    (path,) = [s["RegexMatchStatement"] for s in scope if "RegexMatchStatement" in s]
    assert method["FieldToMatch"] == {"Method": {}} and method["SearchString"] == "POST"
    assert method["PositionalConstraint"] == "EXACTLY" and path["FieldToMatch"] == {"UriPath": {}}
    return re.compile(path["RegexString"]).fullmatch


def test_a_rate_rule_per_address_limits_the_login_deletion_and_join_forms(template):
    import json

    acl = template["Resources"]["ApiWebAcl"]["Properties"]
    (rule,) = [rule for rule in acl["Rules"] if "RateBasedStatement" in rule["Statement"]]
    rate = rule["Statement"]["RateBasedStatement"]
    assert rate["AggregateKeyType"] == "IP" and rate["EvaluationWindowSec"] == 300
    assert rate["Limit"] == {"Ref": "LoginRequestsPerAddress"}
    response = rule["Action"]["Block"]["CustomResponse"]
    assert response["ResponseCode"] == 429 and response["ResponseHeaders"] == [{"Name": "Retry-After", "Value": "300"}]
    body = json.loads(acl["CustomResponseBodies"][response["CustomResponseBodyKey"]]["Content"])
    assert body == {"detail": "Request was throttled. Expected available in 300 seconds."}  # the API's own 429
    matches = _path_matcher(rule)
    # at the root of a custom domain, or behind the stage's name on the execute-api URL
    for prefix in ("", "/dev", "/api"):
        for path in ("/auth", "/auth/verify_pin", "/account/delete", "/account/delete/pin", "/j/AbC123"):
            assert matches(prefix + path), prefix + path
        for path in ("/events", "/auth/register", "/auth/logout", "/users/me", "/i/AbC123/rsvp", "/openapi.json"):
            assert not matches(prefix + path), prefix + path
