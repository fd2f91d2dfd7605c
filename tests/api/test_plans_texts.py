"""The texts of plans keep every rule of invitation texts: the owner's hourly quota (shared with events), the
stop list, SNS's opt-out list; and the answer never tells the owner which numbers were not texted."""

from __future__ import annotations

from tests.api.test_plans import OWNER, make_plan
from tests.utils.api import body, login, post_json, texts_to


def test_plans_and_events_share_the_owners_hourly_texts(client, override_settings):
    override_settings(invite_sms_per_owner_per_hour=3)
    owner = login(client, OWNER, full_name="Olive Owner")
    first, second, third, fourth = "+14155550611", "+14155550612", "+14155550613", "+14155550614"
    event = post_json(
        client, "/events", {"title": "Picnic", "event_date": "2030-06-01T12:00:00Z", "invite_phone_numbers": [first]},
        owner["auth_token"],
    )  # fmt: skip
    assert event.status_code == 201
    plan = make_plan(client, owner, numbers=(second, third, fourth))
    assert plan.status_code == 201
    assert len(body(plan)["votes"]) == 3  # all invited
    texted = [number for number in (second, third, fourth) if texts_to(number)]
    assert texted == [second, third]  # the event's text and two of the plan's: the hour's 3


def test_a_number_that_said_stop_or_opted_out_is_invited_but_never_texted(client):
    from chalicelib.services.texts import stop_list

    owner = login(client, OWNER, full_name="Olive Owner")
    stopped, opted_out, plain = "+14155550621", "+14155550699", "+14155550622"  # ...99: opted out in the emulator
    stop_list.stop(stopped, "test")
    plan = make_plan(client, owner, numbers=(stopped, opted_out, plain))
    assert plan.status_code == 201
    assert [row["phone_number"] for row in body(plan)["votes"]] == [stopped, opted_out, plain]
    assert texts_to(stopped) == [] and texts_to(opted_out) == [] and len(texts_to(plain)) == 1
    decided = post_json(client, f"/plans/{body(plan)['id']}/decide", {"option": 1}, owner["auth_token"])
    assert decided.status_code == 201
    invited = [row["phone_number"] for row in body(decided)["event"]["invitees"][1:]]
    assert invited == [stopped, opted_out, plain]
    assert texts_to(stopped) == [] and texts_to(opted_out) == [] and len(texts_to(plain)) == 2


def test_a_plan_sent_again_with_its_key_is_made_and_texted_once(client):
    owner = login(client, OWNER, full_name="Olive Owner")
    key = {"Idempotency-Key": "plan-1"}
    payload = {
        "title": "Dinner",
        "time_zone": "UTC",
        "options": ["2030-06-05T18:00:00Z", "2030-06-06T18:00:00Z"],
        "invite_phone_numbers": ["+14155550631"],
    }
    first = post_json(client, "/plans", payload, owner["auth_token"], headers=key)
    again = post_json(client, "/plans", payload, owner["auth_token"], headers=key)
    assert first.status_code == again.status_code == 201
    assert body(again)["id"] == body(first)["id"] and again.headers.get("Idempotent-Replayed") == "true"
    assert len(texts_to("+14155550631")) == 1
