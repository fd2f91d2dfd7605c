"""Each function's hand-written policy (.chalice/policy-<stage>-<function>.json; each function gets its own role).

Chalice's generated policy cannot see PynamoDB's calls, so the stages run with autogen_policy false. What each
function is allowed is proven by running it under its policy (tests/infra/test_iam.py, whose flow of the API's
routes lives here); this file adds what a run cannot show:
- a scan of chalicelib/ and app.py for boto3 client calls (``aws.sqs().send_message_batch(...)``), which
  catches calls no flow reaches: each must be allowed to some function;
- the stages' policies differ only by their names, and who may touch people's objects and exports.
"""

from __future__ import annotations

import ast
import base64
import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import boto3
import pytest

from tests.utils.api import body, get, login, post_json
from tests.utils.avatars import remove_avatar, upload_avatar
from tests.utils.factories import put
from tests.utils.iam import allows, stage_functions
from tests.utils.images import jpeg

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
    "s3:GeneratePresignedUrl": "s3:GetObject",
    "s3:GeneratePresignedPost": "s3:PutObject",  # the upload it signs is authorised against the signer
    "s3:CopyObject": "s3:PutObject",  # and s3:GetObject of the source
}
# Chalice's function names (.chalice/config.json "lambda_functions").
FUNCTIONS = tuple(stage_functions("dev"))

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


def run_the_flow(client) -> tuple[str, int]:
    """Most routes once, as the mobile apps use them; notifications go through the queue. Returns the owner's
    token and the id of the event the guest accepted."""
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
    rows = _ok(get(client, f"/events/{event_id}", owner))["invitees"]
    guest_id = next(row["user_id"] for row in rows if row["phone_number"] == GUEST)
    _ok(put(client, f"/events/{event_id}/cohosts/{guest_id}", owner))  # co-hosts: one transaction each way
    _ok(client.http.delete(f"/events/{event_id}/cohosts/{guest_id}", headers={"Authorization": f"Bearer {guest}"}))
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
    return owner, event_id


def disable_push_endpoints() -> None:
    sns = boto3.client("sns", region_name="us-east-1")
    for application in sns.list_platform_applications()["PlatformApplications"]:
        arn = application["PlatformApplicationArn"]
        for endpoint in sns.list_endpoints_by_platform_application(PlatformApplicationArn=arn)["Endpoints"]:
            sns.set_endpoint_attributes(EndpointArn=endpoint["EndpointArn"], Attributes={"Enabled": "false"})


@pytest.mark.parametrize("stage", STAGES)
def test_every_call_in_the_code_is_allowed_to_some_function(stage):
    every_allowed = set().union(*(policy_actions(stage, function) for function in FUNCTIONS))
    unreached = client_calls_in_code() - every_allowed
    assert unreached == set(), f"the code calls these, no function may: {sorted(unreached)}"


@pytest.mark.parametrize("function", FUNCTIONS)
def test_the_stage_policies_differ_only_by_stage(function):
    dev, prod = (policy_file(stage, function).read_text() for stage in STAGES)

    def neutral(text: str, stage: str) -> str:
        return re.sub(rf"\binvites-{stage}\b", "invites-STAGE", text).replace(f"/invites/{stage}/", "/invites/STAGE/")

    assert neutral(dev, "dev") == neutral(prod, "prod")


def _grants(stage: str, function: str, action: str, resource: str) -> bool:
    return allows(json.loads(policy_file(stage, function).read_text()), action, resource)


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


@pytest.mark.parametrize("stage", STAGES)
def test_objects_are_reached_only_in_the_accounts_own_bucket(stage):
    # bucket names are global: invites-<stage>-avatars-* also matches a bucket another account named so
    from tests.utils.iam import request_context

    own, other = "123456789012", "999999999999"
    bucket = f"arn:aws:s3:::invites-{stage}-avatars"
    for function, action, key in (
        ("api_handler", "s3:PutObject", "avatars/1/a/big.jpg"),
        ("api_handler", "s3:GetObject", "exports/1/file.json"),
        ("send_notifications", "s3:PutObject", "exports/1/file.json"),
        ("send_notifications", "s3:DeleteObjectVersion", "favorites/1/a.jpg"),
    ):
        policy = json.loads(policy_file(stage, function).read_text())
        resource = f"{bucket}-{own}/{key}"
        assert allows(policy, action, resource, request_context(action, account=own)), (function, action)
        assert not allows(policy, action, f"{bucket}-{own}/{key}", request_context(action, account=other))
