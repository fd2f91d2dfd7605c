"""Every role against every route of a plan, as domain.plans says (``PLAN_PERMITTED``): the route's success status
when the role's action is permitted, else 404 for a stranger (the plan looks like no plan) and 403 for someone
in it. PLAN_ROUTES is the one table; a route with ``{plan_id}`` and no row fails the guard test below."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from chalicelib.domain.plans import PLAN_PERMITTED, PlanAction, PlanRole
from tests.api.test_plans import OPTIONS
from tests.utils.api import body, post_json
from tests.utils.factories import make_person

FORBIDDEN = {"detail": "You do not have permission to perform this action."}
NOT_FOUND = {"detail": "Not found."}


@dataclass(frozen=True)
class PlanRoute:
    method: str
    path: str
    action: PlanAction
    success: int
    body: dict | None = None

    def expected(self, role: PlanRole) -> int:
        if role in PLAN_PERMITTED[self.action]:
            return self.success
        return 404 if role == PlanRole.STRANGER else 403


PLAN_ROUTES = [
    PlanRoute("GET", "/plans/{plan_id}", PlanAction.READ, 200),
    PlanRoute("PUT", "/plans/{plan_id}/votes", PlanAction.VOTE, 200, {"1": "yes"}),
    PlanRoute("POST", "/plans/{plan_id}/decide", PlanAction.DECIDE, 201, {"option": 1}),
    PlanRoute("DELETE", "/plans/{plan_id}", PlanAction.DROP, 204),
]


def test_every_route_of_a_plan_has_a_row():
    from app import API_BLUEPRINTS

    served = {
        (spec.path, method)
        for blueprint in API_BLUEPRINTS
        for spec in blueprint.specs
        if "{plan_id}" in spec.path
        for method in spec.methods
        if method != "HEAD"  # answered as GET
    }
    assert served == {(route.path, route.method) for route in PLAN_ROUTES}


@pytest.mark.parametrize("route", PLAN_ROUTES, ids=lambda route: f"{route.method} {route.path}")
@pytest.mark.parametrize("role", list(PlanRole), ids=str)
def test_each_role_gets_what_the_table_says(client, route, role):
    owner, invitee, stranger = make_person("Owner"), make_person("Invitee"), make_person("Stranger")
    payload = {"title": "Dinner", "time_zone": "UTC", "options": OPTIONS, "invite_phone_numbers": [invitee.phone]}
    made = post_json(client, "/plans", payload, owner.token)
    assert made.status_code == 201, made.body
    caller = {PlanRole.OWNER: owner, PlanRole.INVITEE: invitee, PlanRole.STRANGER: stranger}[role]
    path = route.path.format(plan_id=body(made)["id"])
    headers = {"Authorization": f"Bearer {caller.token}"}
    if route.body is None:
        response = client.http.request(route.method, path, headers=headers)
    else:
        response = post_json(client, path, route.body, caller.token, method=route.method)
    assert response.status_code == route.expected(role), response.body
    if response.status_code == 403:
        assert body(response) == FORBIDDEN
    if response.status_code == 404:
        assert body(response) == NOT_FOUND
