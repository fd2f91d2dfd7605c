"""Extra guests and the waitlist of a full event: fields, counts, places in line, promotion, notices,
and the DynamoDB calls of accept, decline and promotion whatever the length of the line."""

from __future__ import annotations

import json

import pytest

from chalicelib.config import get_settings
from chalicelib.messaging import sms_segments as sms
from chalicelib.models.events import WAIT_PREFIX, EventsTable, WaitlistEntry, event_pk, invitation_sk
from tests.utils.api import body, get, post_event, post_json, texts_to
from tests.utils.factories import make_event, make_person, phone, stored_event, table_items
from tests.utils.notifications import add_device, drain, pushes, run_queue, use_queue
from tests.utils.web import answer, form_token, invite_by_text, link_in, link_texted_to, page, post_form, text_of


def accept(client, person, event_id, **payload):
    return post_json(client, f"/events/{event_id}/accept", payload, token=person.token)


def reject(client, person, event_id):
    return post_json(client, f"/events/{event_id}/reject", {}, token=person.token)


def edit(client, owner, event_id, **fields):
    return post_json(client, f"/events/{event_id}", fields, token=owner.token, method="PATCH")


def detail(client, person, event_id):
    return body(get(client, f"/events/{event_id}", token=person.token))


def rows(client, owner, event_id) -> dict[int, dict]:
    return {row["user_id"]: row for row in detail(client, owner, event_id)["invitees"]}


def waiting_items(event_id: int) -> list[str]:
    return [item.sk for item in EventsTable.query(event_pk(event_id), EventsTable.sk.startswith(WAIT_PREFIX))]


# --------------------------------------------------------------------------- event fields


def test_new_fields_default_and_show_in_every_representation(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    created = body(post_event(client, alice, title="Picnic", invite_phone_numbers=[bob.phone]))
    assert created["max_extra_guests"] == 0 and created["waitlist"] is False
    assert created["invitees"][1]["extra_guests"] == 0 and created["invitees"][1]["waitlist_position"] is None
    event_id = created["id"]
    assert detail(client, alice, event_id)["waitlist"] is False
    listed = body(get(client, "/events", token=bob.token))["results"][0]
    assert listed["max_extra_guests"] == 0 and listed["invitations"][0]["waitlist_position"] is None
    timeline = body(get(client, "/events/timeline?type=received", token=bob.token))[0]
    assert timeline["waitlist"] is False and timeline["invitees"][1]["extra_guests"] == 0


def test_create_and_edit_take_the_fields(client):
    alice = make_person("Alice")
    created = body(post_event(client, alice, title="Picnic", max_extra_guests=3, waitlist=True))
    assert (created["max_extra_guests"], created["waitlist"]) == (3, True)
    edited = body(edit(client, alice, created["id"], max_extra_guests=0, waitlist=False))
    assert (edited["max_extra_guests"], edited["waitlist"]) == (0, False)
    assert stored_event(created["id"]).max_extra_guests == 0


@pytest.mark.parametrize(
    ("field", "value", "error"),
    [
        ("max_extra_guests", 11, "Ensure this value is less than or equal to 10."),
        ("max_extra_guests", -1, "Ensure this value is greater than or equal to 0."),
        ("max_extra_guests", "two", "A valid integer is required."),
        ("waitlist", "yes", "Must be a valid boolean."),
    ],
)
def test_bad_event_fields_are_400_and_store_nothing(client, field, value, error):
    alice = make_person("Alice")
    event = make_event(alice)
    before = table_items()
    response = post_event(client, alice, title="Picnic", **{field: value})
    assert response.status_code == 400 and body(response) == {field: [error]}
    response = edit(client, alice, event.id, **{field: value})
    assert response.status_code == 400 and body(response) == {field: [error]}
    assert table_items() == before


# --------------------------------------------------------------------------- extra guests


def test_extra_guests_take_spots_and_count_as_attendees(client):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    event = make_event(alice, bob, carol, total_spots=4, max_extra_guests=2)
    answer = body(accept(client, bob, event.id, extra_guests=2))
    assert answer["has_accepted_invite"] is True and answer["extra_guests"] == 2
    assert answer["waitlist_position"] is None
    shown = detail(client, alice, event.id)
    assert shown["spots_filled"] == 3 and shown["attendees_count"] == 4  # the owner, Bob and his two
    assert rows(client, alice, event.id)[bob.id]["extra_guests"] == 2
    # Carol with two more does not fit the one spot left: 409 as before, without a waitlist
    response = accept(client, carol, event.id, extra_guests=1)
    assert response.status_code == 409 and body(response) == {"detail": "This event is full."}
    # changing the number is another accept: Bob brings one, Carol and one fit
    assert body(accept(client, bob, event.id, extra_guests=1))["extra_guests"] == 1
    assert accept(client, carol, event.id, extra_guests=1).status_code == 200
    assert stored_event(event.id).spots_filled == 4
    # an accept without the field keeps the number given
    assert body(accept(client, bob, event.id, rsvp_message="still"))["extra_guests"] == 1
    assert reject(client, bob, event.id).status_code == 200
    assert stored_event(event.id).spots_filled == 2 and stored_event(event.id).accepted_count == 2


def test_extra_guests_above_the_events_maximum_is_400(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob, max_extra_guests=2)
    none_allowed = make_event(alice, bob)
    before = table_items()
    response = accept(client, bob, event.id, extra_guests=3)
    assert response.status_code == 400
    assert body(response) == {"extra_guests": ["Ensure this value is less than or equal to 2."]}
    response = accept(client, bob, none_allowed.id, extra_guests=1)
    assert body(response) == {"extra_guests": ["Ensure this value is less than or equal to 0."]}
    response = accept(client, bob, event.id, extra_guests=-1)
    assert body(response) == {"extra_guests": ["Ensure this value is greater than or equal to 0."]}
    assert table_items() == before


# --------------------------------------------------------------------------- the waitlist


def test_a_full_event_with_a_waitlist_puts_guests_in_line_in_arrival_order(client):
    alice = make_person("Alice")
    bob, carol, dave = make_person("Bob"), make_person("Carol"), make_person("Dave")
    event = make_event(alice, bob, carol, dave, total_spots=1, waitlist=True)
    assert accept(client, bob, event.id).status_code == 200
    first = accept(client, carol, event.id, rsvp_message="please")
    assert first.status_code == 200
    assert body(first)["has_accepted_invite"] is None and body(first)["waitlist_position"] == 1
    assert body(first)["rsvp_message"] == "please"
    assert body(accept(client, dave, event.id))["waitlist_position"] == 2
    shown = rows(client, alice, event.id)
    assert [shown[p.id]["waitlist_position"] for p in (bob, carol, dave)] == [None, 1, 2]
    assert shown[carol.id]["is_attending"] is None
    assert detail(client, carol, event.id)["i_am_attending"] is False
    listed = body(get(client, "/events", token=alice.token))["results"][0]["invitations"]
    assert {row["user_id"]: row["waitlist_position"] for row in listed} == {bob.id: None, carol.id: 1, dave.id: 2}
    assert stored_event(event.id).spots_filled == 1 and len(waiting_items(event.id)) == 2
    # accepting again while waiting keeps the place
    assert body(accept(client, carol, event.id))["waitlist_position"] == 1


def test_a_decline_promotes_the_next_party_and_tells_them(client, override_settings):
    url = use_queue(override_settings)
    alice = make_person("Alice")
    bob, carol, dave = make_person("Bob"), make_person("Carol"), make_person("Dave")
    event = make_event(alice, bob, carol, dave, total_spots=1, waitlist=True)
    arn = add_device(carol, "c" * 64)
    accept(client, bob, event.id)
    accept(client, carol, event.id)
    accept(client, dave, event.id)
    drain(url)
    assert reject(client, bob, event.id).status_code == 200
    shown = rows(client, alice, event.id)
    assert shown[carol.id]["is_attending"] is True and shown[carol.id]["waitlist_position"] is None
    assert shown[dave.id]["waitlist_position"] == 1
    assert stored_event(event.id).spots_filled == 1 and stored_event(event.id).waiting_count == 1
    assert pushes(arn) == []
    run_queue(client, url)
    assert len(pushes(arn)) == 1 and "A spot opened" in json.dumps(pushes(arn)[0])


def test_the_head_of_the_line_is_never_passed_over(client):
    alice = make_person("Alice")
    bob, carol, dave = make_person("Bob"), make_person("Carol"), make_person("Dave")
    event = make_event(alice, bob, carol, dave, total_spots=3, waitlist=True, max_extra_guests=3)
    accept(client, bob, event.id, extra_guests=2)
    assert body(accept(client, carol, event.id, extra_guests=2))["waitlist_position"] == 1
    assert body(accept(client, dave, event.id))["waitlist_position"] == 2
    # one spot opens: Carol's party of three does not fit, and Dave waits behind her
    accept(client, bob, event.id, extra_guests=1)
    shown = rows(client, alice, event.id)
    assert shown[carol.id]["waitlist_position"] == 1 and shown[dave.id]["waitlist_position"] == 2
    # Carol comes alone: she fits, and takes the spot
    answer = body(accept(client, carol, event.id, extra_guests=0))
    assert answer["has_accepted_invite"] is True and answer["waitlist_position"] is None
    assert rows(client, alice, event.id)[dave.id]["waitlist_position"] == 1


def test_a_bigger_total_promotes_in_order_while_parties_fit(client):
    alice = make_person("Alice")
    guests = [make_person(f"G{n}") for n in range(5)]
    event = make_event(alice, *guests, total_spots=2, waitlist=True, max_extra_guests=1)
    accept(client, guests[0], event.id)
    for guest in guests[1:]:
        accept(client, guest, event.id, extra_guests=1)
    edited = body(edit(client, alice, event.id, total_spots=6))
    places = {row["user_id"]: (row["is_attending"], row["waitlist_position"]) for row in edited["invitees"]}
    assert [places[g.id] for g in guests] == [(True, None), (True, None), (True, None), (None, 1), (None, 2)]
    assert edited["spots_filled"] == 5


def test_a_waiting_guest_who_declines_leaves_the_line(client):
    alice = make_person("Alice")
    bob, carol, dave = make_person("Bob"), make_person("Carol"), make_person("Dave")
    event = make_event(alice, bob, carol, dave, total_spots=1, waitlist=True)
    accept(client, bob, event.id)
    accept(client, carol, event.id)
    accept(client, dave, event.id)
    answer = body(reject(client, carol, event.id))
    assert answer["has_accepted_invite"] is False and answer["waitlist_position"] is None
    assert rows(client, alice, event.id)[dave.id]["waitlist_position"] == 1
    assert stored_event(event.id).waiting_count == 1 and len(waiting_items(event.id)) == 1


def test_a_promoted_guest_without_an_account_is_texted_a_link_to_their_page(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    created = invite_by_text(client, alice, phone(901), total_spots=1, waitlist=True, invite_phone_numbers=[])
    event_id = created["id"]
    edit(client, alice, event_id, invite_phone_numbers=[bob.phone])
    accept(client, bob, event_id)
    edit(client, alice, event_id, invite_phone_numbers=[phone(901)])
    path = link_texted_to(phone(901))
    html = text_of(page(client, path))
    assert "accepting puts you on the waitlist" in html and "Accept" in html
    assert answer(client, path, "accept").status_code == 303
    assert "You're on the waitlist: number 1 in line." in text_of(page(client, path))
    texted = len(texts_to(phone(901)))
    assert reject(client, bob, event_id).status_code == 200
    texts = texts_to(phone(901))
    assert len(texts) == texted + 1 and "You're in!" in texts[-1] and "Alice" in texts[-1]
    assert sms.segments(texts[-1]) <= get_settings().invite_sms_max_segments
    new_path = link_in(texts[-1])
    assert new_path != path
    assert "You're going." in text_of(page(client, new_path))
    assert "You're going." in text_of(page(client, path))  # the first link still opens the page


def test_the_page_offers_the_extra_guests_choice_and_takes_it(client):
    alice = make_person("Alice")
    created = invite_by_text(client, alice, phone(902), total_spots=5, max_extra_guests=2)
    path = link_texted_to(phone(902))
    html = text_of(page(client, path))
    assert '<select id="extra_guests" name="extra_guests">' in html and '<option value="2">' in html
    opened = text_of(page(client, path))
    fields = {"csrf": form_token(opened), "message": "", "answer": "accept", "extra_guests": "2"}
    assert post_form(client, f"{path}/rsvp", fields).status_code == 303
    assert "You're going. You bring 2 guests." in text_of(page(client, path))
    assert stored_event(created["id"]).spots_filled == 3
    fields = {"csrf": form_token(opened), "message": "", "answer": "accept", "extra_guests": "3"}
    assert post_form(client, f"{path}/rsvp", fields).status_code == 400
    assert stored_event(created["id"]).spots_filled == 3
    no_choice = invite_by_text(client, alice, phone(903), total_spots=5)
    assert "extra_guests" not in text_of(page(client, link_texted_to(phone(903))))
    assert no_choice["max_extra_guests"] == 0


def test_a_promotion_cut_short_by_throttling_is_503_and_the_retried_decline_finishes_it(client, fail_aws):
    alice = make_person("Alice")
    bob, carol = make_person("Bob"), make_person("Carol")
    event = make_event(alice, bob, carol, total_spots=1, waitlist=True)
    accept(client, bob, event.id)
    accept(client, carol, event.id)
    fail_aws("dynamodb", "Query")  # the read of the head of the line
    response = reject(client, bob, event.id)
    assert response.status_code == 503 and "Retry-After" in response.headers
    fail_aws("dynamodb", "Query", "")
    stored = stored_event(event.id)
    assert stored.spots_filled == 0 and stored.waiting_count == 1  # the decline stands, nobody seated yet
    assert reject(client, bob, event.id).status_code == 200
    shown = rows(client, alice, event.id)
    assert shown[carol.id]["is_attending"] is True and shown[carol.id]["waitlist_position"] is None
    assert stored_event(event.id).spots_filled == 1


def _close_account(client, person):
    response = client.http.request("DELETE", "/users/me", headers={"Authorization": f"Bearer {person.token}"})
    assert response.status_code == 204


def test_a_deleted_guest_gives_the_party_s_spots_to_the_line(client):
    alice = make_person("Alice")
    bob, carol, dave = make_person("Bob"), make_person("Carol"), make_person("Dave")
    event = make_event(alice, bob, carol, dave, total_spots=2, waitlist=True, max_extra_guests=1)
    accept(client, bob, event.id, extra_guests=1)
    accept(client, carol, event.id, extra_guests=1)
    accept(client, dave, event.id)
    _close_account(client, bob)  # without a queue the cascade runs in the request
    shown = rows(client, alice, event.id)
    assert bob.id not in shown and shown[carol.id]["is_attending"] is True
    assert shown[dave.id]["waitlist_position"] == 1  # Dave waits behind nobody, but 2 spots are taken
    stored = stored_event(event.id)
    assert (stored.spots_filled, stored.accepted_count, stored.waiting_count) == (2, 2, 1)


def test_a_deleted_waiting_guest_leaves_the_line_whole(client):
    alice = make_person("Alice")
    bob, carol, dave = make_person("Bob"), make_person("Carol"), make_person("Dave")
    event = make_event(alice, bob, carol, dave, total_spots=1, waitlist=True)
    accept(client, bob, event.id)
    accept(client, carol, event.id)
    accept(client, dave, event.id)
    _close_account(client, carol)
    assert rows(client, alice, event.id)[dave.id]["waitlist_position"] == 1
    assert stored_event(event.id).waiting_count == 1 and len(waiting_items(event.id)) == 1


# --------------------------------------------------------------------------- calls, whatever the line


def _full_event_with_line(client, waiting: int):
    alice, bob = make_person("Alice"), make_person("Bob")
    guests = [make_person(f"W{n}") for n in range(waiting + 1)]
    event = make_event(alice, bob, *guests, total_spots=1, waitlist=True)
    accept(client, bob, event.id)
    for guest in guests[:-1]:
        accept(client, guest, event.id)
    return bob, guests[-1], event


@pytest.mark.parametrize("waiting", [2, 12])
def test_joining_the_line_costs_the_same_calls_whatever_its_length(client, aws, override_settings, waiting):
    use_queue(override_settings)
    _, last, event = _full_event_with_line(client, waiting)
    aws.reset()
    assert body(accept(client, last, event.id))["waitlist_position"] == waiting + 1
    # auth; the invitation and META; the transaction; the COUNT of the line up to the new place
    assert aws.of("dynamodb") == {"BatchGetItem": 2, "TransactWriteItems": 1, "Query": 1}
    assert aws.of("dynamodb").get("Scan") is None


@pytest.mark.parametrize("waiting", [2, 12])
def test_a_decline_and_its_promotion_cost_the_same_calls_whatever_the_line(client, aws, override_settings, waiting):
    use_queue(override_settings)
    bob, _, event = _full_event_with_line(client, waiting)
    aws.reset()
    assert reject(client, bob, event.id).status_code == 200
    # auth; the invitation and META; the reply's transaction; META and the head of the line (Limit);
    # the promotion's transaction
    assert aws.of("dynamodb") == {"BatchGetItem": 2, "TransactWriteItems": 2, "GetItem": 1, "Query": 1}


def test_a_promotion_text_whose_checks_fail_is_sent_when_the_message_comes_back(client, override_settings, fail_aws):
    # the worker could not ask SNS's opt-out list (throttled): before, the text was dropped and its claim marked
    # sent, so the guest held a seat and never learned it; now the message fails and its redelivery texts them
    url = use_queue(override_settings)
    alice, bob = make_person("Alice"), make_person("Bob")
    event_id = invite_by_text(client, alice, phone(905), total_spots=1, waitlist=True, invite_phone_numbers=[])["id"]
    edit(client, alice, event_id, invite_phone_numbers=[bob.phone])
    accept(client, bob, event_id)
    edit(client, alice, event_id, invite_phone_numbers=[phone(905)])
    run_queue(client, url)
    assert answer(client, link_texted_to(phone(905)), "accept").status_code == 303
    run_queue(client, url)
    texted = len(texts_to(phone(905)))
    assert reject(client, bob, event_id).status_code == 200
    bodies = drain(url)
    assert any(json.loads(b)["type"] == "waitlist_promoted" for b in bodies)
    fail_aws("sns", "CheckIfPhoneNumberIsOptedOut")
    with pytest.raises(Exception, match="notification messages failed"):
        run_queue(client, url, bodies)
    assert len(texts_to(phone(905))) == texted
    fail_aws("sns", "CheckIfPhoneNumberIsOptedOut", None)  # SNS answers again: the message comes back
    run_queue(client, url, bodies)
    texts = texts_to(phone(905))
    assert len(texts) == texted + 1 and "You're in!" in texts[-1]
    run_queue(client, url, bodies)  # delivered once more: nobody is texted twice
    assert len(texts_to(phone(905))) == texted + 1


def test_a_promotion_text_whose_budget_cannot_be_counted_is_sent_by_its_retry(client, override_settings, monkeypatch):
    # the month's text budget could not be counted (DynamoDB throttled its counter): the text must not be dropped
    # with its claim marked sent; the text outbox tries it again from the queue, and it texts the guest once
    from chalicelib.jobs import queue_handler
    from chalicelib.services.identity.users import find_user_by_phone
    from chalicelib.services.texts import text_outbox
    from chalicelib.services.texts.text_outbox import TEXT_RETRY
    from tests.utils.text_budget import throttle_the_budget_counter

    url = use_queue(override_settings)
    override_settings(sms_monthly_segments=1000)
    alice, bob = make_person("Alice"), make_person("Bob")
    event_id = invite_by_text(client, alice, phone(906), total_spots=1, waitlist=True, invite_phone_numbers=[])["id"]
    edit(client, alice, event_id, invite_phone_numbers=[bob.phone])
    accept(client, bob, event_id)
    edit(client, alice, event_id, invite_phone_numbers=[phone(906)])
    run_queue(client, url)
    assert answer(client, link_texted_to(phone(906)), "accept").status_code == 303
    run_queue(client, url)
    texted = len(texts_to(phone(906)))
    assert reject(client, bob, event_id).status_code == 200
    bodies = drain(url)
    failing = throttle_the_budget_counter(monkeypatch)
    run_queue(client, url, bodies)  # handled: the text waits for its retry (30 s later in SQS)
    assert len(texts_to(phone(906))) == texted
    failing[0] = False  # DynamoDB answers again: the retry comes
    guest = find_user_by_phone(phone(906))
    key = text_outbox.Text("waitlist_promoted", str(event_id), event_id, guest.id, "", "", None).key
    queue_handler.process({"type": TEXT_RETRY, "id": "retry", "key": key})
    texts = texts_to(phone(906))
    assert len(texts) == texted + 1 and "You're in!" in texts[-1]
    queue_handler.process({"type": TEXT_RETRY, "id": "retry", "key": key})
    run_queue(client, url, bodies)  # both delivered once more: nobody is texted twice
    assert len(texts_to(phone(906))) == texted + 1


def test_a_party_bigger_than_the_event_is_409_and_never_joins_the_line(client):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    event = make_event(alice, bob, carol, total_spots=3, waitlist=True, max_extra_guests=5)
    before = table_items()
    response = accept(client, bob, event.id, extra_guests=5)
    assert response.status_code == 409 and body(response) == {"detail": "This event is full."}
    assert table_items() == before and waiting_items(event.id) == []
    # the next guest is seated, not put behind a party that can never fit
    answer = body(accept(client, carol, event.id))
    assert answer["has_accepted_invite"] is True and answer["waitlist_position"] is None
    # a party that fits may wait; growing it past the whole event is refused and keeps its place
    assert body(accept(client, bob, event.id, extra_guests=2))["waitlist_position"] == 1
    response = accept(client, bob, event.id, extra_guests=3)
    assert response.status_code == 409 and body(response) == {"detail": "This event is full."}
    assert rows(client, alice, event.id)[bob.id]["extra_guests"] == 2 and len(waiting_items(event.id)) == 1


def test_an_accept_without_extra_guests_keeps_the_number_after_the_maximum_drops(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    event = make_event(alice, bob, total_spots=10, max_extra_guests=3)
    assert body(accept(client, bob, event.id, extra_guests=3))["extra_guests"] == 3
    assert edit(client, alice, event.id, max_extra_guests=0).status_code == 200
    kept = accept(client, bob, event.id, rsvp_message="see you")
    assert kept.status_code == 200
    assert body(kept)["extra_guests"] == 3 and body(kept)["rsvp_message"] == "see you"
    assert stored_event(event.id).spots_filled == 4
    # a number sent must fit the new maximum
    response = accept(client, bob, event.id, extra_guests=1)
    assert body(response) == {"extra_guests": ["Ensure this value is less than or equal to 0."]}


def _removed_right_after_reading(monkeypatch, person=None):
    """The reply reads the invitation, then the deletion cascade takes the guest out of the event before
    the reply's transaction lands (``person``'s reply, or any reply when None)."""
    from chalicelib.store import account_deletion, invitations

    read = invitations.reply_state

    def read_then_removed(event_id, user_id):
        state = read(event_id, user_id)
        if (person is None or user_id == person.id) and state[0] is not None:
            account_deletion.leave_event(event_id, user_id)
        return state

    monkeypatch.setattr(invitations, "reply_state", read_then_removed)


@pytest.mark.parametrize("full", [False, True], ids=["seat", "line"])
def test_a_reply_to_an_invitation_removed_meanwhile_is_404_and_changes_nothing(client, monkeypatch, full):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    event = make_event(alice, bob, carol, total_spots=1, waitlist=True)
    if full:
        accept(client, carol, event.id)
    _removed_right_after_reading(monkeypatch, bob)
    response = accept(client, bob, event.id, rsvp_message="coming")
    assert response.status_code == 404
    stored = stored_event(event.id)
    assert (stored.spots_filled, stored.accepted_count, stored.waiting_count) == ((1, 1, 0) if full else (0, 0, 0))
    assert waiting_items(event.id) == []
    keys = {(item["pk"]["S"], item["sk"]["S"]) for item in table_items()}
    assert (event_pk(event.id), invitation_sk(bob.id)) not in keys  # not recreated without its fields


def test_a_smaller_total_takes_a_party_that_no_longer_fits_out_of_the_line_and_tells_it(client, override_settings):
    url = use_queue(override_settings)
    alice = make_person("Alice")
    bob, carol, dave = make_person("Bob"), make_person("Carol"), make_person("Dave")
    event = make_event(alice, bob, carol, dave, total_spots=4, waitlist=True, max_extra_guests=3)
    arn = add_device(carol, "d" * 64)
    accept(client, bob, event.id)
    assert body(accept(client, carol, event.id, extra_guests=3))["waitlist_position"] == 1
    assert body(accept(client, dave, event.id))["waitlist_position"] == 2  # behind Carol, 3 spots free
    drain(url)
    edited = body(edit(client, alice, event.id, total_spots=3))
    shown = {row["user_id"]: row for row in edited["invitees"]}
    assert (shown[carol.id]["is_attending"], shown[carol.id]["waitlist_position"]) == (False, None)
    assert shown[dave.id]["is_attending"] is True  # the line moved on
    stored = stored_event(event.id)
    assert (stored.spots_filled, stored.waiting_count) == (2, 0) and waiting_items(event.id) == []
    run_queue(client, url)
    assert len(pushes(arn)) == 1 and "off the waitlist" in json.dumps(pushes(arn)[0])
    # a smaller party may answer again
    assert body(accept(client, carol, event.id))["has_accepted_invite"] is True


def test_a_waiting_guest_without_an_account_taken_out_of_the_line_is_texted_their_page(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    created = invite_by_text(client, alice, phone(904), total_spots=3, waitlist=True, max_extra_guests=2)
    event_id = created["id"]
    edit(client, alice, event_id, invite_phone_numbers=[bob.phone])
    accept(client, bob, event_id, extra_guests=1)
    path = link_texted_to(phone(904))
    fields = {"csrf": form_token(text_of(page(client, path))), "message": "", "answer": "accept", "extra_guests": "2"}
    assert post_form(client, f"{path}/rsvp", fields).status_code == 303
    assert "number 1 in line" in text_of(page(client, path))
    texted = len(texts_to(phone(904)))
    assert edit(client, alice, event_id, total_spots=2).status_code == 200
    texts = texts_to(phone(904))
    assert len(texts) == texted + 1 and "off the waitlist" in texts[-1] and "Alice" in texts[-1]
    assert sms.segments(texts[-1]) <= get_settings().invite_sms_max_segments
    assert "in line" not in text_of(page(client, link_in(texts[-1])))


def test_waiting_parties_above_a_lowered_maximum_are_cut_to_it(client):
    alice = make_person("Alice")
    bob, carol, dave = make_person("Bob"), make_person("Carol"), make_person("Dave")
    event = make_event(alice, bob, carol, dave, total_spots=4, waitlist=True, max_extra_guests=3)
    accept(client, bob, event.id, extra_guests=3)  # seated: keeps his guests
    assert body(accept(client, carol, event.id, extra_guests=3))["waitlist_position"] == 1
    assert body(accept(client, dave, event.id, extra_guests=1))["waitlist_position"] == 2
    edited = body(edit(client, alice, event.id, max_extra_guests=0))
    shown = {row["user_id"]: row for row in edited["invitees"]}
    assert [(shown[p.id]["extra_guests"], shown[p.id]["waitlist_position"]) for p in (bob, carol, dave)] == [
        (3, None),
        (0, 1),
        (0, 2),
    ]
    line = WaitlistEntry.query(event_pk(event.id), WaitlistEntry.sk.startswith(WAIT_PREFIX))
    assert [int(item.extra_guests or 0) for item in line] == [0, 0]
    # spots open: Carol and Dave are seated with the number the maximum allows
    assert accept(client, bob, event.id, extra_guests=0).status_code == 200
    shown = rows(client, alice, event.id)
    assert [(shown[p.id]["is_attending"], shown[p.id]["extra_guests"]) for p in (carol, dave)] == [(True, 0)] * 2
    assert stored_event(event.id).spots_filled == 3


def test_a_page_answer_to_an_invitation_removed_meanwhile_changes_nothing(client, monkeypatch):
    alice = make_person("Alice")
    event_id = invite_by_text(client, alice, phone(906), total_spots=2)["id"]
    path = link_texted_to(phone(906))
    _removed_right_after_reading(monkeypatch)
    assert answer(client, path, "accept").status_code == 404
    stored = stored_event(event_id)
    assert (stored.spots_filled, stored.accepted_count, stored.waiting_count) == (0, 0, 0)
    keys = [(item["pk"]["S"], item["sk"]["S"]) for item in table_items()]
    assert [key for key in keys if key[0] == event_pk(event_id) and key[1].startswith("INV#")] == [
        (event_pk(event_id), invitation_sk(alice.id))
    ]
