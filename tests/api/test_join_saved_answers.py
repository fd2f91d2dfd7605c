"""A saved join answers: when the join was written but the event could not be read back for the answer
(an AWS fault on the read after the write), the answer still says the person joined (202 with the event's
id), never a 503 that would have the client try again a join that is done."""

from __future__ import annotations

import pytest
from botocore.client import BaseClient

from chalicelib.models.events import Invitation
from chalicelib.services.hosting import events
from tests.utils.api import body, last_pin, post_json
from tests.utils.aws_faults import client_error, read_timeout
from tests.utils.factories import future, make_event, make_person, stored_event
from tests.utils.web import form_token, page, post_form, text_of

NEWCOMER = "+14155550881"


def _open_event(owner):
    event = make_event(owner, title="Picnic", when=future(days=5))
    events.update_event(owner.user, event.id, events.EventInput(join_mode="open"))
    return event


def _code(client, owner, event) -> str:
    return body(post_json(client, f"/events/{event.id}/join_link", {}, owner.token))["url"].rsplit("/j/", 1)[1]


def _puts_an_invitation(operation_name: str, api_params: dict) -> bool:
    items = api_params.get("TransactItems", []) if operation_name == "TransactWriteItems" else []
    return any(item.get("Put", {}).get("Item", {}).get("sk", {}).get("S", "").startswith("INV#") for item in items)


@pytest.fixture
def reads_fail_after_the_join(monkeypatch):
    """Once the join's TransactWriteItems (the one putting the invitation) went through, every later
    DynamoDB read of the request fails with ``make(operation)``."""
    original = BaseClient._make_api_call
    state = {"written": False, "make": None}

    def patched(self, operation_name, api_params):
        if state["written"] and operation_name in ("Query", "GetItem", "BatchGetItem"):
            raise state["make"](operation_name)
        answer = original(self, operation_name, api_params)
        if state["make"] is not None and _puts_an_invitation(operation_name, api_params):
            state["written"] = True
        return answer

    monkeypatch.setattr(BaseClient, "_make_api_call", patched)

    def arm(make):
        state["make"] = make

    return arm


@pytest.mark.parametrize(
    "make",
    [
        lambda op: client_error(op, "ProvisionedThroughputExceededException"),
        lambda op: client_error(op, "ThrottlingException"),
        read_timeout,
    ],
    ids=["throughput", "throttling", "read_timeout"],
)
def test_a_join_saved_but_not_read_back_answers_that_it_was_saved(client, reads_fail_after_the_join, monkeypatch, make):
    owner, friend = make_person("Owner"), make_person("Friend")
    event = _open_event(owner)
    code = _code(client, owner, event)
    reads_fail_after_the_join(make)
    answer = post_json(client, "/events/join", {"code": code}, friend.token)
    assert answer.status_code == 202, answer.body
    assert body(answer) == {"status": "joined", "event_id": event.id}
    monkeypatch.undo()  # DynamoDB answers again
    stored = {inv.user_id for inv in Invitation.query(f"EVENT#{event.id}", Invitation.sk.startswith("INV#"))}
    assert friend.user.id in stored and stored_event(event.id).invitee_count == 1


def test_with_the_read_working_the_answer_is_the_event_as_before(client):
    owner, friend = make_person("Owner"), make_person("Friend")
    event = _open_event(owner)
    answer = post_json(client, "/events/join", {"code": _code(client, owner, event)}, friend.token)
    assert answer.status_code == 200 and body(answer)["id"] == event.id and "invitees" in body(answer)


def test_a_join_by_the_web_page_saved_without_its_page_link_says_it_joined(client, reads_fail_after_the_join):
    owner = make_person("Owner")
    event = _open_event(owner)
    code = _code(client, owner, event)
    opened = page(client, f"/j/{code}")
    pin_page = post_form(
        client,
        f"/j/{code}/pin",
        {"csrf": form_token(text_of(opened)), "full_name": "Dana Levi", "phone_number": NEWCOMER},
    )
    fields = {
        "csrf": form_token(text_of(pin_page)),
        "full_name": "Dana Levi",
        "phone_number": NEWCOMER,
        "pin": last_pin(NEWCOMER),
    }
    reads_fail_after_the_join(lambda op: client_error(op, "ProvisionedThroughputExceededException"))
    answer = post_form(client, f"/j/{code}/verify", fields)
    assert answer.status_code == 200, text_of(answer)
    assert "You joined" in text_of(answer) and "Open the join link again" in text_of(answer)
