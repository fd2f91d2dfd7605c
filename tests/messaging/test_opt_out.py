"""SNS's opt-out list is asked before every text: pins are refused (400), invitations made without a text.

The emulator (moto) has every number ending in 99 opted out (chalicelib/messaging/sms_sender.py).
"""

from __future__ import annotations

import threading

import pytest

from chalicelib.models.auth import AuthTable, Pin
from chalicelib.parallel import current_round
from tests.utils.api import body, post_json, texts_to
from tests.utils.aws_faults import always, fail_first, modelled_errors, on_the_wire, wire_error
from tests.utils.factories import make_person, phone, table_items
from tests.utils.web import invite_by_text

OPTED_OUT = "+14155550199"
OPTED_OUT_ANSWER = {
    "phone_number": [
        "This number has opted out of texts from Invites. Reply START to one of our texts, then try again."
    ]
}


def test_a_pin_for_an_opted_out_number_is_400_and_nothing_is_sent_or_stored(client, aws):
    response = post_json(client, "/auth", {"phone_number": OPTED_OUT})
    assert response.status_code == 400 and body(response) == OPTED_OUT_ANSWER
    assert texts_to(OPTED_OUT) == []
    assert not [item for item in AuthTable.scan() if isinstance(item, Pin)]
    assert aws.of("sns")["CheckIfPhoneNumberIsOptedOut"] == 1 and aws.of("sns")["Publish"] == 0
    assert aws.of("dynamodb")["TransactWriteItems"] == 0  # no pin, no limit counted


def test_the_service_name_is_the_settings(client, override_settings):
    override_settings(service_name="Partyline")
    response = post_json(client, "/auth", {"phone_number": OPTED_OUT})
    assert body(response)["phone_number"][0].startswith("This number has opted out of texts from Partyline.")


def test_a_pin_for_any_other_number_is_sent_after_one_check(client, aws):
    number = phone()
    assert post_json(client, "/auth", {"phone_number": number}).status_code == 204
    assert len(texts_to(number)) == 1 and aws.of("sns")["CheckIfPhoneNumberIsOptedOut"] == 1


CHECK = "CheckIfPhoneNumberIsOptedOut"
# Every answer SNS documents for the check but InvalidParameter (a malformed number: not opted out, its text fails).
REFUSALS = [error.code for error in modelled_errors("sns", CHECK) if error.code != "InvalidParameter"]


@pytest.mark.parametrize("code", REFUSALS)
@pytest.mark.parametrize("number", [OPTED_OUT, "+14155550142"], ids=["opted out", "not opted out"])
def test_an_opt_out_check_sns_refuses_is_503_and_no_pin_is_written_or_texted(client, aws, code, number):
    """SNS throttles this call with its own code (``Throttled``, HTTP 429), which botocore does not retry; a
    number that cannot be checked is never texted, whatever SNS answered."""
    with on_the_wire(always("sns", CHECK, wire_error("sns", CHECK, code))):
        response = post_json(client, "/auth", {"phone_number": number})
    assert response.status_code == 503 and int(response.headers["Retry-After"]) >= 1, response.body
    assert texts_to(number) == [] and aws.of("dynamodb")["TransactWriteItems"] == 0
    assert not [item for item in AuthTable.scan() if isinstance(item, Pin)]


def test_a_throttled_opt_out_check_that_recovers_sends_the_pin(client):
    number = phone()
    with on_the_wire(fail_first("sns", CHECK, wire_error("sns", CHECK, "Throttled"))):
        assert post_json(client, "/auth", {"phone_number": number}).status_code == 503
        assert post_json(client, "/auth", {"phone_number": number}).status_code == 204
    assert len(texts_to(number)) == 1


def test_an_opted_out_invitee_is_invited_without_a_text_and_the_owner_cannot_tell(client):
    owner = make_person("Olive Owner")
    fresh = phone()
    event = invite_by_text(client, owner, OPTED_OUT, fresh)
    assert texts_to(OPTED_OUT) == [] and len(texts_to(fresh)) == 1
    rows = {row["phone_number"]: row for row in event["invitees"]}
    assert set(rows) == {owner.phone, OPTED_OUT, fresh}
    same = ("is_attending", "is_active", "is_owner", "rsvp_message", "full_name")
    assert [rows[OPTED_OUT][key] for key in same] == [rows[fresh][key] for key in same]


def test_sns_down_while_checking_invitees_is_503_and_no_event_is_stored(client, fail_aws):
    owner = make_person("Olive Owner")
    fail_aws("sns", "CheckIfPhoneNumberIsOptedOut", "ServiceUnavailable")
    fields = {"title": "Picnic", "event_date": "2030-06-01T18:30:00Z", "invite_phone_numbers": [phone(), phone()]}
    response = post_json(client, "/events", fields, owner.token)
    assert response.status_code == 503 and "Retry-After" in response.headers
    assert [item for item in table_items() if item["sk"]["S"] == "META"] == []


def test_the_checks_cost_one_stop_list_read_and_one_sns_call_per_number_all_in_one_round(client, aws, monkeypatch):
    from botocore.client import BaseClient

    owner = make_person("Olive Owner")
    invite_by_text(client, owner, phone())  # PynamoDB's and botocore's first-use costs out of the count
    rounds: dict[str, list] = {"CheckIfPhoneNumberIsOptedOut": [], "stop list": []}
    original = BaseClient._make_api_call
    lock = threading.Lock()

    def recording(self, operation_name, api_params):
        keys = api_params.get("RequestItems", {})
        reads_stop_list = operation_name == "BatchGetItem" and any(
            key["pk"]["S"].startswith("STOP#") for table in keys.values() for key in table["Keys"]
        )
        with lock:
            if operation_name == "CheckIfPhoneNumberIsOptedOut":
                rounds[operation_name].append(current_round())
            elif reads_stop_list:
                rounds["stop list"].append(current_round())
        return original(self, operation_name, api_params)

    monkeypatch.setattr(BaseClient, "_make_api_call", recording)
    numbers = [phone() for _ in range(5)]
    aws.reset()
    invite_by_text(client, owner, *numbers)
    assert all(len(texts_to(number)) == 1 for number in numbers)
    assert aws.of("sns")["CheckIfPhoneNumberIsOptedOut"] == 5 and aws.of("sns")["Publish"] == 5
    (stop_list_round,) = rounds["stop list"]  # one BatchGetItem for the five numbers
    assert stop_list_round is not None and rounds["CheckIfPhoneNumberIsOptedOut"] == [stop_list_round] * 5
