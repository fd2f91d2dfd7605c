"""The infra/ stack, created in moto's CloudFormation, serves the app: the template and the models agree.

The stack is built from infra/template.yaml as `make run` builds it (minus what moto cannot create:
scripts/local_stack.py, UNSUPPORTED_LOCALLY); the app is pointed at its outputs the way a deployed stage
is (scripts/stage_config.py), and a login, an event and an RSVP go through `chalice.test.Client`.
"""

from __future__ import annotations

import boto3
import pytest
from moto import mock_aws

from tests.infra.scripts import load
from tests.utils.api import body, get, login, post_json

REGION = "us-east-1"
STAGE = "stacktest"
OWNER, GUEST = "+14155550170", "+14155550171"


@pytest.fixture
def stack(monkeypatch):
    """The template's stack in a fresh moto account; the app's settings and models point at its outputs."""
    from chalicelib import aws, pinkey
    from chalicelib.config import get_settings
    from chalicelib.models.auth import AuthTable
    from chalicelib.models.events import EventsTable
    from chalicelib.models.users import UsersTable

    local_stack, stage_config = load("local_stack"), load("stage_config")
    with mock_aws():
        apns = boto3.client("sns", region_name=REGION).create_platform_application(
            Name=f"invites-{STAGE}-apns", Platform="APNS", Attributes={}
        )["PlatformApplicationArn"]
        cloudformation = boto3.client("cloudformation", region_name=REGION)
        cloudformation.create_stack(
            StackName=f"invites-{STAGE}",
            TemplateBody=local_stack.local_template_body(local_stack.load_template()),
            Parameters=[
                {"ParameterKey": "Stage", "ParameterValue": STAGE},
                {"ParameterKey": "ApnsPlatformApplicationArn", "ParameterValue": apns},
                {"ParameterKey": "SmsSenderId", "ParameterValue": "Invites"},
            ],
        )
        described = cloudformation.describe_stacks(StackName=f"invites-{STAGE}")["Stacks"][0]
        assert described["StackStatus"] == "CREATE_COMPLETE", described.get("StackStatusReason")
        outputs = {o["OutputKey"]: o["OutputValue"] for o in described["Outputs"]}

        # The CloudFront distribution (AvatarBaseUrl) is not created in moto; the avatar URLs are then S3's.
        # a deployed stage: the pin key comes from SSM, as in AWS (chalicelib/pinkey.py)
        parameter = f"/invites/{STAGE}/pin-secret"
        boto3.client("ssm", region_name=REGION).put_parameter(Name=parameter, Type="SecureString", Value="s" * 64)
        stop_list_key = f"/invites/{STAGE}/stop-list-key"  # and the stop list's own key
        boto3.client("ssm", region_name=REGION).put_parameter(Name=stop_list_key, Type="SecureString", Value="7" * 64)
        committed = {"STAGE": STAGE, "PIN_KEY_PARAMETER": parameter, "STOP_LIST_KEY_PARAMETER": stop_list_key}
        env = stage_config.stage_environment(committed, outputs, may_lack=frozenset({"AvatarBaseUrl"}))
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        get_settings.cache_clear()
        aws.reset_clients()
        pinkey.forget()
        # PynamoDB models bind their table name when imported (chalicelib/models/base.py); in a deployed
        # stage the environment is there first. Here the models are re-pointed for this test only.
        for model, setting in ((UsersTable, "USERS_TABLE"), (AuthTable, "AUTH_TABLE"), (EventsTable, "EVENTS_TABLE")):
            monkeypatch.setattr(model.Meta, "table_name", env[setting])
        try:
            yield outputs
        finally:
            get_settings.cache_clear()
            aws.reset_clients()
            pinkey.forget()
    get_settings.cache_clear()


@pytest.fixture
def client(stack):
    from chalice.test import Client

    from app import app

    with Client(app, stage_name="local") as test_client:  # dev and prod carry deployed settings
        yield test_client


def _items(table: str) -> list[dict]:
    return boto3.client("dynamodb", region_name=REGION).scan(TableName=table)["Items"]  # test-only Scan


def test_login_event_and_rsvp_run_against_the_stacks_tables(client, stack):
    # GIVEN the stack's tables, empty
    tables = [stack["UsersTableName"], stack["AuthTableName"], stack["EventsTableName"]]
    assert tables == [f"invites-{STAGE}-users", f"invites-{STAGE}-auth", f"invites-{STAGE}-events"]
    assert all(_items(table) == [] for table in tables)

    # WHEN the owner logs in, creates an event inviting the guest, and the guest logs in and accepts
    owner = login(client, OWNER, full_name="Olive Owner")
    created = post_json(
        client,
        "/events",
        {"title": "Picnic", "event_date": "2031-06-01T12:00:00Z", "total_spots": 2, "invite_phone_numbers": [GUEST]},
        owner["auth_token"],
    )
    assert created.status_code == 201, created.body
    event_id = body(created)["id"]
    guest = login(client, GUEST, full_name="Gus Guest")
    listed = get(client, "/events", guest["auth_token"])  # the by_user index
    assert listed.status_code == 200, listed.body
    accepted = post_json(client, f"/events/{event_id}/accept", {"rsvp_message": "Coming"}, guest["auth_token"])
    assert accepted.status_code == 200, accepted.body

    # THEN the API answers from the stack's tables, and the items are there
    assert event_id in [event["id"] for event in body(listed)["results"]]
    detail = body(get(client, f"/events/{event_id}", owner["auth_token"]))
    assert detail["spots_filled"] == 1
    assert [invitee["is_attending"] for invitee in detail["invitees"]][1] is True
    events = {item["sk"]["S"].split("#")[0] for item in _items(stack["EventsTableName"])}
    assert {"META", "INV"} <= events
    users = {item["sk"]["S"].split("#")[0] for item in _items(stack["UsersTableName"])}
    assert {"PROFILE", "PHONE", "TOKEN"} <= users
    assert any(item["pk"]["S"].startswith("RATE#") for item in _items(stack["AuthTableName"]))  # pins are used up
