"""AWS faults on the plans' routes: a 503 with Retry-After, never a 500, nothing half-written, no text lost or
sent twice; a decide that stopped after making the event is finished by its retry."""

from __future__ import annotations

import pytest

from tests.api.test_plans import FRIEND, OWNER, make_plan
from tests.utils.api import body, get, login, post_json, texts_to
from tests.utils.aws_faults import client_error
from tests.utils.factories import table_items


@pytest.fixture
def owner(client):
    return login(client, OWNER, full_name="Olive Owner")


def _plan_items() -> list:
    return [item for item in table_items() if item["pk"]["S"].startswith(("PLAN#", "PLANS_OPEN#"))]


@pytest.mark.parametrize(
    ("service", "operation", "code"),
    [
        ("dynamodb", "TransactWriteItems", "ThrottlingException"),
        ("dynamodb", "TransactWriteItems", "InternalServerError"),
        ("sns", "CheckIfPhoneNumberIsOptedOut", "InternalError"),
    ],
)
def test_a_fault_while_making_a_plan_is_a_503_that_stores_and_sends_nothing(
    client, owner, fail_aws, service, operation, code
):
    fail_aws(service, operation, code)
    response = make_plan(client, owner)
    assert response.status_code == 503, response.body
    assert response.headers.get("Retry-After")
    assert _plan_items() == []
    assert texts_to(FRIEND) == []


def test_a_fault_on_a_vote_is_a_503_and_the_vote_is_not_half_written(client, owner, fail_aws):
    friend = login(client, "+14155550603", full_name="Fay Friend")
    plan = body(make_plan(client, owner, numbers=("+14155550603",)))
    fail_aws("dynamodb", "TransactWriteItems")
    response = post_json(client, f"/plans/{plan['id']}/votes", {"1": "yes"}, friend["auth_token"], method="PUT")
    assert response.status_code == 503 and response.headers.get("Retry-After")
    assert body(get(client, f"/plans/{plan['id']}", friend["auth_token"]))["my_votes"] == {}


def test_a_decide_that_stopped_after_making_the_event_is_finished_by_its_retry(client, owner, monkeypatch):
    from chalicelib.store import plans as plan_store

    plan = body(make_plan(client, owner))
    real = plan_store.mark_decided

    def throttled(*args, **kwargs):
        raise client_error("TransactWriteItems", "ThrottlingException")

    monkeypatch.setattr(plan_store, "mark_decided", throttled)
    path = f"/plans/{plan['id']}/decide"
    first = post_json(client, path, {"option": 2}, owner["auth_token"])
    assert first.status_code == 503 and first.headers.get("Retry-After")
    monkeypatch.setattr(plan_store, "mark_decided", real)
    again = post_json(client, path, {"option": 2}, owner["auth_token"])
    assert again.status_code == 201, again.body
    decided = body(again)
    assert decided["status"] == "decided" and decided["decided_option"] == 2
    assert decided["event"]["id"] == decided["event_id"]
    assert len(texts_to(FRIEND)) == 2  # the ask and one decision: the retry texted nobody again
    other = post_json(client, path, {"option": 1}, owner["auth_token"])
    assert other.status_code == 409


def test_the_texts_go_even_when_marking_the_numbers_fails(client, owner, monkeypatch):
    from chalicelib.store import plans as plan_store

    def throttled(marks):
        raise client_error("BatchWriteItem", "ThrottlingException")

    monkeypatch.setattr(plan_store, "save_marks", throttled)
    response = make_plan(client, owner)
    assert response.status_code == 201
    assert len(texts_to(FRIEND)) == 1
