"""Each function's policy allows every AWS action that function performs, and nothing else.

Chalice's generated policy cannot see PynamoDB's calls, so the stages run with autogen_policy false and one
hand-written policy per function (.chalice/policy-<stage>-<function>.json; each function gets its own role).
Three sources of "what the code does":
- a representative flow under moto, recording every (service, action) per function: the requests (and the
  pin key read from SSM) as the API function, the queue drained as the notification worker, the hourly
  reminders as the schedule;
- a scan of chalicelib/ and app.py for boto3 client calls (``aws.sqs().send_message_batch(...)``), which
  catches calls the flow does not reach: each must be allowed to some function;
- what AWS itself does with a function's role: the SQS event source and CloudWatch Logs.
"""

from __future__ import annotations

import ast
import base64
import fnmatch
import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import boto3
import pytest

from tests.utils.api import body, get, login, post_json
from tests.utils.avatars import remove_avatar, upload_avatar
from tests.utils.factories import put
from tests.utils.images import jpeg
from tests.utils.inbound_sms import sns_event

ROOT = Path(__file__).resolve().parents[2]
STAGES = ("dev", "prod")

# Call (service:operation) -> the IAM action that authorises it, where the two differ.
IAM_ACTION = {
    "s3:DeleteObjects": "s3:DeleteObject",
    "s3:HeadObject": "s3:GetObject",
    "sqs:SendMessageBatch": "sqs:SendMessage",
    "sqs:DeleteMessageBatch": "sqs:DeleteMessage",
    "sqs:ChangeMessageVisibilityBatch": "sqs:ChangeMessageVisibility",
    "sns:PublishBatch": "sns:Publish",
    "s3:ListObjectVersions": "s3:ListBucketVersions",
    "s3:DeleteObjectVersions": "s3:DeleteObjectVersion",  # DeleteObjects naming versions (see Recorder)
    "s3:GeneratePresignedUrl": "s3:GetObject",  # the export's URL: S3 checks the signer's right to GetObject
}
# A transaction needs the action of each of its items too.
TRANSACT_ITEM_ACTION = {
    "Put": "PutItem",
    "Update": "UpdateItem",
    "Delete": "DeleteItem",
    "ConditionCheck": "ConditionCheckItem",
}
# Chalice's function names (.chalice/config.json "lambda_functions") and what AWS does with each one's role:
# the logs (Chalice creates the log groups, with their retention), and the SQS event source mapping of the
# notification handler (AWSLambdaSQSQueueExecutionRole's actions).
FUNCTIONS = ("api_handler", "send_notifications", "remind_upcoming_events", "handle_inbound_sms")
LOGS = {"logs:CreateLogStream", "logs:PutLogEvents"}
PERFORMED_BY_AWS = {
    "api_handler": LOGS,
    "send_notifications": LOGS | {"sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"},
    "remind_upcoming_events": LOGS,
    "handle_inbound_sms": LOGS,  # SNS invokes it through the function's resource policy, not its role
}
# Performed with the function's rights though no call leaves it: a presigned URL (the data export's) is
# authorised by the signer's role when its holder uses it.
PRESIGNED = {"api_handler": {"s3:GetObject"}}
# Granted though no test sees the call: PynamoDB's Connection describes a table it has no schema for
# (Model.exists(), count(), describe_table(); a connection-level call on an unknown table).
GRANTED_FOR_PYNAMODB = {"dynamodb:DescribeTable"}

OWNER, GUEST, STRANGER = "+14155550180", "+14155550181", "+14155550182"
DEVICE = "b2" * 32


def policy_file(stage: str, function: str) -> Path:
    config = json.loads((ROOT / ".chalice" / "config.json").read_text())["stages"][stage]
    return ROOT / ".chalice" / config["lambda_functions"][function]["iam_policy_file"]


def policy_actions(stage: str, function: str) -> set[str]:
    policy = json.loads(policy_file(stage, function).read_text())
    actions = set()
    for statement in policy["Statement"]:
        assert statement["Effect"] == "Allow"
        listed = statement["Action"]
        actions.update([listed] if isinstance(listed, str) else listed)
    assert not any("*" in action for action in actions), "name every action; no wildcards"
    return actions


def iam_action(service: str, operation: str) -> str:
    key = f"{service}:{operation}"
    return IAM_ACTION.get(key, key)


# --- the calls in the code --------------------------------------------------------------------------------


def _camel(method: str) -> str:
    return "".join(part.capitalize() for part in method.split("_"))


def client_calls_in_code() -> set[str]:
    """``aws.<service>().<method>(...)`` anywhere in chalicelib/ or app.py, as IAM actions."""
    found = set()
    for path in [ROOT / "app.py", *sorted((ROOT / "chalicelib").rglob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            target = node.func.value  # aws.sqs() in aws.sqs().send_message(...)
            if (
                isinstance(target, ast.Call)
                and isinstance(target.func, ast.Attribute)
                and isinstance(target.func.value, ast.Name)
                and target.func.value.id == "aws"
                and target.func.attr in ("sns", "s3", "sqs", "dynamodb", "ssm")
            ):
                found.add(iam_action(target.func.attr, _camel(node.func.attr)))
    return found


def test_the_scan_finds_the_known_calls():
    calls = client_calls_in_code()
    assert {"sns:Publish", "sns:CreatePlatformEndpoint", "s3:PutObject", "s3:DeleteObject", "ssm:GetParameter"} <= calls


# --- a representative flow ----------------------------------------------------------------------------------


def _ok(response):
    assert 200 <= response.status_code < 300, (response.status_code, response.body)
    return body(response)


def run_the_flow(client) -> None:
    """Most routes once, as the mobile apps use them; notifications go through the queue."""
    owner = login(client, OWNER, full_name="Olive Owner")["auth_token"]
    _ok(get(client, "/users/me", owner))
    _ok(post_json(client, "/users/me", {"full_name": "Olive O."}, owner, method="PATCH"))
    _ok(upload_avatar(client, owner, jpeg()))
    _ok(upload_avatar(client, owner, jpeg()))  # replaces: deletes the old objects
    _ok(remove_avatar(client, owner))
    _ok(post_json(client, "/notifications/add_ios_device", {"token": DEVICE}, owner))
    photo = base64.b64encode(jpeg()).decode()
    favorites = [
        {"contact_name": "Gus", "phone_number": GUEST, "photo": photo},
        {"contact_name": "Sam", "phone_number": STRANGER},
    ]
    _ok(post_json(client, "/users/favorite_contacts", favorites, owner))
    _ok(get(client, "/users/favorite_contacts", owner))
    _ok(post_json(client, "/users/favorite_contacts", {"phone_numbers": [STRANGER]}, owner, method="DELETE"))

    guest = login(client, GUEST, full_name="Gus Guest")["auth_token"]
    _ok(post_json(client, "/notifications/add_ios_device", {"token": "c3" * 32}, guest))
    _ok(post_json(client, "/users/from_phone_numbers", {"phone_numbers": [OWNER, STRANGER]}, guest))
    event = {
        "title": "Picnic",
        "event_date": "2031-06-01T12:00:00Z",
        "total_spots": 3,
        "invite_phone_numbers": [GUEST, STRANGER],
    }  # the stranger has no account: texted
    event_id = _ok(post_json(client, "/events", event, owner))["id"]
    _ok(post_json(client, f"/events/{event_id}", {"venue_name": "The Park"}, owner, method="PATCH"))
    _ok(get(client, "/users/who_has_invited_me", guest))
    listed = _ok(get(client, "/events", guest))
    invitation_id = next(e for e in listed["results"] if e["id"] == event_id).get("invitation_id")
    _ok(get(client, "/events/timeline?type=received", guest))
    _ok(get(client, "/events/timeline?type=sent", owner))
    _ok(get(client, "/events/stats", guest))
    _ok(get(client, f"/events/{event_id}", guest))
    _ok(post_json(client, f"/events/{event_id}/accept", {"rsvp_message": "Coming"}, guest))
    _ok(post_json(client, f"/events/{event_id}/reject", {}, guest))
    _ok(post_json(client, f"/events/{event_id}/accept", {}, guest))
    if invitation_id:
        put(client, f"/events/{event_id}/invitations/{invitation_id}/mark_seen", guest)
    _ok(post_json(client, f"/events/{event_id}/messages", {"body": "Bring snacks"}, guest))
    poll = {"suggested_date": "2031-06-02T12:00:00Z", "suggested_venue": "The Beach"}
    _ok(post_json(client, f"/events/{event_id}/polls", poll, guest))
    _ok(post_json(client, f"/events/{event_id}/time_suggestions", {"suggested_time": "2031-06-01T15:00:00Z"}, guest))
    _ok(get(client, f"/events/{event_id}/time_suggestions", guest))
    soon = {"title": "Coffee", "event_date": "2031-01-01T09:00:00Z", "invite_phone_numbers": [GUEST]}
    soon_id = _ok(post_json(client, "/events", soon, owner))["id"]
    _ok(put(client, f"/events/{soon_id}/cancel_event", owner))
    in_two_hours = (datetime.now(UTC) + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M:%SZ")
    lunch = {"title": "Lunch", "event_date": in_two_hours, "invite_phone_numbers": [GUEST]}
    lunch_id = _ok(post_json(client, "/events", lunch, owner))["id"]  # for the hourly reminders
    _ok(post_json(client, f"/events/{lunch_id}/accept", {}, guest))
    _ok(post_json(client, "/notifications/remove_ios_device", {"token": DEVICE}, owner))
    _ok(client.http.post("/users/me/export", headers={"Authorization": f"Bearer {guest}"}))
    _ok(get(client, "/users/me/export", guest))
    _ok(client.http.post("/auth/logout", headers={"Authorization": f"Bearer {guest}"}))
    leaver = login(client, "+14155550183", full_name="Lee Leaver")["auth_token"]
    _ok(post_json(client, f"/events/{event_id}", {"invite_phone_numbers": ["+14155550183"]}, owner, method="PATCH"))
    _ok(post_json(client, f"/events/{event_id}/accept", {}, leaver))
    _ok(post_json(client, f"/events/{event_id}/messages", {"body": "Bye"}, leaver))
    _ok(post_json(client, "/notifications/add_ios_device", {"token": "d4" * 32}, leaver))
    _ok(upload_avatar(client, leaver, jpeg()))
    _ok(post_json(client, "/events", {"title": "Mine", "event_date": "2031-08-01T12:00:00Z"}, leaver))
    _ok(client.http.request("DELETE", "/users/me", headers={"Authorization": f"Bearer {leaver}"}))


class Recorder:
    """Every AWS operation made through botocore while ``on`` (PynamoDB's calls too), per function:
    ``{"api_handler": {"dynamodb:Query", ...}, ...}``; ``on`` names the function running, or is None.

    At this level rather than moto's (tests/conftest.py counts moto actions, but moto's S3 answers
    outside the counted path), and with the test's own calls left out by switching it off.
    """

    def __init__(self):
        self.on: str | None = None
        self.operations: dict[str, set[str]] = {function: set() for function in FUNCTIONS}

    def install(self, monkeypatch) -> None:
        from botocore.client import BaseClient

        original = BaseClient._make_api_call
        recorder = self

        def recording(client, operation_name, api_params):
            if recorder.on:
                service = client.meta.service_model.endpoint_prefix
                operations = recorder.operations[recorder.on]
                objects = api_params.get("Delete", {}).get("Objects", []) if operation_name == "DeleteObjects" else []
                if any("VersionId" in item for item in objects):  # deleting versions is an action of its own
                    operations.add(f"{service}:DeleteObjectVersions")
                else:
                    operations.add(f"{service}:{operation_name}")
                if operation_name == "TransactWriteItems":  # IAM checks each item's own action as well
                    for item in api_params.get("TransactItems", []):
                        operations.update(f"dynamodb:{TRANSACT_ITEM_ACTION[kind]}" for kind in item)
            return original(client, operation_name, api_params)

        monkeypatch.setattr(BaseClient, "_make_api_call", recording)


def disable_push_endpoints() -> None:
    sns = boto3.client("sns", region_name="us-east-1")
    for application in sns.list_platform_applications()["PlatformApplications"]:
        arn = application["PlatformApplicationArn"]
        for endpoint in sns.list_endpoints_by_platform_application(PlatformApplicationArn=arn)["Endpoints"]:
            sns.set_endpoint_attributes(EndpointArn=endpoint["EndpointArn"], Attributes={"Enabled": "false"})


def drain_queue(url: str, recorder: Recorder) -> None:
    """The notification worker: what SQS would hand the Lambda handler, in batches of 10."""
    from chalicelib.jobs import queue_handler

    sqs = boto3.client("sqs", region_name="us-east-1")
    for _ in range(20):
        recorder.on = None  # receiving and deleting is the event source's (PERFORMED_BY_AWS)
        received = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", [])
        if not received:
            return
        recorder.on = "send_notifications"
        queue_handler.handle_queue_batch((m["Body"], m["ReceiptHandle"]) for m in received)
        recorder.on = None
        sqs.delete_message_batch(
            QueueUrl=url, Entries=[{"Id": str(n), "ReceiptHandle": m["ReceiptHandle"]} for n, m in enumerate(received)]
        )


def read_the_pin_key_as_a_deployed_stage(override_settings, recorder: Recorder) -> None:
    """The API function's first login on a cold start: the key from SSM (tests run as stage "test")."""
    from chalicelib import pinkey

    recorder.on = None
    boto3.client("ssm", region_name="us-east-1").put_parameter(
        Name="/invites/test/pin-secret", Type="SecureString", Value="k" * 64
    )
    recorder.on = "api_handler"
    override_settings(stage="dev", pin_key_parameter="/invites/test/pin-secret")
    pinkey.forget()
    try:
        assert pinkey.pin_key() == b"k" * 64
    finally:
        pinkey.forget()
        override_settings(stage="test")


def reply_by_text_as_a_deployed_stage(override_settings, recorder: Recorder) -> None:
    """Replies by text reaching the inbound topic's function on a cold start: STOP, START and HELP."""
    from app import handle_inbound_sms
    from chalicelib import pinkey

    recorder.on = None
    boto3.client("ssm", region_name="us-east-1").put_parameter(
        Name="/invites/test/pin-secret", Type="SecureString", Value="k" * 64, Overwrite=True
    )
    override_settings(stage="dev", pin_key_parameter="/invites/test/pin-secret")
    pinkey.forget()
    recorder.on = "handle_inbound_sms"
    try:
        for text in ("STOP", "START", "HELP"):
            payload = {"originationNumber": STRANGER, "destinationNumber": "+18885550123", "messageBody": text}
            handle_inbound_sms(sns_event(payload), None)
    finally:
        recorder.on = None
        pinkey.forget()
        override_settings(stage="test")


@pytest.fixture
def performed(client, override_settings, monkeypatch) -> dict[str, set[str]]:
    """Per function, the IAM actions of every AWS call the flow made (the test's own calls left out)."""
    from chalicelib.services import account_deletion, reminders

    url = boto3.client("sqs", region_name="us-east-1").create_queue(QueueName="invites-test-notifications")["QueueUrl"]
    override_settings(notifications_queue_url=url)
    recorder = Recorder()
    recorder.install(monkeypatch)
    recorder.on = "api_handler"
    run_the_flow(client)
    read_the_pin_key_as_a_deployed_stage(override_settings, recorder)
    reply_by_text_as_a_deployed_stage(override_settings, recorder)
    recorder.on = "remind_upcoming_events"
    assert reminders.enqueue_reminders() > 0  # the hourly schedule
    account_deletion.requeue_stuck_jobs()
    recorder.on = None
    disable_push_endpoints()  # APNS dropped the tokens: the worker forgets them
    drain_queue(url, recorder)
    return {
        function: {iam_action(*operation.split(":", 1)) for operation in operations}
        for function, operations in recorder.operations.items()
    }


def test_each_function_is_allowed_exactly_what_it_performs(performed):
    # one test, so the flow runs once
    services = {action.split(":")[0] for actions in performed.values() for action in actions}
    assert {"dynamodb", "s3", "sns", "sqs", "ssm"} <= services, performed  # the flow reaches every service
    assert all(performed.values()), performed  # and every function
    for stage in STAGES:
        every_allowed = set()
        for function in FUNCTIONS:
            allowed = policy_actions(stage, function)
            every_allowed |= allowed
            needed = performed[function] | PERFORMED_BY_AWS[function] | PRESIGNED.get(function, set())
            name = policy_file(stage, function).name
            missing, unused = needed - allowed, allowed - needed - GRANTED_FOR_PYNAMODB
            assert missing == set(), f"add to .chalice/{name}: {sorted(missing)}"
            assert unused == set(), f"not used by {function}; remove from .chalice/{name}: {sorted(unused)}"
        unreached = client_calls_in_code() - every_allowed
        assert unreached == set(), f"the code calls these, no function may: {sorted(unreached)}"


@pytest.mark.parametrize("function", FUNCTIONS)
def test_the_stage_policies_differ_only_by_stage(function):
    dev, prod = (policy_file(stage, function).read_text() for stage in STAGES)

    def neutral(text: str, stage: str) -> str:
        return re.sub(rf"\binvites-{stage}\b", "invites-STAGE", text).replace(f"/invites/{stage}/", "/invites/STAGE/")

    assert neutral(dev, "dev") == neutral(prod, "prod")


def _grants(stage: str, function: str, action: str, resource: str) -> bool:
    policy = json.loads(policy_file(stage, function).read_text())
    return any(
        action in statement["Action"] and any(fnmatch.fnmatchcase(resource, r) for r in statement["Resource"])
        for statement in policy["Statement"]
    )


@pytest.mark.parametrize("stage", STAGES)
def test_only_the_worker_deletes_peoples_objects_and_only_the_api_reads_exports(stage):
    bucket = f"arn:aws:s3:::invites-{stage}-avatars-123456789012"
    export = f"{bucket}/exports/1/file.json"
    for function in FUNCTIONS:
        worker, api = function == "send_notifications", function == "api_handler"
        assert _grants(stage, function, "s3:DeleteObjectVersion", f"{bucket}/avatars/1/a/big.jpg") is worker
        assert _grants(stage, function, "s3:ListBucketVersions", bucket) is worker
        assert _grants(
            stage, function, "dynamodb:BatchWriteItem", f"arn:aws:dynamodb:us-east-1:1:table/invites-{stage}-events"
        ) is (worker or api)
        assert _grants(stage, function, "s3:GetObject", export) is api
        assert _grants(stage, function, "s3:PutObject", export) is worker
