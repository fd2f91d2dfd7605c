"""Every role against every route that touches an event, as domain.roles says: the route's success status
when the role's action is permitted, else 404 for someone outside the event and 403 for a participant.

ROUTES is the one table. A new route that touches an event adds its row here (a test below fails until it
does): method, path template, body, the action it takes (or the roles allowed, when a route's answer depends
on whose path it is), its success status, and event settings it needs (``event_fields``).

The cast of every event: its owner, a co-host, a guest, a link holder (signed in, not invited, holding the
event's current join code: the event takes requests by link), a stranger (signed in, no code), plus the
people paths name: ``{guest_id}`` (a plain guest other than the caller), ``{cohost_id}`` (a co-host other
than the caller), ``{caller_id}``, ``{invitation_id}`` (the caller's own invitation, or the guest's for someone
outside the event), ``{asker_id}`` (someone whose request to join is pending), ``{offline_id}`` (an offline
guest) and ``{code}`` (the join code the caller holds: the current one, or for the stranger one that opens
nothing)."""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass, field

import pytest

from chalicelib.domain.recurrence import Repeat
from chalicelib.domain.roles import PERMITTED, Action, Role
from chalicelib.models.events import Invitation, event_pk
from chalicelib.services.conversation import conversation
from chalicelib.services.hosting import events, join_links, offline_guests, series
from chalicelib.services.participants import cohosts
from chalicelib.store import join_links as stored_join_links
from chalicelib.timeutil import utcnow
from tests.utils import the_day
from tests.utils.api import body
from tests.utils.avatars import multipart
from tests.utils.factories import future, make_event, make_person, phone
from tests.utils.images import jpeg

FORBIDDEN = {"detail": "You do not have permission to perform this action."}
NOT_FOUND = {"detail": "Not found."}
ROLES = [Role.OWNER, Role.COHOST, Role.GUEST, Role.LINK_HOLDER, Role.STRANGER]
PHOTO = object()  # a route whose body is a multipart JPEG


@dataclass(frozen=True)
class Route:
    method: str
    path: str
    action: Action
    success: int
    body: dict | object | None = None
    allowed: frozenset[Role] | None = None  # when not PERMITTED[action]
    event_fields: dict = field(default_factory=dict)
    success_of: dict[Role, int] = field(default_factory=dict)  # a role whose success differs
    series: bool = False  # the event is the first date of a series (``{series_id}``)
    day_of: bool = False  # the event has started with its album on, the invitees going, the guest's photo in it
    posts: bool = False  # the guest and the other guest have each posted a message, a poll and a time suggestion

    def allows(self, role: Role) -> bool:
        return role in (self.allowed if self.allowed is not None else PERMITTED[self.action])

    def expected(self, role: Role) -> int:
        if self.allows(role):
            return self.success_of.get(role, self.success)
        return 404 if role in (Role.STRANGER, Role.LINK_HOLDER) else 403

    @property
    def name(self) -> str:
        fields = ",".join(self.body) if isinstance(self.body, dict) and self.body else ""
        return f"{self.method} {self.path}{' ' + fields if fields else ''}"


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
    Route("POST", EVENT + "/maybe", Action.REPLY, 200, {}),
    # everyone in the event marks their own invitation seen (the owner's too)
    Route("PUT", EVENT + "/invitations/{invitation_id}/mark_seen", Action.READ, 200),
    Route("POST", EVENT + "/messages", Action.TALK, 201, {"body": "Hi"}),
    Route("POST", EVENT + "/polls", Action.TALK, 201, POLL),
    Route("POST", EVENT + "/time_suggestions", Action.TALK, 204, {"suggested_time": "2031-07-01T20:00:00Z"}),
    Route("GET", EVENT + "/time_suggestions", Action.READ, 200),
    Route("POST", EVENT + "/announcements", Action.ANNOUNCE, 201, {"text": "Bring snacks"}),
    Route("GET", EVENT + "/announcements", Action.READ, 200),
    Route("POST", EVENT + "/nudge", Action.NUDGE, 200, {}),
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
    Route("POST", EVENT + "/join_link", Action.SHARE_JOIN_LINK, 200),
    Route("GET", EVENT + "/join_requests", Action.DECIDE_JOIN_REQUESTS, 200),
    Route("POST", EVENT + "/join_requests/{asker_id}/approve", Action.DECIDE_JOIN_REQUESTS, 204),
    Route("POST", EVENT + "/join_requests/{asker_id}/decline", Action.DECIDE_JOIN_REQUESTS, 204),
    # the code, not the event id: the link holder asks to join (202, the event takes requests), an invitee
    # gets the event unchanged, the owner is refused, and a code that opens nothing finds no event
    Route("POST", "/events/join", Action.JOIN, 200, {"code": "{code}"}, success_of={Role.LINK_HOLDER: 202}),
    Route("PUT", EVENT + "/invitees/{guest_id}/reply", Action.REPLY_FOR_GUEST, 200, {"accept": True}),
    # the same route for a co-host other than the caller: the owner's alone
    Route("PUT", EVENT + "/invitees/{cohost_id}/reply", Action.REPLY_FOR_COHOST, 200, {"accept": False}),
    # removing someone from the guest list: a plain guest (any host), a co-host (the owner's alone)
    Route("DELETE", EVENT + "/invitees/{guest_id}", Action.REMOVE_GUEST, 204),
    Route("DELETE", EVENT + "/invitees/{cohost_id}", Action.REMOVE_COHOST, 204),
    # taking down what was said: one's own (the guest's: its author and the hosts), or someone else's (the hosts)
    Route("DELETE", EVENT + "/messages/{message_id}", Action.REMOVE_OWN_POST, 204, posts=True),
    Route("DELETE", EVENT + "/messages/{other_message_id}", Action.MODERATE, 204, posts=True),
    Route("DELETE", EVENT + "/polls/{poll_id}", Action.REMOVE_OWN_POST, 204, posts=True),
    Route("DELETE", EVENT + "/polls/{other_poll_id}", Action.MODERATE, 204, posts=True),
    Route("DELETE", EVENT + "/time_suggestions/{suggestion_id}", Action.REMOVE_OWN_POST, 204, posts=True),
    Route("DELETE", EVENT + "/time_suggestions/{other_suggestion_id}", Action.MODERATE, 204, posts=True),
    Route("POST", EVENT + "/offline_guests", Action.MANAGE_OFFLINE_GUESTS, 201, {"name": "Grandpa Joe"}),
    Route("DELETE", EVENT + "/offline_guests/{offline_id}", Action.MANAGE_OFFLINE_GUESTS, 204),
    Route("GET", EVENT + "/guests.csv", Action.EXPORT_GUEST_LIST, 200),
    Route("POST", EVENT + "/clone", Action.CLONE, 201, {"event_date": "2031-01-01T18:00:00Z"}),
    Route("PUT", EVENT + "/cover", Action.SET_COVER, 200, PHOTO),
    Route("DELETE", EVENT + "/cover", Action.SET_COVER, 200),
    Route("PATCH", EVENT, Action.EDIT, 200, {"title": "New", "scope": "all"}, series=True),
    Route("DELETE", "/series/{series_id}", Action.CANCEL_SERIES, 204, series=True),
    Route("POST", EVENT + "/photos", Action.ADD_PHOTOS, 201, {"content_type": "image/jpeg"}, day_of=True),
    Route("GET", EVENT + "/photos", Action.SEE_PHOTOS, 200, day_of=True),
    # the guest's own photo: its uploader and the hosts may remove it
    Route("DELETE", EVENT + "/photos/{photo_id}", Action.REMOVE_PHOTO, 204, day_of=True),
    Route("GET", EVENT + "/pass", Action.SHOW_PASS, 200, day_of=True),
    Route("POST", EVENT + "/attendance", Action.CONFIRM_ATTENDANCE, 200, {"confirmed": True}, day_of=True),
    Route("POST", EVENT + "/check_ins", Action.CHECK_IN, 200, {"user_id": "{guest_id}"}, day_of=True),
    Route("DELETE", EVENT + "/check_ins?user_id={guest_id}", Action.CHECK_IN, 200, day_of=True),
]


@dataclass
class Cast:
    event_id: int
    people: dict  # Role -> Person
    other_guest: object
    other_cohost: object
    asker: object
    offline_id: int
    code: str
    series_id: int | None = None
    photo_id: int | None = None
    post_ids: dict = field(default_factory=dict)  # {"message_id": ..., "other_message_id": ..., ...}


def _cast(route: Route) -> Cast:
    """The event of ``route``'s settings taking requests by link, its cast, a pending request and an offline
    guest, built through the services and the store (no requests)."""
    owner, cohost, guest, other, second, asker, holder, stranger = (
        make_person(name) for name in ("Owner", "Cohost", "Guest", "Other", "Second", "Asker", "Holder", "Stranger")
    )
    invited = (cohost, guest, other, second)
    if route.series:
        data = events.EventInput(
            title="Weekly", event_date=future(), invite_phone_numbers=[person.phone for person in invited],
            join_mode="approval", **route.event_fields,
        )  # fmt: skip
        dates = [view.event for view in series.create_series(owner.user, data, Repeat("weekly", count=2))]
    else:
        dates = [make_event(owner, *invited, join_mode="approval", **route.event_fields)]
    event = dates[0]
    for date in dates:  # a co-host of a series is one on each of its dates
        cohosts.appoint(owner.user, date.id, cohost.user.id)
        cohosts.appoint(owner.user, date.id, second.user.id)
    url, _ = join_links.new_join_link(owner.user, event.id)
    code = url.rsplit("/j/", 1)[1]
    # the asker's pending request, stored as asking stores it (without the hosts' pushes: not walked here)
    stored_join_links.save_request(event.id, asker.user.id, utcnow(), most_pending=10)
    offline = offline_guests.add(owner.user, event.id, name="Sam", extra_guests=0)
    photo_id = None
    if route.day_of:
        the_day.started(event.id)
        the_day.going(event.id, cohost, guest, other, second)
        photo_id = the_day.ready_photo(event.id, guest).id
    post_ids = _posts(event.id, guest, other) if route.posts else {}
    people = {
        Role.OWNER: owner,
        Role.COHOST: cohost,
        Role.GUEST: guest,
        Role.LINK_HOLDER: holder,
        Role.STRANGER: stranger,
    }
    return Cast(event.id, people, other, second, asker, offline.id, code, event.series_id, photo_id, post_ids)


def _posts(event_id: int, guest, other) -> dict:
    """A message, a poll and a time suggestion of the guest's, and the same of the other guest's: their ids."""
    ids = {}
    for prefix, person, day in (("", guest, 2), ("other_", other, 3)):
        message = conversation.post_message(person.user, event_id, "Hello")
        poll = conversation.post_poll(person.user, event_id, future(days=day), "Bar")
        suggestion = conversation.suggest_time(person.user, event_id, conversation.SuggestionInput(future(days=day)))
        ids[f"{prefix}message_id"], ids[f"{prefix}poll_id"] = message["id"], poll.id
        ids[f"{prefix}suggestion_id"] = suggestion.id
    return ids


def _fill(template, values: dict):
    if isinstance(template, str) and re.fullmatch(r"\{\w+\}", template):
        return values[template[1:-1]]  # a whole value: an id stays a number
    if isinstance(template, str):
        return template.format(**values)
    if isinstance(template, list):
        return [_fill(item, values) for item in template]
    if isinstance(template, dict):
        return {key: _fill(value, values) for key, value in template.items()}
    return template


def _request(client, route: Route, role: Role, cast: Cast):
    method, path, payload, headers = _prepared(route, role, cast)
    return client.http.request(method, path, body=payload, headers=headers)


def _prepared(route: Route, role: Role, cast: Cast) -> tuple[str, str, bytes, dict]:
    """The request ``role`` makes on ``route``: method, path, body and headers (reads the cast's invitations)."""
    caller = cast.people[role]
    invitations = Invitation.query(event_pk(cast.event_id), Invitation.sk.startswith("INV#"), consistent_read=True)
    invitation_ids = {invitation.user_id: invitation.id for invitation in invitations}
    values = {
        "event_id": cast.event_id,
        "guest_id": cast.other_guest.user.id,
        "cohost_id": cast.other_cohost.user.id,
        "caller_id": caller.user.id,
        "invitation_id": invitation_ids.get(caller.user.id, invitation_ids[cast.people[Role.GUEST].user.id]),
        "asker_id": cast.asker.user.id,
        "offline_id": cast.offline_id,
        "code": secrets.token_urlsafe(join_links.CODE_BYTES) if role is Role.STRANGER else cast.code,
        "new_phone": phone(),
        "series_id": cast.series_id,
        "photo_id": cast.photo_id,
        **cast.post_ids,
    }
    path = _fill(route.path, values)
    headers = {"Authorization": f"Bearer {caller.token}"}
    payload = b""
    if route.body is PHOTO:
        payload, part_headers = multipart(jpeg())
        headers.update(part_headers)
    elif route.body is not None:
        payload = json.dumps(_fill(route.body, values)).encode()
        headers["Content-Type"] = "application/json"
    return route.method, path, payload, headers


def _mismatch(route: Route, role: Role, response) -> str | None:
    """What is wrong with ``role``'s answer, or None: the status the table gives, and the bodies of 403 and 404."""
    expected = route.expected(role)
    if response.status_code != expected:
        return f"{role}: {response.status_code} instead of {expected}: {response.body!r}"
    if expected in (403, 404) and body(response) != (FORBIDDEN if expected == 403 else NOT_FOUND):
        return f"{role}: body {response.body!r}"
    return None


# A route that changes the event gets a fresh event for each role; a GET shares one among the five roles.
CHANGING = [route for route in ROUTES if route.method != "GET"]
READING = [route for route in ROUTES if route.method == "GET"]


@pytest.mark.parametrize("role", ROLES, ids=str)
@pytest.mark.parametrize("route", CHANGING, ids=lambda route: route.name)
def test_each_role_gets_what_the_table_says(client, route: Route, role: Role):
    response = _request(client, route, role, _cast(route))
    assert _mismatch(route, role, response) is None


@pytest.mark.parametrize("route", READING, ids=lambda route: route.name)
def test_each_role_reads_what_the_table_says(client, route: Route):
    cast = _cast(route)
    mismatches = [_mismatch(route, role, _request(client, route, role, cast)) for role in ROLES]
    assert [mismatch for mismatch in mismatches if mismatch] == []


def test_the_table_names_an_action_of_the_roles_table_for_every_route():
    assert all(route.action in PERMITTED for route in ROUTES)
    assert len({route.name for route in ROUTES}) == len(ROUTES)


def _shape(path: str) -> str:
    """A path with its parameters unnamed and no query: the table's ``{guest_id}`` and the app's ``{user_id}``
    match."""
    return re.sub(r"\{[^}]+\}", "{}", path.partition("?")[0])


def _declared_event_routes(app) -> set[tuple[str, str]]:
    """(method, path shape) of each route of the app with an event or series id in its path (HEAD rides on GET)."""
    from app import API_BLUEPRINTS

    event_paths = {path for path in app.routes if "{event_id}" in path or "{series_id}" in path}
    declared = set()
    for blueprint in API_BLUEPRINTS:
        for path, specs in blueprint.specs_by_path().items():
            if path in event_paths:
                declared |= {(method, _shape(path)) for method in specs if method != "HEAD"}
    return declared


def test_every_route_with_an_event_id_has_a_row(app):
    declared = _declared_event_routes(app)
    rows = {(route.method, _shape(route.path)) for route in ROUTES}
    assert len(declared) > 20
    assert declared - rows == set(), "routes with no row in ROUTES"
    assert {row for row in rows if "{}" in row[1]} - declared == set(), "rows naming no route of the app"
