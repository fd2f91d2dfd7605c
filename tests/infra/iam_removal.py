"""The guest removal's part of the IAM run (tests/infra/test_iam.py): a host removes a guest with the app and one
without it, both with ``?notify=true``, as the API function; the worker pushes and texts them."""

from __future__ import annotations

from tests.utils.api import login, post_json, texts_to

REMOVER, WITH_APP, TEXTED = "+14155550241", "+14155550242", "+14155550243"


def remove_and_tell(run) -> None:
    client = run.client
    owner = login(client, REMOVER, full_name="Remy Remover")["auth_token"]
    login(client, WITH_APP, full_name="Ada App")
    event = {"title": "Quiz night", "event_date": "2031-08-01T19:00:00Z", "invite_phone_numbers": [WITH_APP, TEXTED]}
    created = post_json(client, "/events", event, owner)
    assert created.status_code == 201, created.body
    event_id = created.json_body["id"]
    run.deliver()
    texted = len(texts_to(TEXTED))
    for row in created.json_body["invitees"]:
        if row["phone_number"] in (WITH_APP, TEXTED):
            path = f"/events/{event_id}/invitees/{row['user_id']}?notify=true"
            removed = client.http.delete(path, headers={"Authorization": f"Bearer {owner}"})
            assert removed.status_code == 204, removed.body
    run.deliver()
    assert texts_to(TEXTED)[texted:] == ['Invites: Remy Remover removed you from "Quiz night". Reply STOP to opt out.']
