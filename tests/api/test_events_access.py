"""Who may do what on /events/{id}...: strangers 404, invitees 403 on owner actions, bad ids 404."""

from __future__ import annotations

import pytest

from tests.utils.api import body, get, post_json
from tests.utils.factories import make_event, make_person, put, stored_event, table_items

NOT_FOUND = {"detail": "Not found."}
FORBIDDEN = {"detail": "You do not have permission to perform this action."}


@pytest.fixture
def cast(client):
    owner, invitee, stranger = make_person("Owner"), make_person("Invitee"), make_person("Stranger")
    event = make_event(owner, invitee)
    view = body(get(client, f"/events/{event.id}", token=owner.token))
    invitation_id = view["invitees"][1]["id"]
    return {"owner": owner, "invitee": invitee, "stranger": stranger, "event": event, "invitation": invitation_id}


def call(client, action: str, person, event_id, invitation_id):
    base = f"/events/{event_id}"
    if action == "detail":
        return get(client, base, token=person.token)
    if action == "patch":
        return post_json(client, base, {"title": "New"}, token=person.token, method="PATCH")
    if action == "post_as_patch":
        return post_json(client, base, {"title": "New"}, token=person.token)
    if action == "cancel":
        return put(client, f"{base}/cancel_event", person.token)
    if action in ("accept", "reject"):
        return post_json(client, f"{base}/{action}", {}, token=person.token)
    if action == "mark_seen":
        return put(client, f"{base}/invitations/{invitation_id}/mark_seen", person.token)
    raise AssertionError(action)


ACTIONS = ["detail", "patch", "post_as_patch", "cancel", "accept", "reject", "mark_seen"]
# who -> action -> status
MATRIX = {
    "stranger": dict.fromkeys(ACTIONS, 404),
    "invitee": {
        "detail": 200,
        "patch": 403,
        "post_as_patch": 403,
        "cancel": 403,
        "accept": 200,
        "reject": 200,
        "mark_seen": 200,
    },
    "owner": {
        "detail": 200,
        "patch": 200,
        "post_as_patch": 200,
        "cancel": 204,
        "accept": 403,
        "reject": 403,
        "mark_seen": 403,
    },
}


@pytest.mark.parametrize("who", list(MATRIX))
@pytest.mark.parametrize("action", ACTIONS)
def test_access_matrix(client, cast, who, action):
    before = table_items()
    response = call(client, action, cast[who], cast["event"].id, cast["invitation"])
    expected = MATRIX[who][action]
    assert response.status_code == expected, response.body
    if expected == 404:
        assert body(response) == NOT_FOUND
    if expected == 403:
        assert body(response) == FORBIDDEN
    if expected >= 400:
        assert table_items() == before  # refused: nothing changed


@pytest.mark.parametrize("action", ACTIONS)
def test_unknown_and_non_numeric_ids_are_404(client, cast, action):
    for event_id in ("999999", "abc", "1.5", "-3", "99999999999999999999"):
        response = call(client, action, cast["owner"], event_id, cast["invitation"])
        assert response.status_code == 404, (event_id, response.body)
        assert body(response) == NOT_FOUND


def test_post_updates_like_patch(client, cast):
    owner, event = cast["owner"], cast["event"]
    response = post_json(client, f"/events/{event.id}", {"title": "Renamed", "venue_name": "Hall"}, token=owner.token)
    assert response.status_code == 200
    assert body(response)["title"] == "Renamed" and body(response)["venue_name"] == "Hall"
    assert stored_event(event.id).title == "Renamed"


@pytest.mark.parametrize(
    "path", ["/events", "/events/timeline?type=sent", "/events/stats", "/events/sample_rsvp_replies", "/events/{id}"]
)
def test_head_on_every_get_route(client, cast, path):
    path = path.replace("{id}", str(cast["event"].id))
    headers = {"Authorization": f"Bearer {cast['invitee'].token}"}
    got = client.http.request("GET", path, headers=headers)
    head = client.http.request("HEAD", path, headers=headers)
    assert got.status_code == head.status_code == 200
    assert head.body == b"" and got.body
    assert head.headers["Content-Type"] == got.headers["Content-Type"]
    # a stranger's HEAD on the event is a 404 too, without a body
    if path.startswith(f"/events/{cast['event'].id}"):
        stranger = client.http.request("HEAD", path, headers={"Authorization": f"Bearer {cast['stranger'].token}"})
        assert stranger.status_code == 404 and stranger.body == b""


@pytest.mark.parametrize(
    "path", ["/events", "/events/timeline?type=sent", "/events/stats", "/events/sample_rsvp_replies", "/events/1"]
)
def test_every_route_needs_a_token(client, path):
    assert get(client, path).status_code == 401


def test_undeclared_methods_are_405(client, cast):
    token = cast["owner"].token
    response = client.http.request(
        "DELETE", f"/events/{cast['event'].id}", headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 405
    assert body(response) == {"detail": 'Method "DELETE" not allowed.'}
    assert post_json(client, "/events/stats", {}, token=token).status_code == 405
    assert get(client, f"/events/{cast['event'].id}/accept", token=token).status_code == 405
