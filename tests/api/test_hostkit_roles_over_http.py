"""Each role against each route of the guest-list spreadsheet, the clone and the cover (rows for the table of
tests/api/test_roles_over_http.py, in its shape: method, path, body, the status each role gets). A link holder
is a stranger to every route by event id."""

from __future__ import annotations

import json

import pytest

from chalicelib.domain.roles import PERMITTED, Action, Role
from chalicelib.models.events import Invitation
from tests.utils.api import body, post_event
from tests.utils.avatars import multipart
from tests.utils.factories import make_person
from tests.utils.images import jpeg

CLONE_BODY = {"event_date": "2031-01-01T18:00:00Z"}

# (action, method, path, body kind, the status of a role the table permits)
ROUTES = [
    (Action.EXPORT_GUEST_LIST, "GET", "/events/{id}/guests.csv", None, 200),
    (Action.CLONE, "POST", "/events/{id}/clone", "clone", 201),
    (Action.SET_COVER, "PUT", "/events/{id}/cover", "photo", 200),
    (Action.SET_COVER, "DELETE", "/events/{id}/cover", None, 200),
]
ROLES = (Role.OWNER, Role.COHOST, Role.GUEST, Role.STRANGER)


def _expected(action: Action, role: Role, allowed: int) -> int:
    if role in PERMITTED[action]:
        return allowed
    return 404 if role in (Role.STRANGER, Role.LINK_HOLDER) else 403


@pytest.mark.parametrize(("action", "method", "path", "kind", "allowed"), ROUTES)
@pytest.mark.parametrize("role", ROLES)
def test_each_role_gets_what_the_table_says(client, action, method, path, kind, allowed, role):
    people = {name: make_person(name.value.title()) for name in ROLES}
    created = post_event(client, people[Role.OWNER], invite_phone_numbers=[people[Role.COHOST].phone,
                                                                           people[Role.GUEST].phone])  # fmt: skip
    event_id = body(created)["id"]
    for inv in Invitation.query(f"EVENT#{event_id}"):
        if getattr(inv, "user_id", None) == people[Role.COHOST].id:
            inv.update(actions=[Invitation.cohost.set(True)])
    headers = {"Authorization": f"Bearer {people[role].token}"}
    payload = b""
    if kind == "clone":
        payload, headers["Content-Type"] = json.dumps(CLONE_BODY).encode(), "application/json"
    elif kind == "photo":
        payload, part_headers = multipart(jpeg())
        headers.update(part_headers)

    answer = client.http.request(method, path.format(id=event_id), body=payload, headers=headers)

    assert answer.status_code == _expected(action, role, allowed), answer.body
