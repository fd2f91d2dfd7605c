"""A write whose answer was lost: DynamoDB applied it, the answer never came back (a read timeout), and
botocore sent it again. Every route that writes gives its success answer and does its work once.

Each route runs twice on like worlds (tests/api/test_roles_over_http.py's cast, as its owner or the first role
the roles table permits): once plainly, once with the first answer of every DynamoDB write it makes dropped
after the emulator applied the write. The two must store the same (tests/utils/effects.py: items of each kind,
counters, texts) and answer the same status.

The emulator honours ``ClientRequestToken`` as DynamoDB does (tests/utils/aws_env.py); moto alone ignores it.
"""

from __future__ import annotations

import pytest

from chalicelib.domain.roles import Action, Role
from tests.api.test_roles_over_http import CHANGING, EVENT, ROLES, Route, _cast, _request
from tests.utils.aws_env import ACCOUNT, REGION, fresh_world
from tests.utils.aws_faults import LOSE_ANSWER, on_the_wire
from tests.utils.effects import difference, stored_effects
from tests.utils.images import jpeg
from tests.utils.notifications import add_device

WRITES = {
    "dynamodb": frozenset({"PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem"}),
    "s3": frozenset({"PutObject", "DeleteObject", "DeleteObjects"}),
}
# Routes whose first permitted role writes nothing (the owner's own invitation is seen from the start, the
# owner joining by code is already in, the owner has no co-host role to end): the role that does.
ACTING = {
    "PUT /events/{event_id}/invitations/{invitation_id}/mark_seen": Role.GUEST,
    "POST /events/join code": Role.LINK_HOLDER,
    "DELETE /events/{event_id}/cohosts/{caller_id}": Role.COHOST,
}


def lose_first_answer_of_every_write():
    """A rule: each distinct DynamoDB write is applied and its answer lost the first time it is sent; the
    SDK's retry of it (the same body) gets its answer."""
    seen: set[bytes] = set()

    def rule(service: str, operation: str, body: bytes):
        if operation not in WRITES.get(service, ()) or body in seen:
            return None
        seen.add(body)
        return LOSE_ANSWER

    return rule


def _give_the_event_a_cover(cast) -> None:
    from chalicelib.services.hosting import covers

    covers.change_cover(cast.people[Role.OWNER].user, cast.event_id, jpeg())


def _check_the_guest_in(cast) -> None:
    from chalicelib.services.the_day import check_ins

    check_ins.check_in(
        cast.people[Role.OWNER].user, cast.event_id, user_id=cast.other_guest.user.id, code=None, offline_guest_id=None
    )


# What a route needs beyond the cast to have something to change.
SETUP = {
    "DELETE /events/{event_id}/cover": _give_the_event_a_cover,
    "DELETE /events/{event_id}/check_ins?user_id={guest_id}": _check_the_guest_in,
}


def _run(client, route, role, lose: bool, setup=None):
    fresh_world()
    cast = _cast(route)
    SETUP.get(route.name, lambda cast: None)(cast)
    if setup is not None:
        setup(route, cast)
    before = stored_effects()
    if lose:
        with on_the_wire(lose_first_answer_of_every_write()) as wire:
            response = _request(client, route, role, cast)
        lost = len(wire.faults)
    else:
        response, lost = _request(client, route, role, cast), 0
    return response, difference(before, stored_effects()), lost


def _acting_role(route):
    return ACTING.get(route.name) or next(role for role in ROLES if route.allows(role))


@pytest.mark.parametrize("route", CHANGING, ids=lambda route: route.name)
def test_an_event_route_whose_write_answers_were_lost_answers_success_and_acts_once(client, route):
    role = _acting_role(route)
    plain, plain_effect, _ = _run(client, route, role, lose=False)
    assert plain.status_code == route.expected(role), plain.body
    lossy, lossy_effect, lost = _run(client, route, role, lose=True)
    assert lost >= 1, "the route wrote nothing: it belongs to no table of this file"
    assert lossy.status_code == plain.status_code, lossy.body
    assert lossy_effect == plain_effect


# Variants of a route the roles table walks once: the removal that tells the person removed (by a push to their
# phone), a guest's and a co-host's.
TOLD = [
    Route("DELETE", EVENT + "/invitees/{guest_id}?notify=true", Action.REMOVE_GUEST, 204),
    Route("DELETE", EVENT + "/invitees/{cohost_id}?notify=true", Action.REMOVE_COHOST, 204),
]
PHONES = {"{guest_id}": "other_guest", "{cohost_id}": "other_cohost"}


def _pushes() -> int:
    """The pushes SNS took for the emulator's phones."""
    from moto.sns.models import sns_backends

    return sum(len(endpoint.messages) for endpoint in sns_backends[ACCOUNT][REGION].platform_endpoints.values())


def _phone_of_the_removed(route, cast) -> None:
    person = next(getattr(cast, who) for name, who in PHONES.items() if name in route.path)
    add_device(person, "a7" * 32)


@pytest.mark.parametrize("route", TOLD, ids=lambda route: route.name)
def test_a_removal_that_tells_the_person_whose_write_answers_were_lost_tells_them_once(client, route):
    role = _acting_role(route)
    plain, plain_effect, _ = _run(client, route, role, lose=False, setup=_phone_of_the_removed)
    assert (plain.status_code, _pushes()) == (204, 1), plain.body
    lossy, lossy_effect, lost = _run(client, route, role, lose=True, setup=_phone_of_the_removed)
    assert lost >= 1
    assert (lossy.status_code, _pushes()) == (204, 1), lossy.body
    assert lossy_effect == plain_effect
