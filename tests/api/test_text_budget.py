"""The month's text budget (SMS_MONTHLY_SEGMENTS) as people meet it: invitations stop at 80% while pins go on,
and past 100% asking for a pin answers 503 until the budget has room again."""

from __future__ import annotations

from collections import Counter

from chalicelib.messaging.sms_segments import segments
from tests.utils.api import body, login, post_json, texts_to
from tests.utils.factories import make_person, phone
from tests.utils.text_budget import throttle_the_budget_counter
from tests.utils.web import FROM_THE_PAGE, link_texted_to, page, post_form, text_of

PAUSED = {"detail": "Texts are paused for now. Try again later."}


def _ask_pin(client, number: str):
    return post_json(client, "/auth", {"phone_number": number})


def _segments_sent(*numbers: str) -> int:
    return sum(segments(text) for number in numbers for text in texts_to(number))


def test_invitations_stop_at_80_percent_while_pins_go_on_to_100(client, override_settings):
    override_settings(sms_monthly_segments=10)
    owner = make_person("Olive Owner")  # made without a pin: no text
    guests = [phone() for _ in range(10)]
    # WHEN one event invites ten numbers without an account (an invitation text is one segment here)
    response = post_json(
        client,
        "/events",
        {"title": "Picnic", "event_date": "2030-06-01T18:30:00Z", "invite_phone_numbers": guests},
        owner.token,
    )
    # THEN every invitation is made, and texts went out up to 80% of the budget only
    assert response.status_code == 201, response.body
    invited = {person["phone_number"] for person in body(response)["invitees"]}
    assert set(guests) <= invited
    texted = [number for number in guests if texts_to(number)]
    assert texted == guests[:8] and _segments_sent(*guests) == 8
    # a texted guest's page works
    assert page(client, link_texted_to(guests[0])).status_code == 200
    # and an invitation made now is not texted either, while it still is made
    late = phone()
    more = post_json(client, f"/events/{body(response)['id']}", {"invite_phone_numbers": [late]}, owner.token, "PATCH")
    assert more.status_code == 200 and texts_to(late) == []

    # WHEN people ask for pins: they go on to 100%
    first, second, third = phone(), phone(), phone()
    assert _ask_pin(client, first).status_code == 204 and len(texts_to(first)) == 1
    assert _ask_pin(client, second).status_code == 204 and len(texts_to(second)) == 1
    # THEN past 100%: 503 with Retry-After, no text, no pin kept
    paused = _ask_pin(client, third)
    assert paused.status_code == 503 and body(paused) == PAUSED
    assert 1 <= int(paused.headers["Retry-After"]) <= 3600
    assert texts_to(third) == []
    # nothing of the refused request counts: once the budget is raised, the same number logs in
    override_settings(sms_monthly_segments=20)
    assert login(client, third)["phone_number"] == third


def test_the_web_deletion_pin_is_paused_past_100_percent(client, override_settings):
    override_settings(sms_monthly_segments=1)
    someone = phone()
    assert _ask_pin(client, someone).status_code == 204
    opened = page(client, "/account/delete")
    csrf = text_of(opened).split('name="csrf" value="', 1)[1].split('"', 1)[0]
    answer = post_form(client, "/account/delete/pin", {"csrf": csrf, "phone_number": phone()}, FROM_THE_PAGE)
    assert answer.status_code == 503 and int(answer.headers["Retry-After"]) >= 1
    assert PAUSED["detail"] in text_of(answer)


def test_a_pin_costs_one_dynamodb_call_more_with_a_budget(client, aws, override_settings):
    # the budget is one conditional ADD per text (a one-item transaction: applied once if retried); none without
    assert _ask_pin(client, phone()).status_code == 204
    without = aws.of("dynamodb")
    override_settings(sms_monthly_segments=100)
    aws.reset()
    assert _ask_pin(client, phone()).status_code == 204
    assert aws.of("dynamodb") == without + Counter({"TransactWriteItems": 1})


def test_an_invitation_of_many_numbers_counts_the_budget_once(client, aws, override_settings):
    owner = make_person("Olive Owner")
    override_settings(sms_monthly_segments=1000)
    numbers = [phone() for _ in range(12)]
    aws.reset()
    response = post_json(
        client,
        "/events",
        {"title": "Picnic", "event_date": "2030-06-01T18:30:00Z", "invite_phone_numbers": numbers},
        owner.token,
    )
    assert response.status_code == 201 and all(texts_to(number) for number in numbers)
    with_budget = aws.of("dynamodb")["TransactWriteItems"]
    override_settings(sms_monthly_segments=0)
    others = [phone() for _ in range(12)]
    aws.reset()
    again = post_json(
        client,
        "/events",
        {"title": "Picnic", "event_date": "2030-06-01T18:30:00Z", "invite_phone_numbers": others},
        owner.token,
    )
    assert again.status_code == 201
    assert with_budget == aws.of("dynamodb")["TransactWriteItems"] + 1


def test_a_text_that_fails_costs_the_budget_nothing(client, fail_aws, override_settings):
    override_settings(sms_monthly_segments=1)
    fail_aws("sns", "Publish")
    number = phone()
    down = _ask_pin(client, number)
    assert down.status_code == 503 and body(down) != PAUSED  # SNS is down: the ordinary 503
    fail_aws("sns", "Publish", "")  # SNS is back
    assert login(client, number)["phone_number"] == number  # the one segment was given back


def test_a_throttled_budget_counter_answers_503_and_keeps_nothing(client, monkeypatch, override_settings):
    override_settings(sms_monthly_segments=100)
    failing = throttle_the_budget_counter(monkeypatch)
    number = phone()
    busy = _ask_pin(client, number)
    assert busy.status_code == 503 and int(busy.headers["Retry-After"]) > 0 and body(busy) != PAUSED
    assert texts_to(number) == []
    failing[0] = False  # DynamoDB is back: nothing of the failed request counts
    for _ in range(5):  # the number's whole allowance of pins is still there
        assert _ask_pin(client, number).status_code == 204


def test_invitations_stand_when_the_budget_cannot_be_counted(client, override_settings, monkeypatch):
    override_settings(sms_monthly_segments=100)
    throttle_the_budget_counter(monkeypatch)
    owner = make_person("Olive Owner")
    guest = phone()
    response = post_json(
        client,
        "/events",
        {"title": "Picnic", "event_date": "2030-06-01T18:30:00Z", "invite_phone_numbers": [guest]},
        owner.token,
    )
    assert response.status_code == 201 and guest in {p["phone_number"] for p in body(response)["invitees"]}
    assert texts_to(guest) == []  # not counted, so not sent
