"""The guest page's answer form forgives: a refused submission comes back with everything the guest entered
(message, people brought, every answer), the refused field marked and tied to its error; a stale form token
gives a fresh form holding the same values; a guest of a full event can still decline."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from chalicelib.models.events import Invitation, event_pk, invitation_sk
from chalicelib.services.identity.users import find_user_by_phone
from chalicelib.services.web import guest_answers
from tests.utils.api import post_json
from tests.utils.factories import make_person, phone
from tests.utils.web import form_token, invite_by_text, link_texted_to, page, post_form, text_of

QUESTIONS = [
    {"text": "Plat principal / الطبق الرئيسي", "kind": "choice", "choices": ["Poisson", "سمك"], "required": True},
    {"text": "Allergies? 🥜", "kind": "text", "required": True},
]


def _invited(client, **fields) -> tuple[dict, str, str]:
    number = phone()
    event = invite_by_text(client, make_person("Hana Host"), number, **fields)
    return event, number, link_texted_to(number)


def _stored(event_id: int, number: str) -> Invitation:
    user = find_user_by_phone(number)
    return Invitation.get(event_pk(event_id), invitation_sk(user.id), consistent_read=True)


def _selected_guests(html: str) -> str | None:
    found = re.search(r'<option value="(\d+)" selected>', html)
    return found[1] if found else None


def _tag(html: str, pattern: str) -> str:
    found = re.search(pattern, html)
    assert found, pattern
    return found[0]


def test_a_refused_accept_keeps_every_value_and_marks_the_missing_answer(client):
    event, number, path = _invited(client, max_extra_guests=3, questions=QUESTIONS)
    opened = text_of(page(client, path))
    fields = {"csrf": form_token(opened), "message": "À bientôt ✨", "extra_guests": "2", "answer_q1": "سمك"}
    response = post_form(client, f"{path}/rsvp", {**fields, "answer": "accept"})  # the allergies left empty
    assert response.status_code == 400
    html = text_of(response)
    assert _selected_guests(html) == "2"
    assert _tag(html, r'<input type="radio" name="answer_q1" value="سمك"[^>]*>').count(" checked") == 1
    assert 'value="À bientôt ✨"' in html
    allergies = _tag(html, r'<input type="text" id="answer_q2"[^>]*>')
    assert 'aria-invalid="true"' in allergies and 'aria-describedby="answer_q2-error"' in allergies
    assert re.search(r'<p id="answer_q2-error" class="problem">[^<]+</p>', html)
    assert 'aria-invalid="true"' not in _tag(html, r'<input type="radio" name="answer_q1" value="Poisson"[^>]*>')
    assert _stored(event["id"], number).has_accepted is None
    # the form shown again posts where it should: completing it saves everything
    fields = {**fields, "csrf": form_token(html), "answer_q2": "Peanuts", "answer": "accept"}
    action = _tag(html, r'<form method="post" action="[^"]*/rsvp">')
    assert action == f'<form method="post" action="../{path.removeprefix("/i/")}/rsvp">'
    assert post_form(client, f"{path}/rsvp", fields).status_code == 303
    stored = _stored(event["id"], number)
    assert stored.has_accepted is True and stored.extra_guests == 2
    assert stored.answers == {"q1": "سمك", "q2": "Peanuts"} and stored.rsvp_message == "À bientôt ✨"


def test_a_message_too_long_is_marked_and_the_other_values_stay(client):
    event, number, path = _invited(client, max_extra_guests=3, questions=QUESTIONS)
    fields = {"csrf": form_token(text_of(page(client, path))), "message": "x" * 61, "extra_guests": "3"}
    html = text_of(post_form(client, f"{path}/rsvp", {**fields, "answer_q2": "None", "answer": "accept"}))
    message = _tag(html, r'<input type="text" id="message"[^>]*>')
    assert 'aria-invalid="true"' in message and 'aria-describedby="message-hint message-error"' in message
    assert _selected_guests(html) == "3" and 'value="None"' in html


def test_a_stale_form_token_shows_a_fresh_form_with_what_was_entered_and_no_reload(client):
    event, number, path = _invited(client, max_extra_guests=3, questions=QUESTIONS)
    guest_page = guest_answers.open_link(path.removeprefix("/i/"), "127.0.0.1")
    stale = guest_answers.form_token(guest_page, datetime.now(UTC).timestamp() - 86401)
    fields = {"message": "Hi", "extra_guests": "1", "answer_q1": "Poisson", "answer_q2": "Shellfish"}
    response = post_form(client, f"{path}/rsvp", {**fields, "csrf": stale, "answer": "accept"})
    assert response.status_code == 403
    html = text_of(response)
    assert "This form was open too long, so your answer was not sent. It is filled in below: send it again." in html
    assert "reload" not in html.lower()
    assert _selected_guests(html) == "1" and 'value="Shellfish"' in html and 'value="Hi"' in html
    assert " checked" in _tag(html, r'<input type="radio" name="answer_q1" value="Poisson"[^>]*>')
    # pressing Accept again on that form (its fresh token) saves the answer
    again = post_form(client, f"{path}/rsvp", {**fields, "csrf": form_token(html), "answer": "accept"})
    assert again.status_code == 303
    assert _stored(event["id"], number).answers == {"q1": "Poisson", "q2": "Shellfish"}


def test_an_accept_refused_because_the_event_filled_up_keeps_the_values_and_decline_is_taken(client):
    host, number, other = make_person("Hana Host"), phone(), make_person("Other Guest")
    event = invite_by_text(client, host, number, total_spots=1, max_extra_guests=2)
    path = link_texted_to(number)
    opened = text_of(page(client, path))
    # another guest takes the last spot while the page is open
    post_json(client, f"/events/{event['id']}", {"invite_phone_numbers": [other.phone]}, token=host.token)
    assert post_json(client, f"/events/{event['id']}/accept", {}, token=other.token).status_code == 200
    fields = {"csrf": form_token(opened), "message": "Can I come? 🙏", "extra_guests": "1", "answer": "accept"}
    response = post_form(client, f"{path}/rsvp", fields)
    assert response.status_code == 409
    html = text_of(response)
    assert 'value="Can I come? 🙏"' in html
    # full now: only Decline, and it is taken
    assert 'value="accept"' not in html and 'value="decline"' in html
    fields = {"csrf": form_token(html), "message": "Next time!", "answer": "decline"}
    assert post_form(client, f"{path}/rsvp", fields).status_code == 303
    stored = _stored(event["id"], number)
    assert stored.has_accepted is False and stored.rsvp_message == "Next time!"
