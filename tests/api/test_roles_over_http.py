"""Every role against every route that touches an event, as domain.roles says: the route's success status
when the role's action is permitted, else 404 for someone outside the event and 403 for a participant.

ROUTES is the table. A route added elsewhere adds its row here: method, path template, body, the action
it takes (or the roles allowed, when a route's answer depends on whose path it is), its success status, and
event settings it needs (``event_fields``). Path templates name the people of the cast: ``{event_id}``,
``{guest_id}`` (a plain guest other than the caller), ``{cohost_id}`` (a co-host other than the caller),
``{caller_id}`` and
``{invitation_id}`` (the caller's own invitation, or the guest's for someone outside the event)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from chalicelib.domain.roles import PERMITTED, Action, Role
from chalicelib.services import cohosts
from tests.utils.api import body, get, post_json
from tests.utils.factories import make_event, make_person, phone

FORBIDDEN = {"detail": "You do not have permission to perform this action."}
NOT_FOUND = {"detail": "Not found."}
ROLES = [Role.OWNER, Role.COHOST, Role.GUEST, Role.LINK_HOLDER, Role.STRANGER]


@dataclass(frozen=True)
class Route:
    method: str
    path: str
    action: Action
    success: int
    body: dict | None = None
    allowed: frozenset[Role] | None = None  # when not PERMITTED[action]
    event_fields: dict = field(default_factory=dict)

    def allows(self, role: Role) -> bool:
        return role in (self.allowed if self.allowed is not None else PERMITTED[self.action])

    @property
    def name(self) -> str:
        return f"{self.method} {self.path}{' ' + ','.join(self.body) if self.body else ''}"


POLL = {"suggested_date": "2031-07-02T19:00:00Z", "suggested_venue": "Bar"}
EVENT = "/events/{event_id}"
ROUTES = [
    Route("GET", EVENT, Action.READ, 200),
    Route("PATCH", EVENT, Action.EDIT, 200, {"title": "New"}),
    Route("POST", EVENT, Action.EDIT, 200, {"title": "New"}),
    Route(
        "PATCH", EVENT, Action.INVITE, 200, {"invite_phone_numbers": ["{new_phone}"]}, event_fields={"guest_invites": 1}
    ),
    Route("PUT", EVENT + "/cancel_event", Action.CANCEL, 204),
    Route("POST", EVENT + "/accept", Action.REPLY, 200, {}),
    Route("POST", EVENT + "/reject", Action.REPLY, 200, {}),
    # everyone in the event marks their own invitation seen (the owner's too)
    Route("PUT", EVENT + "/invitations/{invitation_id}/mark_seen", Action.READ, 200),
    Route("POST", EVENT + "/messages", Action.TALK, 201, {"body": "Hi"}),
    Route("POST", EVENT + "/polls", Action.TALK, 201, POLL),
    Route("POST", EVENT + "/time_suggestions", Action.TALK, 204, {"suggested_time": "2031-07-01T20:00:00Z"}),
    Route("GET", EVENT + "/time_suggestions", Action.READ, 200),
    Route("POST", EVENT + "/announcements", Action.ANNOUNCE, 201, {"text": "Bring snacks"}),
    Route("GET", EVENT + "/announcements", Action.READ, 200),
    Route("POST", EVENT + "/nudge", Action.NUDGE, 200, {}),
    Route("POST", EVENT + "/join_link", Action.SHARE_JOIN_LINK, 200),
    Route("GET", EVENT + "/join_requests", Action.DECIDE_JOIN_REQUESTS, 200),
    Route("PUT", EVENT + "/cohosts/{guest_id}", Action.APPOINT_COHOSTS, 200),
    Route("DELETE", EVENT + "/cohosts/{cohost_id}", Action.APPOINT_COHOSTS, 204),
    # one's own path: a co-host steps down; the owner may end anyone's role (none here: no change)
    Route(
        "DELETE",
        EVENT + "/cohosts/{caller_id}",
        Action.STEP_DOWN,
        204,
        allowed=PERMITTED[Action.STEP_DOWN] | PERMITTED[Action.APPOINT_COHOSTS],
    ),
]


def _cast(route: Route):
    owner, cohost, guest, other = (make_person(name) for name in ("Owner", "Cohost", "Guest", "Other"))
    outsider, second = make_person("Outsider"), make_person("Second")
    event = make_event(owner, cohost, guest, other, second, **route.event_fields)
    cohosts.appoint(owner.user, event.id, cohost.user.id)
    cohosts.appoint(owner.user, event.id, second.user.id)
    people = {Role.OWNER: owner, Role.COHOST: cohost, Role.GUEST: guest, Role.LINK_HOLDER: outsider}
    people[Role.STRANGER] = make_person("Stranger")
    return event, people, other, second


def _fill(template, values: dict):
    if isinstance(template, str):
        return template.format(**values)
    if isinstance(template, list):
        return [_fill(item, values) for item in template]
    if isinstance(template, dict):
        return {key: _fill(value, values) for key, value in template.items()}
    return template


def _request(client, route: Route, role: Role):
    event, people, other, second = _cast(route)
    caller = people[role]
    rows = body(get(client, f"/events/{event.id}", people[Role.OWNER].token))["invitees"]
    invitation_ids = {row["user_id"]: row["id"] for row in rows}
    values = {
        "event_id": event.id,
        "guest_id": other.user.id,
        "cohost_id": second.user.id,
        "caller_id": caller.user.id,
        "invitation_id": invitation_ids.get(caller.user.id, invitation_ids[people[Role.GUEST].user.id]),
        "new_phone": phone(),
    }
    path = _fill(route.path, values)
    if route.body is None:
        headers = {"Authorization": f"Bearer {caller.token}"}
        return client.http.request(route.method, path, headers=headers)
    return post_json(client, path, _fill(route.body, values), caller.token, method=route.method)


@pytest.mark.parametrize("role", ROLES, ids=str)
@pytest.mark.parametrize("route", ROUTES, ids=lambda route: route.name)
def test_each_role_gets_what_the_table_says(client, route: Route, role: Role):
    response = _request(client, route, role)
    if route.allows(role):
        assert response.status_code == route.success, body(response) if response.body else None
    elif role in (Role.STRANGER, Role.LINK_HOLDER):
        assert response.status_code == 404 and body(response) == NOT_FOUND
    else:
        assert response.status_code == 403 and body(response) == FORBIDDEN


def test_the_table_names_an_action_of_the_roles_table_for_every_route():
    assert all(route.action in PERMITTED for route in ROUTES)
    assert len({(route.name, route.path) for route in ROUTES}) == len(ROUTES)
