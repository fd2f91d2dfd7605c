"""The guest's page in the guest's language: chosen by link, kept by a cookie and for the number's texts,
else the browser's; Hebrew and Arabic right to left; the API's own JSON stays English.

# GIVEN a number invited by text to an event in Madrid on Saturday 12 December 2026 at noon
# WHEN the guest opens the page with ?lang=, a cookie or a browser's Accept-Language
# THEN the page's frame, dates and errors are in that language, and later texts to the number follow it
"""

from __future__ import annotations

import re
from html import unescape

import pytest

from chalicelib.services.identity.users import find_user_by_phone
from tests.utils.api import get, texts_to
from tests.utils.aws_faults import on_the_wire, wire_error
from tests.utils.factories import make_person, phone
from tests.utils.web import answer, form_token, invite_by_text, link_texted_to, page, post_form, text_of

SATURDAY_NOON_MADRID = {"event_date": "2026-12-12T12:00:00+01:00", "time_zone": "Europe/Madrid", "title": "Cena"}
SPANISH_NUMBER = "+34612345678"
ISRAELI_NUMBER = "+972502345678"


def invited(client, number: str | None = None, **fields) -> tuple[str, str]:
    number = number or phone()
    owner = make_person("Dana Levi")
    invite_by_text(client, owner, number, **{**SATURDAY_NOON_MADRID, **fields})
    return number, link_texted_to(number)


def html_of(response) -> str:
    assert response.status_code == 200, response.body
    return text_of(response)


def test_lang_in_the_link_shows_the_page_in_spanish_with_its_own_date_forms_and_keeps_the_choice(client):
    number, path = invited(client)
    response = page(client, f"{path}?lang=es")
    html = html_of(response)
    assert '<html lang="es" dir="ltr">' in html
    assert "<dt>Anfitrión</dt>" in html and ">Aceptar</button>" in html and ">Rechazar</button>" in html
    assert "sábado, 12 de diciembre de 2026, 12:00 CET" in html
    assert "Dana Levi</span> te ha invitado" in html and '<h1 dir="auto">Cena</h1>' in html
    assert "lang=es;" in response.headers["Set-Cookie"] and "HttpOnly" in response.headers["Set-Cookie"]
    assert find_user_by_phone(number).language == "es"


def test_the_cookie_of_the_last_choice_wins_over_the_browser_and_english_is_the_default(client):
    _, path = invited(client)
    assert '<html lang="fr" dir="ltr">' in html_of(page(client, path, {"Cookie": "lang=fr", "Accept-Language": "de"}))
    german = html_of(page(client, path, {"Accept-Language": "de-AT,de;q=0.9,en;q=0.5"}))
    assert '<html lang="de" dir="ltr">' in german and "Samstag, 12. Dezember 2026" in german
    brazilian = html_of(page(client, path, {"Accept-Language": "pt-BR"}))
    assert '<html lang="pt-BR" dir="ltr">' in brazilian and ">Aceitar</button>" in brazilian
    english = html_of(page(client, path, {"Accept-Language": "ko-KR, *;q=0.1"}))
    assert '<html lang="en" dir="ltr">' in english and "Saturday, December 12, 2026 at 12:00 PM CET" in english
    assert "Set-Cookie" not in page(client, path).headers  # only a choice by link is kept


@pytest.mark.parametrize(("language", "when"), [("he", "יום שבת, 12 בדצמבר 2026"), ("ar", "السبت، 12 ديسمبر 2026")])
def test_hebrew_and_arabic_pages_read_right_to_left_and_peoples_words_keep_their_own_direction(client, language, when):
    _, path = invited(client, title="Dinner 🎉")
    html = html_of(page(client, f"{path}?lang={language}"))
    assert f'<html lang="{language}" dir="rtl">' in html and when in html
    assert '<h1 dir="auto">Dinner 🎉</h1>' in html and '<span dir="auto">Dana Levi</span>' in html


def test_every_page_has_a_switcher_of_plain_links_each_language_named_in_itself(client):
    _, path = invited(client)
    html = html_of(page(client, f"{path}?lang=he"))
    code = path.removeprefix("/i/")
    switcher = re.search(r'<nav class="languages" aria-label="([^"]*)"><ul>(.*?)</ul></nav>', html)
    assert switcher and unescape(switcher.group(1)) == "שפה"
    links = re.findall(
        r'<a href="([^"]*)" hreflang="([^"]*)" lang="[^"]*" dir="(ltr|rtl)">([^<]*)</a>', switcher.group(2)
    )
    assert {(href, tag, name) for href, tag, _, name in links} == {
        (f"{code}?lang=en", "en", "English"), (f"{code}?lang=es", "es", "Español"),
        (f"{code}?lang=fr", "fr", "Français"), (f"{code}?lang=de", "de", "Deutsch"),
        (f"{code}?lang=pt-BR", "pt-BR", "Português (Brasil)"), (f"{code}?lang=it", "it", "Italiano"),
        (f"{code}?lang=ar", "ar", "العربية"),
    }  # fmt: skip
    assert '<a aria-current="true" lang="he" dir="rtl">עברית</a>' in switcher.group(2)
    assert "<script" not in switcher.group(0)


def test_an_answer_and_a_refused_answer_are_told_in_the_chosen_language(client):
    _, path = invited(client)
    spanish = {"Cookie": "lang=es"}
    done = answer(client, path, "accept", headers=spanish)
    assert done.status_code == 303
    shown = html_of(page(client, f"{path}?answered=1", spanish))
    assert "¡Gracias! Tu respuesta está guardada." in shown and "Vas a ir." in shown
    token = form_token(shown)
    refused = post_form(client, f"{path}/rsvp", {"csrf": token, "message": "", "answer": "sometimes"}, spanish)
    assert refused.status_code == 400 and "Elige Aceptar o Rechazar." in text_of(refused)


def test_error_pages_are_in_the_chosen_language(client):
    missing = page(client, "/i/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", {"Accept-Language": "ar"})
    assert missing.status_code == 404
    html = text_of(missing)
    assert '<html lang="ar" dir="rtl">' in html and "هذا الرابط لا يعمل" in html


def test_the_api_answers_in_english_whatever_the_browser_asks(client):
    response = get(client, "/events/1", headers={"Accept-Language": "es", "Cookie": "lang=es"})
    assert response.json_body == {"detail": "Authentication credentials were not provided."}


def test_texts_follow_the_language_chosen_on_a_page_else_the_numbers_country(client):
    owner = make_person("Dana Levi")
    invite_by_text(client, owner, SPANISH_NUMBER, ISRAELI_NUMBER, **SATURDAY_NOON_MADRID)
    (spanish,) = texts_to(SPANISH_NUMBER)
    assert spanish.startswith('Invites: Dana Levi te invita a "Cena", sáb, 12 dic, 12:00 CET.')
    assert spanish.endswith("Baja: responde STOP.")
    (hebrew,) = texts_to(ISRAELI_NUMBER)
    assert hebrew.startswith('Invites: הזמנה מאת Dana Levi ל"Cena", שבת, 12 בדצמ׳, 12:00 CET.')
    american = phone()
    invite_by_text(client, owner, american, **SATURDAY_NOON_MADRID)
    assert texts_to(american)[0].endswith("Reply STOP to opt out.")
    page(client, f"{link_texted_to(american)}?lang=it")
    invite_by_text(client, owner, american, **{**SATURDAY_NOON_MADRID, "title": "Pranzo"})
    assert texts_to(american)[-1].startswith('Invites: Dana Levi ti invita a "Pranzo", sab 12 dic 12:00 CET.')


def test_the_calendar_entry_is_worded_in_the_chosen_language(client):
    _, path = invited(client)
    entry = text_of(page(client, f"{path}/event.ics", {"Cookie": "lang=de"}))
    unfolded = entry.replace("\r\n ", "")
    assert "DESCRIPTION:Antworte und sieh dir die Details auf deiner Einladungsseite an: http" in unfolded
    assert "SUMMARY:Cena" in unfolded
    english = text_of(page(client, f"{path}/event.ics")).replace("\r\n ", "")
    assert "DESCRIPTION:Answer and see the details on your invitation page: http" in english


@pytest.mark.parametrize("code", ["ProvisionedThroughputExceededException", "ThrottlingException"])
def test_a_throttled_keeping_of_the_choice_is_a_503_page_in_that_language_and_keeps_nothing(client, code):
    number, path = invited(client)
    fault = wire_error("dynamodb", "UpdateItem", code)

    def keeping_the_language(service: str, operation: str, body: bytes):  # the page's own counters go through
        return fault if (service, operation) == ("dynamodb", "UpdateItem") and b'"language"' in body else None

    with on_the_wire(keeping_the_language) as wire:
        response = page(client, f"{path}?lang=he")
    assert wire.faults  # the language's write was the one refused
    assert response.status_code == 503 and response.headers["Retry-After"]
    html = text_of(response)
    assert '<html lang="he" dir="rtl">' in html and "נא לנסות שוב" in html
    assert find_user_by_phone(number).language is None
