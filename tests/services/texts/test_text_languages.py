"""Texts in each language: every template at the longest name and title keeps to its segments, in the
language's own words and date forms, and the name and title keep their first characters."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from chalicelib.languages.catalogues import available, words
from chalicelib.messaging import sms_segments as sms
from chalicelib.models.events import Event
from chalicelib.models.users import User
from chalicelib.services.texts import inbound_sms
from chalicelib.services.texts import invitation_texts as texts

DEPLOYED_LINK = "https://xxxx.execute-api.us-east-1.amazonaws.com/api/i/" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
MAX_NAME, MAX_TITLE = 256, 200
# A name and a title in each language's own script, as long as the API takes them.
SCRIPT = {
    "he": ("דנה לוי ", "מסיבת יום הולדת בגן "),
    "ar": ("ليلى حسن ", "حفلة عيد ميلاد في الحديقة "),
}
LATIN = ("Dana Levi ", "Birthday party in the park ")
SATURDAY_NOON_MADRID = datetime(2026, 12, 12, 11, 0, tzinfo=UTC)


def _longest(language: str) -> tuple[str, str]:
    name, title = SCRIPT.get(language, LATIN)
    return (name * 40)[:MAX_NAME], (title * 20)[:MAX_TITLE]


def _owner(name: str) -> User:
    return User(full_name=name, phone_number="+12025550111", id=1)


def _event(title: str) -> Event:
    return Event(title=title, event_date=SATURDAY_NOON_MADRID, is_time_specified=True, time_zone="Europe/Madrid")


TEMPLATES = {
    "invitation": lambda owner, event, said: texts.invitation_text(owner, event, DEPLOYED_LINK, said=said),
    "invitation without a link": lambda owner, event, said: texts.invitation_text(owner, event, said=said),
    "promotion": lambda owner, event, said: texts.promotion_text(owner, event, DEPLOYED_LINK, said),
    "drop": lambda owner, event, said: texts.dropped_text(owner, event, DEPLOYED_LINK, said),
}


@pytest.mark.parametrize("language", available())
@pytest.mark.parametrize("template", TEMPLATES)
def test_each_text_in_each_language_keeps_to_three_segments_and_the_name_and_title(aws, language, template):
    name, title = _longest(language)
    text = TEMPLATES[template](_owner(name), _event(title), words(language))
    assert sms.segments(text) <= 3, (sms.encoding(text), text)
    if sms.encoding(text) == "gsm" and template.startswith("invitation"):
        assert sms.segments(text) <= 2
    assert name[:10].rstrip() in text and title[:20].rstrip() in text
    assert text.startswith("Invites") and "STOP" in text


@pytest.mark.parametrize("language", available())
def test_the_help_answer_in_each_language_is_one_text_of_at_most_three_segments(aws, language, override_settings):
    override_settings(support_contact="help@invites.example")
    text = inbound_sms.help_text(words(language))
    assert sms.segments(text) <= 3 and "help@invites.example" in text and "STOP" in text


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", 'Invites: Dana invited you to "Lunch", Sat, Dec 12 at 12:00 PM CET.'),
        ("es", 'Invites: Dana te invita a "Lunch", sáb, 12 dic, 12:00 CET.'),
        ("fr", 'Invites : Dana vous invite à "Lunch", sam. 12 déc., 12:00 CET.'),
        ("de", 'Invites: Dana lädt dich zu "Lunch" ein, Sa., 12. Dez., 12:00 CET.'),
        ("pt-BR", 'Invites: Dana te convidou para "Lunch", sáb., 12 de dez. 12:00 CET.'),
        ("it", 'Invites: Dana ti invita a "Lunch", sab 12 dic 12:00 CET.'),
        ("he", 'Invites: הזמנה מאת Dana ל"Lunch", שבת, 12 בדצמ׳, 12:00 CET.'),
        ("ar", 'Invites: دعوة من Dana إلى "Lunch"، السبت، 12 ديسمبر، 12:00 م CET.'),
    ],
)
def test_an_invitation_says_the_date_in_the_languages_own_forms_in_the_events_zone(aws, language, expected):
    text = texts.invitation_text(_owner("Dana"), _event("Lunch"), DEPLOYED_LINK, said=words(language))
    assert text.startswith(expected)
    assert text.endswith(f"{DEPLOYED_LINK} {words(language)._(texts.STOP_WORDS)}")


SHORT_LINK = "https://inv.example/i/" + "x" * 41  # a stage of its own domain: 63 characters, as docs/deploy.md asks


@pytest.mark.parametrize("language", available())
def test_with_two_way_texting_an_invitation_asks_for_the_reply_in_each_language_within_its_segments(
    aws, language, override_settings
):
    override_settings(sms_two_way=True)
    name, title = _longest(language)
    said = words(language)
    text = texts.invitation_text(_owner(name), _event(title), SHORT_LINK, said=said)
    assert said._(texts.ANSWER_WORDS) in text and text.endswith(said._(texts.STOP_WORDS))
    assert sms.segments(text) <= (2 if sms.encoding(text) == "gsm" else 3), (sms.encoding(text), text)
    assert name[:10].rstrip() in text and title[:20].rstrip() in text
