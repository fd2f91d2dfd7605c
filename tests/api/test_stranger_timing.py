"""Timing tells nothing: a stranger's 404 for an existing event costs the same DynamoDB work as for an id
that names no event. The caller's own invitation is read before any of the event's rows, so a stranger
reads none of them however big the event is (counted in calls, never timed)."""

from __future__ import annotations

import pytest

from chalicelib.models.events import EventsTable, Message, message_sk
from chalicelib.timeutil import utcnow
from tests.utils.api import body, get, post_json
from tests.utils.factories import make_event, make_person

NOT_FOUND = {"detail": "Not found."}
MISSING_ID = 987654321012345


def _big_event(owner) -> int:
    """An event whose partition takes DynamoDB more than one page to read (1 MB a page)."""
    event = make_event(owner)
    now = utcnow()
    with EventsTable.batch_write() as batch:
        for n in range(300):
            batch.save(Message(f"EVENT#{event.id}", message_sk(now, n + 1), id=n + 1, user_id=owner.user.id,
                               body="x" * 4000, created=now))  # fmt: skip
    return event.id


ROUTES = [
    ("GET", "/events/{id}", None),
    ("PATCH", "/events/{id}", {"title": "Mine"}),
    ("GET", "/events/{id}/guests.csv", None),
    ("GET", "/events/{id}/announcements", None),
    ("POST", "/events/{id}/join_link", {}),
    ("PUT", "/events/{id}/invitations/1/mark_seen", None),
    ("PUT", "/events/{id}/cancel_event", None),
    ("POST", "/events/{id}/accept", {}),
    ("POST", "/events/{id}/reject", {}),
    ("POST", "/events/{id}/messages", {"body": "Hi"}),
    ("POST", "/events/{id}/polls", {"suggested_date": "2031-07-02T19:00:00Z", "suggested_venue": "Bar"}),
    ("POST", "/events/{id}/time_suggestions", {"suggested_time": "2031-07-01T20:00:00Z"}),
    ("GET", "/events/{id}/time_suggestions", None),
    ("POST", "/events/{id}/announcements", {"text": "Bring snacks"}),
    ("POST", "/events/{id}/nudge", {}),
    ("PUT", "/events/{id}/cohosts/1", None),
    ("DELETE", "/events/{id}/cohosts/1", None),
    ("GET", "/events/{id}/join_requests", None),
    ("POST", "/events/{id}/join_requests/1/approve", None),
    ("POST", "/events/{id}/join_requests/1/decline", None),
    ("PUT", "/events/{id}/invitees/1/reply", {"accept": True}),
    ("POST", "/events/{id}/offline_guests", {"name": "Grandpa Joe"}),
    ("DELETE", "/events/{id}/offline_guests/1", None),
    ("POST", "/events/{id}/clone", {"event_date": "2031-01-01T18:00:00Z"}),
    ("DELETE", "/events/{id}/cover", None),
]


@pytest.mark.parametrize(("method", "path", "payload"), ROUTES, ids=[f"{m} {p}" for m, p, _ in ROUTES])
def test_a_strangers_404_costs_the_same_for_an_existing_event_and_a_missing_id(client, aws, method, path, payload):
    owner, stranger = make_person("Owner"), make_person("Stranger")
    event_id = _big_event(owner)
    costs = []
    for target in (event_id, MISSING_ID):
        aws.reset()
        url = path.format(id=target)
        if payload is None:
            answer = get(client, url, stranger.token) if method == "GET" else client.http.request(
                method, url, headers={"Authorization": f"Bearer {stranger.token}"}, body=b"")
        else:
            answer = post_json(client, url, payload, stranger.token, method=method)
        assert answer.status_code == 404 and body(answer) == NOT_FOUND
        costs.append(aws.of("dynamodb"))
    assert costs[0] == costs[1]
    assert "Query" not in costs[0]  # none of the event's rows is read for someone outside it
