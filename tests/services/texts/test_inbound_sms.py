"""Replies by text: the SNS two-way SMS payload through app.py's handler, one test per keyword.

# GIVEN a person who got an invitation text and replies to it
# WHEN the reply reaches the inbound topic's function
# THEN STOP (and every standard opt-out word) stops invitation texts to the number, START/UNSTOP resume
#      them, HELP is answered with the service's name and support contact.
"""

from __future__ import annotations

import json

import pytest

from chalicelib.messaging import sms_sender
from chalicelib.services.texts import inbound_sms, stop_list
from tests.utils.api import texts_to
from tests.utils.factories import make_person, phone
from tests.utils.inbound_sms import sns_event
from tests.utils.web import invite_by_text

SERVICE_NUMBER = "+18885550123"


def reply(client, number: str, body: str) -> None:
    """``number`` texts ``body`` to the service, as two-way SMS publishes it."""
    from app import handle_inbound_sms

    payload = {
        "originationNumber": number,
        "destinationNumber": SERVICE_NUMBER,
        "messageKeyword": "KEYWORD_123456789012",
        "messageBody": body,
        "inboundMessageId": "cae173d2-66b9-564c-8309-21f858e9fb84",
        "previousPublishedMessageId": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    }
    handle_inbound_sms(sns_event(payload), None)


def texted_after_invite(client, number: str) -> bool:
    before = len(texts_to(number))
    invite_by_text(client, make_person("Host"), number)
    return len(texts_to(number)) > before


@pytest.mark.parametrize(
    "word",
    [
        "STOP",
        "stop",
        " Stop. ",
        "STOPALL",
        "UNSUBSCRIBE",
        "CANCEL",
        "END",
        "QUIT",
        "OPTOUT",
        "REVOKE",
        "Stop texting me",
        "ARRET",
        "arrêt",
        "Arrêt SVP",
    ],
)
def test_an_opt_out_word_stops_invitation_texts(client, word):
    number = phone()
    assert texted_after_invite(client, number)
    reply(client, number, word)
    assert stop_list.stopped([number]) == {number}
    assert not texted_after_invite(client, number)
    reply(client, number, word)  # delivered twice: the same
    assert stop_list.stopped([number]) == {number}


@pytest.mark.parametrize("word", ["START", "unstop"])
def test_start_and_unstop_resume_them(client, word):
    number = phone()
    reply(client, number, "STOP")
    assert not texted_after_invite(client, number)
    reply(client, number, word)
    assert stop_list.stopped([number]) == set()
    assert texted_after_invite(client, number)


def test_start_also_undoes_the_pages_stop_button(client):
    number = phone()
    stop_list.stop(number, stop_list.FROM_PAGE)
    reply(client, number, "START")
    assert texted_after_invite(client, number)


def test_help_is_answered_with_the_service_and_its_support_contact_from_the_number_written_to(
    client, override_settings, monkeypatch
):
    from chalicelib.messaging import sms_sender

    override_settings(service_name="Partyline", support_contact="help@partyline.example")
    sent = []
    original = sms_sender.send_sms
    monkeypatch.setattr(
        sms_sender, "send_sms", lambda *args, **options: (sent.append(options), original(*args, **options))
    )
    number = phone()
    reply(client, number, "help")
    (answer,) = texts_to(number)
    assert answer.startswith("Partyline: ") and "help@partyline.example" in answer
    assert answer.endswith("Msg&data rates may apply. Reply STOP to opt out.")
    assert [options["origination"] for options in sent] == [SERVICE_NUMBER]
    assert stop_list.stopped([number]) == set()


ENGLISH_HELP = (
    "Partyline: event invitations by text. Help: help@partyline.example. "
    "Msg&data rates may apply. Reply STOP to opt out."
)
FRENCH_HELP = (
    "Partyline : invitations à des événements par SMS. Aide : help@partyline.example. "
    "Des frais de SMS et de données peuvent s'appliquer. Désinscription : STOP."
)


@pytest.mark.parametrize(("word", "expected"), [("AIDE", FRENCH_HELP), ("aide", FRENCH_HELP), ("Help?", ENGLISH_HELP)])
def test_help_in_french_is_answered_too_in_french(client, override_settings, word, expected):
    override_settings(service_name="Partyline", support_contact="help@partyline.example")
    number = phone()
    reply(client, number, word)
    (answer,) = texts_to(number)
    assert answer == expected


def test_help_answers_go_on_past_80_percent_of_the_text_budget_and_stop_quietly_at_100(client, override_settings):
    # a HELP answer is a text somebody asked for: it may use the whole budget, and once that is spent the reply
    # is handled without an error (an error would have SNS deliver it again and again)
    override_settings(sms_monthly_segments=5)
    owner = make_person("Olive Owner")
    guests = [phone() for _ in range(5)]
    invite_by_text(client, owner, *guests)
    assert sum(len(texts_to(guest)) for guest in guests) == 4  # invitations: 80%
    first, second = phone(), phone()
    reply(client, first, "HELP")
    assert len(texts_to(first)) == 1
    reply(client, second, "HELP")
    assert texts_to(second) == []


def test_any_other_text_changes_nothing_and_sends_nothing(client):
    number = phone()
    for body in ("Thanks, see you there!", "Is it still on?", "", "SOTP"):  # STOPP is German for STOP
        reply(client, number, body)
    assert stop_list.stopped([number]) == set() and texts_to(number) == []


@pytest.mark.parametrize(
    "message",
    [
        "not json",
        "[1, 2]",
        json.dumps({"messageBody": "STOP"}),
        json.dumps({"originationNumber": "12345", "messageBody": "STOP"}),
        json.dumps({"originationNumber": "+14155550123", "messageBody": 7}),
    ],
)
def test_a_message_that_is_not_a_two_way_text_is_ignored(client, message):
    from app import handle_inbound_sms

    handle_inbound_sms(sns_event(message), None)
    assert stop_list.stopped(["+14155550123"]) == set()


def test_sns_down_while_answering_help_raises_so_lambda_retries(aws, fail_aws):
    fail_aws("sns", "Publish", "Throttling")
    with pytest.raises(sms_sender.SnsBusy):
        inbound_sms.handle(json.dumps({"originationNumber": phone(), "messageBody": "HELP"}))


STOP_WORDS_OF_EACH_LANGUAGE = ["BAJA", "Alto", "parar", "ARRÊT", "Stopp", "PARE", "Annulla", "הסר", "إيقاف", "إلغاء"]


@pytest.mark.parametrize("body", STOP_WORDS_OF_EACH_LANGUAGE)
def test_the_stop_words_of_each_language_stop_the_invitation_texts(client, body):
    number = phone()
    reply(client, number, body)
    assert stop_list.stopped([number]) == {number}
    assert not texted_after_invite(client, number)


def test_alta_starts_them_again(client):
    number = phone()
    reply(client, number, "BAJA")
    reply(client, number, "alta")
    assert stop_list.stopped([number]) == set() and texted_after_invite(client, number)


@pytest.mark.parametrize(
    ("number", "body", "expected"),
    [
        ("+12025550142", "AYUDA", "Invites: invitaciones a eventos por SMS."),
        ("+12025550143", "عون", None),
        ("+33612345678", "HELP", "Invites : invitations à des événements par SMS."),
        ("+966501234567", "مساعدة", "Invites: دعوات إلى المناسبات عبر الرسائل النصية."),
        ("+12025550144", "HELP", "Invites: event invitations by text."),
    ],
)
def test_help_is_answered_in_the_language_of_the_word_else_of_the_numbers_country(client, number, body, expected):
    reply(client, number, body)
    answers = texts_to(number)
    if expected is None:
        assert answers == []
        return
    (answer,) = answers
    assert answer.startswith(expected) and "STOP" in answer
