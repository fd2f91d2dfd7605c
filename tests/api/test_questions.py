"""The event's questions (create and edit, ids kept), and the answers a guest gives on accepting."""

from __future__ import annotations

import pytest

from chalicelib.models.events import Invitation
from chalicelib.store.invitations import find_invitation
from tests.utils.api import body, get, post_event, post_json
from tests.utils.factories import make_event, make_person, stored_event

DIET = {"text": "Anything you don't eat?", "kind": "text"}
TOO_LONG = "Ensure this field has no more than 140 characters."
CHOICES = "Give between 2 and 6 choices."
ONCE = "Each choice may be given once."
MAIN = {"text": "Main course", "kind": "choice", "choices": ["Fish", "Veggie"], "required": True}


def edit(client, person, event_id, **fields):
    return post_json(client, f"/events/{event_id}", fields, token=person.token, method="PATCH")


def accept(client, person, event_id, **fields):
    return post_json(client, f"/events/{event_id}/accept", fields, token=person.token)


def detail(client, person, event_id) -> dict:
    return body(get(client, f"/events/{event_id}", token=person.token))


def rows(client, person, event_id) -> dict[int, dict]:
    return {row["user_id"]: row for row in detail(client, person, event_id)["invitees"]}


def asked_event(alice, *guests):
    event = make_event(alice, *guests, total_spots=10)
    return event


def test_questions_get_the_services_ids_and_edits_keep_them_and_their_answers(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    created = post_event(client, alice, title="Dinner", event_date="2031-05-01T19:00:00Z", questions=[DIET, MAIN])
    assert created.status_code == 201, created.body
    asked = body(created)["questions"]
    assert [q["id"] for q in asked] == ["q1", "q2"]
    assert asked[1] == {"id": "q2", "text": "Main course", "kind": "choice", "choices": ["Fish", "Veggie"],
                        "required": True}  # fmt: skip
    assert asked[0]["required"] is False and "choices" not in asked[0]
    event_id = body(created)["id"]
    edit(client, alice, event_id, invite_phone_numbers=[bob.phone])
    answered = accept(client, bob, event_id, answers={"q1": "No nuts", "q2": "Fish"})
    assert answered.status_code == 200, answered.body
    assert body(answered)["answers"] == {"q1": "No nuts", "q2": "Fish"}
    # the host rewords q2, drops q1 and adds one: q2 keeps its answer, the new one gets a fresh id
    new = {"text": "Bringing a dish?", "kind": "text"}
    edited = edit(client, alice, event_id, questions=[{**MAIN, "id": "q2", "text": "Main"}, new])
    assert edited.status_code == 200, edited.body
    assert [(q["id"], q["text"]) for q in body(edited)["questions"]] == [("q2", "Main"), ("q3", "Bringing a dish?")]
    assert rows(client, alice, event_id)[bob.id]["answers"] == {"q2": "Fish"}
    # an id never comes back: q1 sent again is a new question
    again = body(edit(client, alice, event_id, questions=[{**DIET, "id": "q1"}]))["questions"]
    assert [q["id"] for q in again] == ["q4"]


def test_a_missing_required_answer_or_a_wrong_choice_is_400_and_changes_nothing(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = asked_event(alice, bob)
    asked = body(edit(client, alice, event.id, questions=[DIET, MAIN]))["questions"]
    q1, q2 = (q["id"] for q in asked)
    response = accept(client, bob, event.id)
    assert response.status_code == 400 and body(response) == {"answers": {q2: ["This field is required."]}}
    response = accept(client, bob, event.id, answers={q2: "Beef", q1: "x" * 281})
    assert response.status_code == 400
    assert body(response) == {
        "answers": {q2: ['"Beef" is not a valid choice.'], q1: ["Ensure this field has no more than 280 characters."]}
    }
    response = accept(client, bob, event.id, answers={"q99": "hi", q2: "Fish"})
    assert response.status_code == 400 and list(body(response)["answers"]) == ["q99"]
    invitation = find_invitation(event.id, bob.id)
    assert invitation.has_accepted is None and invitation.answers is None
    assert stored_event(event.id).spots_filled == 0
    assert accept(client, bob, event.id, answers={q2: "Veggie"}).status_code == 200
    # accepting again keeps the answers already given
    assert body(accept(client, bob, event.id))["answers"] == {q2: "Veggie"}


def test_a_guest_sees_only_their_own_answers_and_hosts_see_every_row(client):
    alice, bob, carol, cody = make_person("Alice"), make_person("Bob"), make_person("Carol"), make_person("Cody")
    event = asked_event(alice, bob, carol, cody)
    find_invitation(event.id, cody.id).update(actions=[Invitation.cohost.set(True)])
    q = body(edit(client, alice, event.id, questions=[DIET]))["questions"][0]["id"]
    accept(client, bob, event.id, answers={q: "Vegan"})
    accept(client, carol, event.id, answers={q: "Gluten"})
    seen_by_bob = rows(client, bob, event.id)
    assert seen_by_bob[bob.id]["answers"] == {q: "Vegan"} and seen_by_bob[carol.id]["answers"] is None
    for host in (alice, cody):
        seen = rows(client, host, event.id)
        assert seen[bob.id]["answers"] == {q: "Vegan"} and seen[carol.id]["answers"] == {q: "Gluten"}
    listed = body(get(client, "/events", token=bob.token))["results"][0]["invitations"]
    assert {row["user_id"]: row["answers"] for row in listed}[carol.id] is None


@pytest.mark.parametrize(
    ("questions", "errors"),
    [
        ([{"text": ""}], {"questions": [{"text": ["This field may not be blank."]}]}),
        ([DIET, {"text": "x" * 141}], {"questions": [{}, {"text": [TOO_LONG]}]}),
        ([{"text": "Pick", "kind": "choice", "choices": ["One"]}], {"questions": [{"choices": [CHOICES]}]}),
        ([{"text": "Pick", "kind": "poll"}], {"questions": [{"kind": ['"poll" is not a valid choice.']}]}),
        # choices compare as people read them: NFC-normalised, case-folded, trimmed
        ([{"text": "Pick", "kind": "choice", "choices": ["Yes", "yes"]}], {"questions": [{"choices": {"1": [ONCE]}}]}),
        ([{"text": "Pick", "kind": "choice", "choices": ["Café", "CAFE\u0301 ", "STRASSE", "straße"]}],
         {"questions": [{"choices": {"1": [ONCE], "3": [ONCE]}}]}),
        ([{"text": "Pick", "kind": "choice", "choices": ["כן", " כן", "はい", "ハイ"]}],
         {"questions": [{"choices": {"1": [ONCE]}}]}),
        ([{"text": "Pick", "required": "yes"}], {"questions": [{"required": ["Must be a valid boolean."]}]}),
        ([DIET] * 6, {"questions": ["Ensure this field has no more than 5 elements."]}),
        ("Pick", {"questions": ['Expected a list of items but got type "str".']}),
    ],
)  # fmt: skip
def test_bad_questions_are_400_nested_by_position_and_store_nothing(client, questions, errors):
    alice = make_person("Alice")
    event = asked_event(alice)
    response = edit(client, alice, event.id, questions=questions)
    assert response.status_code == 400 and body(response) == errors
    assert stored_event(event.id).questions is None


def test_a_guest_may_not_edit_the_questions(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = asked_event(alice, bob)
    assert edit(client, bob, event.id, questions=[DIET]).status_code == 403
    assert stored_event(event.id).questions is None


def test_a_waiting_guest_answers_too_and_keeps_the_answers_when_seated(client):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    event = make_event(alice, bob, carol, total_spots=1, waitlist=True)
    q = body(edit(client, alice, event.id, questions=[MAIN]))["questions"][0]["id"]
    accept(client, bob, event.id, answers={q: "Fish"})
    assert accept(client, carol, event.id).status_code == 400  # in line or not, the required answer is asked
    waiting = body(accept(client, carol, event.id, answers={q: "Veggie"}))
    assert waiting["waitlist_position"] == 1 and waiting["answers"] == {q: "Veggie"}
    changed = body(accept(client, carol, event.id, answers={q: "Fish"}))
    assert changed["waitlist_position"] == 1 and changed["answers"] == {q: "Fish"}
    post_json(client, f"/events/{event.id}/reject", {}, token=bob.token)
    row = rows(client, alice, event.id)[carol.id]
    assert row["is_attending"] is True and row["answers"] == {q: "Fish"}
