"""The plans' part of the IAM run (tests/infra/test_iam.py): every plan route as the API function, and a plan
owner's account deletion as the worker."""

from __future__ import annotations

from tests.utils.api import login, post_json
from tests.utils.web import form_token, page, post_form, text_of

PLANNER, TEXTED, WITH_APP = "+14155550171", "+14155550172", "+14155550173"


def plan_a_date_together(run) -> None:
    """A plan made (one number texted, one with the app), voted on in the app and on the page, read, decided;
    another made and dropped; the first gone with its owner's account."""
    from tests.api.test_plan_page import plan_link_of

    client = run.client
    owner = login(client, PLANNER, full_name="Pat Planner")["auth_token"]
    friend = login(client, WITH_APP, full_name="Fran App")["auth_token"]
    payload = {
        "title": "Dinner",
        "time_zone": "UTC",
        "options": ["2031-09-01T18:00:00Z", "2031-09-02T18:00:00Z"],
        "invite_phone_numbers": [TEXTED, WITH_APP],
    }
    created = post_json(client, "/plans", payload, owner)
    assert created.status_code == 201, created.body
    plan_id = created.json_body["id"]
    assert post_json(client, f"/plans/{plan_id}/votes", {"1": "yes"}, friend, method="PUT").status_code == 200
    path = plan_link_of(TEXTED)
    form = {"csrf": form_token(text_of(page(client, path))), "vote_2": "if_need_be"}
    assert post_form(client, f"{path}/votes", form).status_code == 303
    shown = client.http.get(f"/plans/{plan_id}", headers={"Authorization": f"Bearer {owner}"})
    assert shown.status_code == 200 and len(shown.json_body["votes"]) == 2
    decided = post_json(client, f"/plans/{plan_id}/decide", {"option": 1}, owner)
    assert decided.status_code == 201, decided.body
    run.deliver()
    dropped = post_json(client, "/plans", payload, owner)
    assert dropped.status_code == 201, dropped.body
    plan_path = f"/plans/{dropped.json_body['id']}"
    assert client.http.request("DELETE", plan_path, headers={"Authorization": f"Bearer {owner}"}).status_code == 204
    gone = client.http.request("DELETE", "/users/me", headers={"Authorization": f"Bearer {owner}"})
    assert gone.status_code == 204
    run.deliver()
    friend_view = client.http.get(f"/plans/{plan_id}", headers={"Authorization": f"Bearer {friend}"})
    assert friend_view.status_code == 404  # the plan went with its owner
