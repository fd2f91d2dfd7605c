"""POST /plans, GET /plans/{id}, PUT /plans/{id}/votes, POST /plans/{id}/decide over HTTP."""

from __future__ import annotations

import pytest

from tests.utils.api import body, get, login, post_json, texts_to
from tests.utils.web import PUBLIC_BASE

OWNER, FRIEND, APP_FRIEND, STRANGER = "+14155550601", "+14155550602", "+14155550603", "+14155550604"
OPTIONS = ["2030-06-05T18:00:00Z", "2030-06-06T18:00:00Z", "2030-06-07T18:00:00Z"]


def make_plan(client, owner, numbers=(FRIEND,), **fields):
    payload = {
        "title": "Dinner",
        "time_zone": "America/New_York",
        "options": OPTIONS,
        "invite_phone_numbers": list(numbers),
        **fields,
    }
    return post_json(client, "/plans", payload, owner["auth_token"])


@pytest.fixture
def owner(client):
    return login(client, OWNER, full_name="Olive Owner")


def test_a_plan_is_made_and_its_invitees_are_texted_their_page(client, owner):
    response = make_plan(client, owner)
    assert response.status_code == 201, response.body
    plan = body(response)
    assert plan["url"].startswith(f"{PUBLIC_BASE}/p/")
    assert [option["id"] for option in plan["options"]] == [1, 2, 3]
    assert plan["options"][0]["tally"] == {"yes": 0, "if_need_be": 0, "no": 0}
    assert plan["status"] == "open" and plan["event_id"] is None
    [text] = texts_to(FRIEND)
    assert text.startswith('Invites: Olive Owner is planning "Dinner" and asks when you can make it: ')
    assert f"{PUBLIC_BASE}/p/" in text and text.endswith("Reply STOP to opt out.")


def test_votes_count_and_the_owner_sees_each_persons_votes(client, owner):
    friend = login(client, APP_FRIEND, full_name="Fay Friend")
    plan = body(make_plan(client, owner, numbers=(FRIEND, APP_FRIEND)))
    response = post_json(
        client, f"/plans/{plan['id']}/votes", {"1": "yes", "2": "if_need_be"}, friend["auth_token"], method="PUT"
    )
    assert response.status_code == 200, response.body
    seen = body(response)
    assert seen["my_votes"] == {"1": "yes", "2": "if_need_be"}
    assert "votes" not in seen
    assert seen["options"][0]["tally"] == {"yes": 1, "if_need_be": 0, "no": 0}
    as_owner = body(get(client, f"/plans/{plan['id']}", owner["auth_token"]))
    [row] = [row for row in as_owner["votes"] if row["user_id"] == friend["id"]]
    assert row["full_name"] == "Fay Friend" and row["votes"] == {"1": "yes", "2": "if_need_be"}


def test_deciding_makes_the_event_and_texts_the_event_link_once(client, owner):
    friend = login(client, APP_FRIEND, full_name="Fay Friend")
    plan = body(make_plan(client, owner, numbers=(FRIEND, APP_FRIEND)))
    response = post_json(client, f"/plans/{plan['id']}/decide", {"option": 2}, owner["auth_token"])
    assert response.status_code == 201, response.body
    decided = body(response)
    assert decided["status"] == "decided" and decided["decided_option"] == 2
    event = decided["event"]
    assert event["id"] == decided["event_id"]
    assert event["title"] == "Dinner" and event["event_date"].startswith("2030-06-06T18:00:00")
    detail = body(get(client, f"/events/{event['id']}", friend["auth_token"]))
    assert detail["id"] == event["id"]
    texts = texts_to(FRIEND)
    assert len(texts) == 2
    assert texts[1].startswith('Invites: "Dinner" is on ') and f"{PUBLIC_BASE}/i/" in texts[1]
    again = post_json(client, f"/plans/{plan['id']}/decide", {"option": 1}, owner["auth_token"])
    assert again.status_code == 409
    assert len(texts_to(FRIEND)) == 2
    late = post_json(client, f"/plans/{plan['id']}/votes", {"1": "no"}, friend["auth_token"], method="PUT")
    assert late.status_code == 409


def _reading_costs(client, aws, owner, invitees: int) -> dict:
    numbers = [f"+1415558{n:04d}" for n in range(invitees)]
    plan = body(make_plan(client, owner, numbers=numbers))
    aws.reset()
    response = get(client, f"/plans/{plan['id']}", owner["auth_token"])
    assert response.status_code == 200 and len(body(response)["votes"]) == invitees
    return dict(aws.of("dynamodb"))


def test_reading_a_plan_costs_the_same_calls_for_3_or_100_invitees(client, aws, owner):
    small = _reading_costs(client, aws, owner, 3)
    large = _reading_costs(client, aws, owner, 100)
    assert small == large
    assert large.get("Query") == 1  # the plan with every member and vote
    assert large.get("BatchGetItem") == 2  # the bearer token's read, then the names the owner sees
    assert sum(large.values()) == 3


def test_a_decide_sent_again_with_its_key_answers_the_same_and_does_nothing(client, owner):
    plan = body(make_plan(client, owner))
    key = {"Idempotency-Key": "decide-1"}
    path = f"/plans/{plan['id']}/decide"
    first = post_json(client, path, {"option": 1}, owner["auth_token"], headers=key)
    again = post_json(client, path, {"option": 1}, owner["auth_token"], headers=key)
    assert first.status_code == again.status_code == 201
    assert body(again) == body(first)
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert len(texts_to(FRIEND)) == 2  # the ask, then one decision


def test_the_plan_text_keeps_name_and_title_in_other_scripts(client):
    nameless = login(client, OWNER)  # no name: the host label with the number's last digits, cut first
    title = "\u05e2\u05e8\u05d1 \u05e9\u05d9\u05e8\u05d9\u05dd \U0001f3b6 " * 8
    response = make_plan(client, nameless, title=title)
    assert response.status_code == 201, response.body
    [text] = texts_to(FRIEND)
    assert text.startswith("Invites: Your host")
    assert f'is planning "{title[:20]}' in text  # the title keeps at least its first 20 characters
    assert text.endswith("Reply STOP to opt out.") and "/p/" in text
    from chalicelib.messaging.sms_segments import segments

    assert segments(text) <= 3
