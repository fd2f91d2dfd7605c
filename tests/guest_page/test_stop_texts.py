"""The guest page's "Stop texting me": the stop list, kept as keyed hashes, honoured by every invitation text.

# GIVEN a person invited by text who presses "Stop texting me" on their page
# THEN no owner's invitation text reaches that number again, while invitations to it are still made and the
#      owner's answers are the same as for anyone else; a pin the person asks for is still sent.
"""

from __future__ import annotations

import hashlib
import hmac

from chalicelib.models.auth import AuthTable, StoppedNumber
from chalicelib.services.texts import stop_list
from tests.utils.api import body, get, last_pin, post_json, texts_to
from tests.utils.factories import make_person, phone
from tests.utils.web import answer, form_token, invite_by_text, link_texted_to, page, post_form, text_of

STOP_BUTTON = ">Stop texting me</button>"


def press_stop(client, path: str, headers=None):
    opened = page(client, path)
    assert opened.status_code == 200 and STOP_BUTTON in text_of(opened)
    return post_form(client, f"{path}/stop", {"csrf": form_token(text_of(opened))}, headers)


def stopped_by_page(client, number: str) -> str:
    """``number`` invited once by someone, then stopped from the page; returns the page's path."""
    invite_by_text(client, make_person("First Host"), number)
    path = link_texted_to(number)
    response = press_stop(client, path)
    assert response.status_code == 303 and response.headers["Location"].endswith("?stopped=1")
    return path


VARY = ("id", "user_id", "phone_number", "created", "modified", "text_status")  # differ between events, people


def _without_ids(event: dict) -> dict:
    """An event's JSON with what differs between any two events set aside (ids, times, the number, and what
    became of its text: ``not_sent`` as for a limit, see test_text_status.py)."""
    invitees = [{k: v for k, v in row.items() if k not in VARY} for row in event["invitees"]]
    return {**{k: v for k, v in event.items() if k not in (*VARY, "invitees")}, "invitees": invitees}


def auth_items() -> list:
    """Every item of the auth table (a test-only Scan)."""
    return list(AuthTable.scan())


def test_a_stopped_number_gets_no_invitation_text_from_anyone_and_the_page_says_so(client):
    number = phone()
    path = stopped_by_page(client, number)
    shown = text_of(page(client, f"{path}?stopped=1"))
    assert "this number gets no more invitation texts from Invites, from anyone" in shown
    assert len(texts_to(number)) == 1  # the first invitation's text only

    other_owner = make_person("Second Host")
    event = invite_by_text(client, other_owner, number, title="Dinner")
    assert len(texts_to(number)) == 1
    # the invitation was made all the same: the number is on the event, and the page of it opens
    assert number in [row["phone_number"] for row in event["invitees"]]
    detail = body(get(client, f"/events/{event['id']}", other_owner.token))
    assert number in [row["phone_number"] for row in detail["invitees"]]


def test_the_owner_cannot_tell_a_stopped_number_from_another(client):
    stopped, fresh = phone(), phone()
    stopped_by_page(client, stopped)
    owner = make_person("Olive Owner")
    fields = {"title": "Picnic", "event_date": "2030-06-01T18:30:00Z"}
    answers = [
        post_json(client, "/events", {**fields, "invite_phone_numbers": [number]}, owner.token)
        for number in (stopped, fresh)
    ]
    assert [answer.status_code for answer in answers] == [201, 201]
    assert _without_ids(answers[0].json_body) == _without_ids(answers[1].json_body)
    assert len(texts_to(fresh)) == 1 and len(texts_to(stopped)) == 1  # the fresh one texted, the stopped not
    # the host sees the stopped number's text as not sent, as any text a limit or the budget kept back
    assert [row["text_status"] for row in answers[0].json_body["invitees"]] == [None, "not_sent"]

    # adding the numbers to an existing event: the same answer again
    edits = []
    for number in (stopped, fresh):
        created = post_json(client, "/events", fields, owner.token).json_body
        change = {"invite_phone_numbers": [number]}
        edits.append(post_json(client, f"/events/{created['id']}", change, owner.token, method="PATCH"))
    assert [edit.status_code for edit in edits] == [200, 200]
    assert _without_ids(edits[0].json_body) == _without_ids(edits[1].json_body)
    assert len(texts_to(fresh)) == 2 and len(texts_to(stopped)) == 1


def test_the_stop_list_holds_a_keyed_hash_never_the_number(client):
    number = phone()
    stopped_by_page(client, number)
    stored = [item for item in auth_items() if isinstance(item, StoppedNumber)]
    assert len(stored) == 1 and stored[0].source == "page"
    everything = repr(stored[0].serialize())  # (rate counters elsewhere in the table name numbers; they expire)
    assert number not in everything and number[1:] not in everything and number[2:] not in everything
    # keyed: the plain SHA-256 of the number is not it either
    assert hashlib.sha256(number.encode()).hexdigest() not in everything
    assert stored[0].pk == f"STOP#{stop_list.number_hash(number)}"
    assert stop_list.number_hash(number) != hmac.new(b"", number.encode(), hashlib.sha256).hexdigest()
    assert stored[0].pk.removeprefix("STOP#") not in stop_list.number_hash(phone())  # one hash per number


def test_a_pin_the_person_asks_for_is_still_sent(client):
    number = phone()
    stopped_by_page(client, number)
    response = post_json(client, "/auth", {"phone_number": number})
    assert response.status_code == 204
    assert "pin is" in texts_to(number)[-1] and last_pin(number)


def test_stopping_needs_the_pages_form_token_and_origin(client):
    number = phone()
    invite_by_text(client, make_person("Host"), number)
    path = link_texted_to(number)
    forged = post_form(client, f"{path}/stop", {"csrf": "1.deadbeef"})
    assert forged.status_code == 403
    assert "This form was open too long, so nothing changed. Press the button again." in text_of(forged)
    cross_site = press_stop(client, path, headers={"Sec-Fetch-Site": "cross-site"})
    assert cross_site.status_code == 403
    other_origin = press_stop(client, path, headers={"Origin": "https://evil.example"})
    assert other_origin.status_code == 403
    assert stop_list.stopped([number]) == set()
    invite_by_text(client, make_person("Another Host"), number)
    assert len(texts_to(number)) == 2  # still texted


def test_an_unknown_code_cannot_stop_anything(client):
    response = post_form(client, "/i/" + "A" * 32 + "/stop", {"csrf": "1.x"})
    assert response.status_code == 404
    assert not [item for item in auth_items() if isinstance(item, StoppedNumber)]


def test_a_stopped_guest_promoted_from_the_waitlist_is_seated_without_a_text(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    created = invite_by_text(client, alice, phone(903), total_spots=1, waitlist=True, invite_phone_numbers=[])
    event_id = created["id"]
    change = {"invite_phone_numbers": [bob.phone]}
    assert post_json(client, f"/events/{event_id}", change, alice.token, method="PATCH").status_code == 200
    assert post_json(client, f"/events/{event_id}/accept", {}, bob.token).status_code == 200
    number = phone()
    change = {"invite_phone_numbers": [number]}
    assert post_json(client, f"/events/{event_id}", change, alice.token, method="PATCH").status_code == 200
    path = link_texted_to(number)
    assert answer(client, path, "accept").status_code == 303  # in line
    assert press_stop(client, path).status_code == 303
    texted = len(texts_to(number))
    assert post_json(client, f"/events/{event_id}/reject", {}, bob.token).status_code == 200
    assert "You're going." in text_of(page(client, path))  # promoted
    assert len(texts_to(number)) == texted  # and not texted


def test_text_me_again_on_the_page_undoes_stop_texting_me(client):
    number = phone()
    path = stopped_by_page(client, number)
    shown = text_of(page(client, f"{path}?stopped=1"))
    assert ">Text me again</button>" in shown and STOP_BUTTON not in shown
    # without the page's token nothing changes
    assert post_form(client, f"{path}/start", {"csrf": "1.deadbeef"}).status_code == 403
    invite_by_text(client, make_person("Second Host"), number)
    assert len(texts_to(number)) == 1
    started = post_form(client, f"{path}/start", {"csrf": form_token(shown)})
    assert started.status_code == 303 and started.headers["Location"].endswith("?started=1")
    assert "invitation texts to this number are back on" in text_of(page(client, f"{path}?started=1"))
    invite_by_text(client, make_person("Third Host"), number)
    assert len(texts_to(number)) == 2 and "Third Host invited you" in texts_to(number)[-1]
