"""Who got the invitation, for hosts only: each invitee row's ``invited_via`` (push, text, link) and
``first_opened_at`` (the guest page's first visit by that guest, written once by a conditional update, never for a
host's own page), and the event's ``opened_count``. A guest sees none of it anywhere: not on any row or event of
the detail, the lists, the timeline, their guest page, their export or their calendar feed."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from chalicelib.domain import invitation_insight
from chalicelib.services.web import first_visits, guest_answers
from chalicelib.timeutil import format_datetime
from tests.api.test_account_export import _export, _file_of
from tests.utils.api import body, get, post_json
from tests.utils.exports import download_location
from tests.utils.factories import make_cohost, make_person, phone
from tests.utils.races import race, read_together
from tests.utils.web import invite_by_text, link_texted_to, page

HOST_ONLY = ("invited_via", "first_opened_at", "opened_count")


def _rows(shown: dict) -> dict[int, dict]:
    return {row["user_id"]: row for row in shown.get("invitees", shown.get("invitations", []))}


def _party(client):
    """Alice's event: Bob (the app, a push), a number invited by text, and Jen who joined by the join link."""
    alice, bob, jen = make_person("Alice"), make_person("Bob"), make_person("Jen")
    number = phone()
    created = invite_by_text(client, alice, number, bob.phone, join_mode="open")
    event_id = created["id"]
    link = post_json(client, f"/events/{event_id}/join_link", {}, alice.token)
    code = body(link)["url"].rsplit("/j/", 1)[1]
    assert post_json(client, "/events/join", {"code": code}, jen.token).status_code == 200
    texted_id = next(row["user_id"] for row in created["invitees"] if row["phone_number"] == number)
    return alice, bob, jen, number, texted_id, event_id


def _detail(client, event_id: int, person) -> dict:
    response = get(client, f"/events/{event_id}", person.token)
    assert response.status_code == 200, response.body
    return body(response)


def test_hosts_see_how_each_invitation_went_and_who_opened_their_page(client):
    alice, bob, jen, number, texted_id, event_id = _party(client)
    shown = _detail(client, event_id, alice)
    rows = _rows(shown)
    assert {uid: row["invited_via"] for uid, row in rows.items()} == {
        alice.id: None,
        bob.id: "push",
        texted_id: "text",
        jen.id: "link",
    }
    assert all(row["first_opened_at"] is None for row in rows.values()) and shown["opened_count"] == 0
    assert page(client, link_texted_to(number)).status_code == 200
    shown = _detail(client, event_id, alice)
    opened = _rows(shown)[texted_id]["first_opened_at"]
    assert opened is not None and shown["opened_count"] == 1
    assert page(client, link_texted_to(number)).status_code == 200  # a second visit keeps the first's time
    assert _rows(_detail(client, event_id, alice))[texted_id]["first_opened_at"] == opened
    make_cohost(event_id, bob)  # a co-host sees what the owner sees, in the detail and the list
    assert _rows(_detail(client, event_id, bob))[texted_id]["first_opened_at"] == opened
    [listed] = [e for e in body(get(client, "/events", bob.token))["results"] if e["id"] == event_id]
    assert listed["opened_count"] == 1 and _rows(listed)[texted_id]["invited_via"] == "text"


def test_a_guest_sees_no_ones_delivery_or_visits_anywhere(client):
    alice, bob, jen, number, texted_id, event_id = _party(client)
    assert page(client, link_texted_to(number)).status_code == 200  # one guest opened their page
    feed = post_json(client, "/users/me/calendar_feed", {}, bob.token)
    assert feed.status_code in (200, 201), feed.body
    for guest in (bob, jen):
        seen = [
            get(client, f"/events/{event_id}", guest.token).body,
            get(client, "/events", guest.token).body,
            get(client, "/events/timeline?type=received", guest.token).body,
        ]
        assert _export(client, guest.token).status_code == 202
        ready = body(get(client, "/users/me/export", guest.token))
        exported, _ = _file_of(download_location(client, ready["url"]))
        seen.append(json.dumps(exported).encode())
        for answer in seen:
            assert all(key.encode() not in answer for key in (*HOST_ONLY, "text_status")), answer[:300]
    seen_page = page(client, link_texted_to(number)).body
    assert b"opened" not in seen_page and b"invited_via" not in seen_page
    calendar = client.http.get(body(feed)["url"].split("invites.example.test", 1)[-1]).body
    assert b"opened" not in calendar.lower() and b"text_status" not in calendar


def test_the_first_visit_costs_one_conditional_update_and_later_visits_none(client, aws):
    alice, number = make_person("Alice"), phone()
    invite_by_text(client, alice, number)
    path = link_texted_to(number)
    aws.reset()
    assert page(client, path).status_code == 200
    assert aws.of("dynamodb") == {"TransactWriteItems": 1, "Query": 2, "BatchGetItem": 1, "UpdateItem": 1}
    aws.reset()
    assert page(client, path).status_code == 200
    assert aws.of("dynamodb") == {"TransactWriteItems": 1, "Query": 2, "BatchGetItem": 1}  # the read path alone
    aws.reset()
    assert client.http.head(path).status_code == 200
    assert client.http.get(f"{path}/event.ics").status_code == 200
    assert "UpdateItem" not in aws.of("dynamodb")


def test_a_head_or_a_calendar_download_is_no_visit(client):
    alice, number = make_person("Alice"), phone()
    created = invite_by_text(client, alice, number)
    path = link_texted_to(number)
    assert client.http.head(path).status_code == 200
    assert client.http.get(f"{path}/event.ics").status_code == 200
    assert _detail(client, created["id"], alice)["opened_count"] == 0


def test_a_cohosts_visit_of_their_own_page_is_never_noted(client):
    alice, number = make_person("Alice"), phone()
    created = invite_by_text(client, alice, number)
    cohost_id = next(row["user_id"] for row in created["invitees"] if row["phone_number"] == number)
    make_cohost(created["id"], type("Cohost", (), {"id": cohost_id})())
    assert page(client, link_texted_to(number)).status_code == 200
    shown = _detail(client, created["id"], alice)
    assert _rows(shown)[cohost_id]["first_opened_at"] is None and shown["opened_count"] == 0


def test_two_first_visits_at_once_write_one_time(client, monkeypatch):
    alice, number = make_person("Alice"), phone()
    created = invite_by_text(client, alice, number)
    path = link_texted_to(number)
    times = iter([datetime(2030, 1, 1, 10, tzinfo=UTC), datetime(2030, 1, 1, 11, tzinfo=UTC)])
    wins: list[bool] = []
    noted = first_visits.first_visits.note_first_visit

    def note(event_id, user_id, _at):
        wins.append(noted(event_id, user_id, next(times)))
        return wins[-1]

    monkeypatch.setattr(first_visits.first_visits, "note_first_visit", note)
    read_together(monkeypatch, guest_answers, "open_link", 2)  # both read the invitation before either writes
    assert race(lambda _n: page(client, path).status_code == 200 or 1 / 0, 2, refused=ZeroDivisionError) == ["ok"] * 2
    assert sorted(wins) == [False, True]
    [row] = [r for r in _rows(_detail(client, created["id"], alice)).values() if r["user_id"] != alice.id]
    assert row["first_opened_at"] in (format_datetime(datetime(2030, 1, 1, h, tzinfo=UTC)) for h in (10, 11))


def test_invited_via_reads_a_stored_channel_first_and_the_owner_none():
    class Invitation:
        role, cohost, invited_via, link_hash, text_status, first_opened_at = "guest", None, None, None, None, None

    guest = Invitation()
    assert invitation_insight.invited_via(guest) == "push"
    guest.text_status = "not_sent"
    assert invitation_insight.invited_via(guest) == "text"
    guest.invited_via = "link"
    assert invitation_insight.invited_via(guest) == "link"
    owner = Invitation()
    owner.role = "owner"
    assert invitation_insight.invited_via(owner) is None
    guest.first_opened_at = datetime(2030, 1, 1, tzinfo=UTC)
    assert invitation_insight.opened_count([guest, owner]) == 1
