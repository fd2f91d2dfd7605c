"""Passes and check-in at the door over HTTP: codes bound to one party of one event, idempotent and exact
under parallel scans, undone, counted on the event and shown on the rows."""

from __future__ import annotations

import re

import pytest

from chalicelib.models.events import META_SK, Event, event_pk
from chalicelib.services.hosting import offline_guests
from chalicelib.services.the_day import check_ins
from chalicelib.store import invitations as invitation_store
from tests.utils import the_day
from tests.utils.api import body, get, post_json
from tests.utils.factories import make_event, make_person
from tests.utils.races import race, read_together


@pytest.fixture
def door(aws):
    """An event with a going guest (bringing one), a guest who declined, one who has not answered."""
    owner, guest, declined, undecided = (make_person(n) for n in ("Olive Owner", "Gus Guest", "Dee Clined", "Una"))
    event = make_event(owner, guest, declined, undecided, max_extra_guests=2)
    from chalicelib.services.replies import replies

    replies.rsvp(guest.user, event.id, accept=True, message=None, extra_guests=1)
    replies.rsvp(declined.user, event.id, accept=False, message=None)
    return event.id, owner, guest, declined, undecided


def _pass(client, event_id, person):
    return get(client, f"/events/{event_id}/pass", person.token)


def _check_in(client, event_id, host, sent):
    return post_json(client, f"/events/{event_id}/check_ins", sent, host.token)


def test_a_going_guest_s_pass_is_a_stable_code_and_its_qr_svg(client, door):
    event_id, _, guest, _, _ = door
    first = _pass(client, event_id, guest)
    assert first.status_code == 200
    code, svg = body(first)["code"], body(first)["qr_svg"]
    assert re.fullmatch(rf"{guest.id}\.[A-Za-z0-9_-]{{22}}", code)
    assert svg.startswith("<svg") and "viewBox" in svg and "<path" in svg
    assert body(_pass(client, event_id, guest)) == body(first)  # the same code every time
    other_event = make_event(make_person("Another Host"), guest)
    the_day.going(other_event.id, guest)
    assert body(_pass(client, other_event.id, guest))["code"] != code  # one party of one event


def test_the_qr_code_changes_with_the_code():
    assert check_ins.qr_svg("1.aaaaaaaaaaaaaaaaaaaaaa") != check_ins.qr_svg("1.aaaaaaaaaaaaaaaaaaaaab")


def test_no_pass_for_those_not_going_nor_for_strangers(client, door):
    event_id, owner, _, declined, undecided = door
    for person in (declined, undecided):
        response = _pass(client, event_id, person)
        assert (response.status_code, body(response)) == (403, {"detail": check_ins.NO_PASS})
    assert _pass(client, event_id, owner).status_code == 403
    assert _pass(client, event_id, make_person("Sam Stranger")).status_code == 404


def test_a_scan_checks_the_party_in_once_and_the_event_counts_it(client, door):
    event_id, owner, guest, _, _ = door
    code = body(_pass(client, event_id, guest))["code"]
    first = _check_in(client, event_id, owner, {"code": code})
    assert first.status_code == 200
    party = body(first)
    assert party["user_id"] == guest.id and party["full_name"] == "Gus Guest" and party["people"] == 2
    assert party["checked_in_at"].endswith("Z")
    again = _check_in(client, event_id, owner, {"code": code})
    assert (again.status_code, body(again)) == (200, party)  # unchanged
    detail = body(get(client, f"/events/{event_id}", owner.token))
    assert detail["checked_in_count"] == 1
    rows = {row["user_id"]: row["checked_in_at"] for row in detail["invitees"]}
    assert rows[guest.id] == party["checked_in_at"] and rows[owner.id] is None
    seen_by_guest = body(get(client, f"/events/{event_id}", guest.token))
    assert seen_by_guest["checked_in_count"] is None  # the hosts' number


def test_parallel_scans_of_one_code_count_it_once(client, door, monkeypatch):
    event_id, owner, guest, _, _ = door
    code = body(_pass(client, event_id, guest))["code"]
    answers = []
    read_together(monkeypatch, invitation_store, "find_invitation", 8)  # every scan reads before any writes

    def scan(_n: int) -> None:
        answers.append(check_ins.check_in(owner.user, event_id, code=code, user_id=None, offline_guest_id=None))

    assert race(scan, 8, refused=()) == ["ok"] * 8
    assert len({answer.checked_in_at for answer in answers}) == 1
    assert Event.get(event_pk(event_id), META_SK).checked_in_count == 1


@pytest.mark.parametrize("who", ["declined", "undecided", "unknown", "tampered", "other_event"])
def test_a_code_of_nobody_going_here_is_404_and_changes_nothing(client, door, who):
    event_id, owner, guest, declined, undecided = door
    code = body(_pass(client, event_id, guest))["code"]
    sent = {
        "declined": {"user_id": declined.id},
        "undecided": {"user_id": undecided.id},
        "unknown": {"code": f"{guest.id}.{'A' * 22}"},
        "tampered": {"code": code[:-1] + ("A" if code[-1] != "A" else "B")},
        "other_event": {"code": code},
    }[who]
    target = event_id
    if who == "other_event":
        target = make_event(owner, guest).id
        the_day.going(target, guest)
    response = _check_in(client, target, owner, sent)
    assert response.status_code == 404
    assert int(Event.get(event_pk(target), META_SK).checked_in_count or 0) == 0


def test_undoing_a_check_in_and_offline_guests(client, door):
    event_id, owner, guest, _, _ = door
    assert _check_in(client, event_id, owner, {"user_id": guest.id}).status_code == 200
    headers = {"Authorization": f"Bearer {owner.token}"}
    undone = client.http.delete(f"/events/{event_id}/check_ins?user_id={guest.id}", headers=headers)
    assert (undone.status_code, body(undone)["checked_in_at"]) == (200, None)
    again = client.http.delete(f"/events/{event_id}/check_ins?user_id={guest.id}", headers=headers)
    assert (again.status_code, body(again)["checked_in_at"]) == (200, None)
    grandpa = offline_guests.add(owner.user, event_id, name="Grandpa Joe", extra_guests=0)
    arrived = _check_in(client, event_id, owner, {"offline_guest_id": grandpa.id})
    assert arrived.status_code == 200
    assert body(arrived)["full_name"] == "Grandpa Joe" and body(arrived)["user_id"] is None
    detail = body(get(client, f"/events/{event_id}", owner.token))
    assert detail["checked_in_count"] == 1
    assert detail["offline_guests"][0]["checked_in_at"] == body(arrived)["checked_in_at"]


@pytest.mark.parametrize(
    ("sent", "key"),
    [
        ({}, "non_field_errors"),
        ({"user_id": 1, "code": "1.x"}, "non_field_errors"),
        ({"user_id": "seven"}, "user_id"),
        ({"code": "x" * 65}, "code"),
    ],
)
def test_a_check_in_names_exactly_one_party(client, door, sent, key):
    event_id, owner, _, _, _ = door
    response = _check_in(client, event_id, owner, sent)
    assert response.status_code == 400 and list(body(response)) == [key]


def test_a_guest_cannot_check_anyone_in(client, door):
    event_id, _, guest, _, _ = door
    response = _check_in(client, event_id, guest, {"user_id": guest.id})
    assert response.status_code == 403
    assert int(Event.get(event_pk(event_id), META_SK).checked_in_count or 0) == 0


def test_a_second_scan_writes_nothing_and_reads_five_items_at_most(client, door, aws):
    event_id, owner, guest, _, _ = door
    code = body(_pass(client, event_id, guest))["code"]
    assert _check_in(client, event_id, owner, {"code": code}).status_code == 200
    aws.reset()
    assert _check_in(client, event_id, owner, {"code": code}).status_code == 200
    calls = aws.of("dynamodb")
    assert calls["TransactWriteItems"] == 0 and calls["UpdateItem"] == 0
    # the caller, their own invitation (read before the event's rows: a stranger's 404 costs the same), the event,
    # the party, a name
    assert calls["Query"] + calls["GetItem"] + calls["BatchGetItem"] <= 5
