"""What a service refuses on the guest's page, said in the page's language: an answer to an event that filled
up or was cancelled since the form was opened. The app's JSON for the same refusal stays English."""

from __future__ import annotations

from tests.api.test_guest_page import invited, stored_invitation
from tests.utils.api import post_json
from tests.utils.factories import make_person, put
from tests.utils.page_words import visible_text
from tests.utils.web import form_token, page, post_form, text_of

SPANISH = {"Cookie": "lang=es"}


def test_an_accept_refused_because_the_event_filled_up_is_told_in_spanish(client):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    event, number, path = invited(client, alice, total_spots=1)
    opened = text_of(page(client, path, SPANISH))
    invite = {"invite_phone_numbers": [bob.phone, carol.phone]}
    post_json(client, f"/events/{event['id']}", invite, token=alice.token)
    assert post_json(client, f"/events/{event['id']}/accept", {}, token=bob.token).status_code == 200
    refused = post_form(client, f"{path}/rsvp", {"csrf": form_token(opened), "answer": "accept"}, SPANISH)
    assert refused.status_code == 409
    assert "Este evento está completo." in visible_text(refused) and "This event is full." not in text_of(refused)
    assert stored_invitation(event["id"], number).has_accepted is None
    in_the_app = post_json(client, f"/events/{event['id']}/accept", {}, token=carol.token, headers=SPANISH)
    assert in_the_app.status_code == 409 and in_the_app.json_body == {"detail": "This event is full."}


def test_an_answer_to_an_event_cancelled_meanwhile_is_told_in_hebrew(client):
    alice = make_person("Alice")
    event, _, path = invited(client, alice)
    opened = text_of(page(client, path, {"Cookie": "lang=he"}))
    assert put(client, f"/events/{event['id']}/cancel_event", alice.token).status_code == 204
    refused = post_form(client, f"{path}/rsvp", {"csrf": form_token(opened), "answer": "accept"}, {"Cookie": "lang=he"})
    assert refused.status_code == 409 and "This event has been cancelled." not in visible_text(refused)
