"""What a plan refuses: bad input (400 keyed by field, nothing stored), strangers (404), the wrong role (403),
the owner's limits, and votes once the plan is closed (409)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.api.test_plans import APP_FRIEND, FRIEND, OPTIONS, OWNER, STRANGER, make_plan
from tests.utils.api import body, get, login, post_json, texts_to
from tests.utils.factories import table_items


@pytest.fixture
def owner(client):
    return login(client, OWNER, full_name="Olive Owner")


def test_every_bad_field_is_named_and_nothing_is_stored(client, owner):
    before = table_items()
    response = post_json(
        client,
        "/plans",
        {"title": " ", "time_zone": "Mars/Olympus", "options": OPTIONS[:1], "invite_phone_numbers": ["nope"]},
        owner["auth_token"],
    )
    assert response.status_code == 400
    assert body(response) == {
        "title": ["This field may not be blank."],
        "time_zone": ["Unknown time zone."],
        "options": ["Offer between 2 and 10 dates."],
        "invite_phone_numbers": {"0": ["Enter a valid phone number."]},
    }
    assert table_items() == before
    assert texts_to(FRIEND) == []


def test_options_are_checked_by_position(client, owner):
    options = ["2030-06-05T18:00:00Z", {"starts_at": "soon"}, "2030-06-05T18:00:00Z", 7]
    response = make_plan(client, owner, options=options)
    assert response.status_code == 400
    assert body(response) == {
        "options": {
            "1": {"starts_at": ["Enter a valid date/time."]},
            "3": {"non_field_errors": ["Send a date/time, or an object with starts_at and an optional label."]},
        }
    }
    response = make_plan(client, owner, options=[OPTIONS[0], OPTIONS[0]])
    assert body(response) == {"options": {"1": {"starts_at": ["This date is offered twice."]}}}


def test_labels_that_read_the_same_are_one_label(client, owner):
    before = table_items()
    options = [
        {"starts_at": OPTIONS[0], "label": "Caf\u00e9 Noir"},
        {"starts_at": OPTIONS[1], "label": " CAFE\u0301 noir "},  # decomposed accent, other case, spaces
    ]
    response = make_plan(client, owner, options=options)
    assert response.status_code == 400
    assert body(response) == {"options": {"1": {"label": ["This label is used twice."]}}}
    assert table_items() == before


def test_a_deadline_must_be_in_the_future(client, owner):
    response = make_plan(client, owner, vote_deadline="2020-01-01T00:00:00Z")
    assert response.status_code == 400
    assert body(response) == {"vote_deadline": ["The date must be in the future."]}


def test_at_most_100_invitees(client, owner):
    numbers = [f"+1415556{n:04d}" for n in range(101)]
    response = make_plan(client, owner, numbers=numbers)
    assert response.status_code == 400
    assert body(response) == {"invite_phone_numbers": ["Ensure this field has no more than 100 elements."]}


def test_at_most_10_open_plans_and_a_decided_one_frees_its_place(client, owner):
    made = [make_plan(client, owner, numbers=(f"+1415557{n:04d}",)) for n in range(10)]
    assert [response.status_code for response in made] == [201] * 10
    refused = make_plan(client, owner, numbers=("+14155579999",))
    assert refused.status_code == 409
    assert body(refused) == {"detail": "You can have at most 10 open plans. Decide one first."}
    first = body(made[0])["id"]
    assert post_json(client, f"/plans/{first}/decide", {"option": 1}, owner["auth_token"]).status_code == 201
    assert make_plan(client, owner, numbers=("+14155579999",)).status_code == 201


def test_a_stranger_finds_no_plan_and_roles_are_kept(client, owner):
    friend = login(client, APP_FRIEND, full_name="Fay Friend")
    stranger = login(client, STRANGER, full_name="Sam Stranger")
    plan = body(make_plan(client, owner, numbers=(APP_FRIEND,)))
    path = f"/plans/{plan['id']}"
    assert get(client, path, stranger["auth_token"]).status_code == 404
    assert get(client, "/plans/123456789", owner["auth_token"]).status_code == 404
    assert post_json(client, f"{path}/votes", {"1": "yes"}, stranger["auth_token"], method="PUT").status_code == 404
    assert post_json(client, f"{path}/decide", {"option": 1}, stranger["auth_token"]).status_code == 404
    assert post_json(client, f"{path}/decide", {"option": 1}, friend["auth_token"]).status_code == 403
    assert post_json(client, f"{path}/votes", {"1": "yes"}, owner["auth_token"], method="PUT").status_code == 403
    assert get(client, path).status_code == 401


def test_bad_votes_are_named_by_option(client, owner):
    friend = login(client, APP_FRIEND, full_name="Fay Friend")
    plan = body(make_plan(client, owner, numbers=(APP_FRIEND,)))
    response = post_json(
        client, f"/plans/{plan['id']}/votes", {"1": "maybe", "9": "yes"}, friend["auth_token"], method="PUT"
    )
    assert response.status_code == 400
    assert body(response) == {"1": ['"maybe" is not a valid choice.'], "9": ["Not an option of this plan."]}
    seen = body(get(client, f"/plans/{plan['id']}", friend["auth_token"]))
    assert seen["my_votes"] == {}


def test_votes_after_the_deadline_are_refused(client, owner, monkeypatch):
    from chalicelib.services.plans import plans
    from chalicelib.timeutil import utcnow

    friend = login(client, APP_FRIEND, full_name="Fay Friend")
    deadline = utcnow() + timedelta(hours=1)
    plan = body(make_plan(client, owner, numbers=(APP_FRIEND,), vote_deadline=deadline.isoformat()))
    path = f"/plans/{plan['id']}/votes"
    assert post_json(client, path, {"1": "yes"}, friend["auth_token"], method="PUT").status_code == 200
    monkeypatch.setattr(plans, "utcnow", lambda: deadline + timedelta(seconds=1))
    late = post_json(client, path, {"1": "no"}, friend["auth_token"], method="PUT")
    assert late.status_code == 409
    assert body(late) == {"detail": "Voting on this plan is closed."}
    assert body(get(client, f"/plans/{plan['id']}", friend["auth_token"]))["my_votes"] == {"1": "yes"}


def test_a_decide_names_a_real_option(client, owner):
    plan = body(make_plan(client, owner))
    path = f"/plans/{plan['id']}/decide"
    assert body(post_json(client, path, {}, owner["auth_token"])) == {"option": ["This field is required."]}
    assert body(post_json(client, path, {"option": 4}, owner["auth_token"])) == {
        "option": ["Not an option of this plan."]
    }
    assert body(get(client, f"/plans/{plan['id']}", owner["auth_token"]))["status"] == "open"


def test_a_dropped_plan_is_gone_for_everyone_and_frees_its_place(client, owner):
    from tests.api.test_plan_page import plan_link_of
    from tests.utils.web import page

    plan = body(make_plan(client, owner))
    link = plan_link_of(FRIEND)
    for n in range(9):
        assert make_plan(client, owner, numbers=(f"+1415557{n:04d}",)).status_code == 201
    assert make_plan(client, owner, numbers=("+14155579999",)).status_code == 409
    headers = {"Authorization": f"Bearer {owner['auth_token']}"}
    assert client.http.request("DELETE", f"/plans/{plan['id']}", headers=headers).status_code == 204
    assert get(client, f"/plans/{plan['id']}", owner["auth_token"]).status_code == 404
    assert page(client, link).status_code == 404
    assert make_plan(client, owner, numbers=("+14155579999",)).status_code == 201
