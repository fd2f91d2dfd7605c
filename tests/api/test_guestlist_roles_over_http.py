"""Every role against the guest-list routes of this module's branch, in the shape of the table of
tests/api/test_roles_over_http.py: a route's rows name its method, path, body and the Action that guards it;
the role table (domain.roles.PERMITTED) gives the answer each role must get."""

from __future__ import annotations

import pytest

from chalicelib.domain.roles import PERMITTED, Action, Role
from chalicelib.models.events import Invitation
from chalicelib.store.invitations import find_invitation
from tests.utils.api import body, post_json
from tests.utils.factories import make_event, make_person

# (method, path with {event}, {guest} and {offline}, JSON body, the action it takes)
GUEST_LIST_ROUTES = [
    ("PUT", "/events/{event}/invitees/{guest}/reply", {"accept": True}, Action.REPLY_FOR_GUEST),
    ("POST", "/events/{event}/offline_guests", {"name": "Grandpa Joe"}, Action.MANAGE_OFFLINE_GUESTS),
    ("DELETE", "/events/{event}/offline_guests/{offline}", None, Action.MANAGE_OFFLINE_GUESTS),
]
ROLES = (Role.OWNER, Role.COHOST, Role.GUEST, Role.STRANGER)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("method", "template", "payload", "action"), GUEST_LIST_ROUTES)
def test_each_role_gets_what_the_table_permits(client, role, method, template, payload, action):
    owner, cohost, guest, stranger = (make_person(n) for n in ("Olive", "Cody", "Gina", "Stan"))
    event = make_event(owner, cohost, guest, total_spots=10)
    find_invitation(event.id, cohost.id).update(actions=[Invitation.cohost.set(True)])
    offline = body(post_json(client, f"/events/{event.id}/offline_guests", {"name": "Sam"}, token=owner.token))
    caller = {Role.OWNER: owner, Role.COHOST: cohost, Role.GUEST: guest, Role.STRANGER: stranger}[role]
    path = template.format(event=event.id, guest=guest.id, offline=offline["id"])
    if method == "DELETE":
        response = client.http.delete(path, headers={"Authorization": f"Bearer {caller.token}"})
    else:
        response = post_json(client, path, payload, token=caller.token, method=method)
    if role in PERMITTED[action]:
        assert response.status_code in (200, 201, 204), response.body
    elif role is Role.STRANGER:
        assert response.status_code == 404
    else:
        assert response.status_code == 403
