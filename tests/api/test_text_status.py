"""``text_status`` on invitee rows: what became of each invitation text, for the hosts only. A number on the stop
list reads ``not_sent`` like any text a limit kept back, so the host never learns who said stop; a guest never
sees the field on anyone's row, wherever they see the event."""

from __future__ import annotations

import json

from chalicelib.services.texts import stop_list
from tests.api.test_account_export import _export, _file_of
from tests.utils.api import body, get, post_json, texts_to
from tests.utils.exports import download_location
from tests.utils.factories import make_cohost, make_person, phone
from tests.utils.web import invite_by_text, link_texted_to, page


def _statuses(rows: list[dict], people: dict[int, str]) -> dict[str, str | None]:
    return {people[row["user_id"]]: row["text_status"] for row in rows if row["user_id"] in people}


def test_hosts_see_what_became_of_each_invitation_text_and_guests_never_do(client, override_settings):
    override_settings(invite_sms_per_owner_per_hour=1)
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    texted, stopped, opted_out, over_quota = phone(), phone(), phone(99), phone()
    stop_list.stop(stopped, stop_list.FROM_TEXT)
    created = invite_by_text(client, alice, stopped, opted_out, texted, over_quota, bob.phone, carol.phone)
    event_id = created["id"]
    assert len(texts_to(texted)) == 1 and texts_to(over_quota) == []
    names = {row["user_id"]: row["phone_number"] for row in created["invitees"]}
    expected = {
        alice.phone: None,  # no invitation text: the owner, and guests with the app (a push)
        bob.phone: None,
        carol.phone: None,
        texted: "sent",
        stopped: "not_sent",  # reads as any text not sent: nobody learns who said stop
        opted_out: "not_sent",
        over_quota: "not_sent",
    }
    assert _statuses(created["invitees"], names) == expected
    make_cohost(event_id, bob)
    for host in (alice, bob):
        detail = body(get(client, f"/events/{event_id}", host.token))
        assert _statuses(detail["invitees"], names) == expected
        [listed] = [
            e for e in body(get(client, "/events?type=sent", host.token))["results"] if e["id"] == event_id
        ] or [e for e in body(get(client, "/events", host.token))["results"] if e["id"] == event_id]
        assert _statuses(listed["invitations"], names) == {k: v for k, v in expected.items() if k != alice.phone}
    # a guest: not on any row of the detail, the list, the timeline, their data export or the guest page
    seen = [
        get(client, f"/events/{event_id}", carol.token).body,
        get(client, "/events", carol.token).body,
        get(client, "/events/timeline?type=received", carol.token).body,
        page(client, link_texted_to(texted)).body,
    ]
    assert _export(client, carol.token).status_code == 202
    exported, _ = _file_of(download_location(client, body(get(client, "/users/me/export", carol.token))["url"]))
    seen.append(json.dumps(exported).encode())
    assert all(b"text_status" not in answer and b"not_sent" not in answer for answer in seen)
    assert event_id in [e["id"] for e in body(get(client, "/events", carol.token))["results"]]


def test_a_text_the_month_budget_holds_back_reads_not_sent(client, override_settings):
    override_settings(sms_monthly_segments=1)  # 80% of one segment: no room for texts nobody asked for
    alice, number = make_person("Alice"), phone()
    created = invite_by_text(client, alice, number)
    assert texts_to(number) == []
    [row] = [row for row in created["invitees"] if row["phone_number"] == number]
    assert row["text_status"] == "not_sent"
    detail = body(get(client, f"/events/{created['id']}", alice.token))
    assert [row["text_status"] for row in detail["invitees"] if row["phone_number"] == number] == ["not_sent"]


def test_an_approved_join_request_shows_its_text(client):
    from chalicelib.store import join_links as store_links
    from chalicelib.timeutil import utcnow
    from tests.utils.factories import make_event

    alice, guest = make_person("Alice"), make_person("", active=False)
    event = make_event(alice, title="Picnic")
    store_links.save_request(event.id, guest.id, utcnow(), 50)
    assert (
        post_json(client, f"/events/{event.id}/join_requests/{guest.id}/approve", None, alice.token).status_code == 204
    )
    detail = body(get(client, f"/events/{event.id}", alice.token))
    assert [row["text_status"] for row in detail["invitees"] if row["user_id"] == guest.id] == ["sent"]
