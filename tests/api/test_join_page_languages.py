"""The join page (/j/<code>) in the reader's language: its frame, its refusals and its pin step, chosen as the
guest page chooses (``?lang=``, the cookie, ``Accept-Language``, English), kept across each form's post; the
API's own JSON stays English.

# GIVEN an open event with a join link, its host named or not
# WHEN a person opens the link in Spanish, Hebrew or Arabic and joins, typing a wrong number and a wrong pin first
# THEN every page, refusal and error on the way is in that language, and the join is saved as in English
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from urllib.parse import urljoin

from chalicelib.services.hosting import events
from tests.utils.api import last_pin, post_json, texts_to
from tests.utils.factories import make_event, make_person
from tests.utils.page_forms import submit
from tests.utils.page_words import assert_frame_translated, html_lang, visible_text
from tests.utils.web import FROM_THE_PAGE, page, post_form, text_of

NEWCOMER = "+14155550871"
SATURDAY_NOON_MADRID = datetime(2030, 12, 14, 11, 0, tzinfo=UTC)
FRAME = [
    "Hosted by",
    "You join the guest list at once and get your own page to answer.",
    "Your name",
    "So the hosts know who is asking to join.",
    "Your phone number",
    "With the country code, e.g. +1 415 555 0100. We text a pin to it.",
    "Text me a pin",
]
WORDS = {
    "es": ["Organiza Dana Levi", "Tu nombre", "Tu número", "Envíame un código", "sábado, 14 de diciembre de 2030"],
    "he": ["מארחים: Dana Levi", "השם שלך", "מספר הטלפון שלך", "שליחת קוד ב-SMS", "יום שבת, 14 בדצמבר 2030"],
    "ar": ["المضيف: Dana Levi", "اسمك", "رقم هاتفك", "أرسل لي رمزًا", "السبت، 14 ديسمبر 2030"],
}


def _code(client, host_name: str = "Dana Levi") -> str:
    host = make_person(host_name)
    event = make_event(host, title="Cena 🎉", when=SATURDAY_NOON_MADRID, time_zone="Europe/Madrid")
    events.update_event(host.user, event.id, events.EventInput(join_mode="open"))
    url = post_json(client, f"/events/{event.id}/join_link", {}, host.token).json_body["url"]
    return url.rsplit("/j/", 1)[1]


def test_the_join_page_frame_is_in_the_language_asked_for_and_the_form_keeps_it(client):
    code = _code(client)
    english = page(client, f"/j/{code}")
    for language, wanted in WORDS.items():
        shown = page(client, f"/j/{code}?lang={language}")
        assert shown.status_code == 200
        assert html_lang(shown) == (language, "ltr" if language == "es" else "rtl")
        assert_frame_translated(english, shown, FRAME, wanted)
        assert f'<form method="post" action="{code}/pin?lang={language}">' in text_of(shown)
        assert f"lang={language};" in shown.headers["Set-Cookie"]
        assert f'<a href="{code}?lang=en" hreflang="en"' in text_of(shown)  # the switcher, plain links
    spanish = text_of(page(client, f"/j/{code}?lang=es"))
    preview = re.search(r'<meta property="og:description" content="([^"]*)">', spanish)
    assert preview and preview[1].endswith("Únete en esta página.")


def test_a_hebrew_join_refusals_pin_and_wrong_pin_are_hebrew_and_the_join_lands_on_a_hebrew_guest_page(client):
    code = _code(client)
    opened = page(client, f"/j/{code}?lang=he")
    where, refused = submit(client, f"/j/{code}", opened, "phone_number", {"full_name": "נועה", "phone_number": "12"})
    assert where == f"/j/{code}/pin?lang=he" and refused.status_code == 400
    assert html_lang(refused) == ("he", "rtl")
    assert "יש להזין מספר טלפון תקין." in visible_text(refused)
    assert "Enter a valid phone number." not in visible_text(refused)
    assert f'<a href="../{code}?lang=es"' in text_of(refused)  # the switcher climbs back to the join page
    where, pin_page = submit(client, where, refused, "phone_number", {"full_name": "נועה", "phone_number": NEWCOMER})
    assert pin_page.status_code == 200 and len(texts_to(NEWCOMER)) == 1
    shown = visible_text(pin_page)
    assert "הזנת הקוד" in shown and f"שלחנו קוד למספר {NEWCOMER}" in shown and "6 ספרות." in shown
    assert ">הצטרפות</button>" in text_of(pin_page) and "Enter your pin" not in shown and "Join" not in shown
    wrong = "000000" if last_pin(NEWCOMER) != "000000" else "111111"
    where, refused_pin = submit(client, where, pin_page, "pin", {"pin": wrong})
    assert where == f"/j/{code}/verify?lang=he" and refused_pin.status_code == 400
    assert "הקוד שגוי." in visible_text(refused_pin) and "Invalid pin." not in visible_text(refused_pin)
    _, joined = submit(client, where, refused_pin, "pin", {"pin": last_pin(NEWCOMER)})
    assert joined.status_code == 303 and joined.headers["Location"].endswith("?lang=he")
    guest_page = page(client, urljoin(f"/j/{code}/verify", joined.headers["Location"]))
    assert guest_page.status_code == 200 and html_lang(guest_page) == ("he", "rtl")


def test_a_refused_name_and_a_stale_form_are_told_in_the_browsers_language(client, override_settings):
    code = _code(client)
    arabic = {"Accept-Language": "ar-SA,ar;q=0.9,en;q=0.5"}
    opened = page(client, f"/j/{code}", arabic)
    assert html_lang(opened) == ("ar", "rtl") and "Set-Cookie" not in opened.headers
    fields = {"csrf": re.search(r'name="csrf" value="([^"]*)"', text_of(opened))[1], "full_name": "N"}
    refused = post_form(client, f"/j/{code}/pin", {**fields, "phone_number": NEWCOMER}, arabic)
    assert refused.status_code == 400 and "يجب ألا يقل هذا الحقل عن 2 أحرف." in visible_text(refused)
    override_settings(web_form_ttl_seconds=-61)
    stale = post_form(client, f"/j/{code}/pin", {**fields, "full_name": "Noa", "phone_number": NEWCOMER}, arabic)
    assert stale.status_code == 403
    assert "بقيت هذه الصفحة مفتوحة مدة طويلة. حاول مرة أخرى." in visible_text(stale)
    assert texts_to(NEWCOMER) == []


def test_a_host_without_a_name_and_an_unknown_link_are_in_the_readers_language(client):
    host = make_person("")
    event = make_event(host, title="Fiesta", when=SATURDAY_NOON_MADRID)
    events.update_event(host.user, event.id, events.EventInput(join_mode="open"))
    code = post_json(client, f"/events/{event.id}/join_link", {}, host.token).json_body["url"].rsplit("/j/", 1)[1]
    shown = visible_text(page(client, f"/j/{code}", {"Cookie": "lang=es"}))
    assert f"Organiza Tu anfitrión (número acabado en {host.phone[-4:]})" in shown and "Your host" not in shown
    missing = page(client, "/j/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", {"Cookie": "lang=es"})
    assert missing.status_code == 404 and "Este enlace no funciona" in visible_text(missing)
    foreign = post_form(client, f"/j/{code}/pin", {}, {"Cookie": "lang=he", "Sec-Fetch-Site": "cross-site"})
    assert foreign.status_code == 403 and html_lang(foreign) == ("he", "rtl")


def test_the_apis_join_answers_stay_english_whatever_the_browser_asks(client):
    host = make_person("Dana Levi")
    asking = {"Accept-Language": "es", "Cookie": "lang=es", **FROM_THE_PAGE}
    response = post_json(client, "/events/join", {"code": ""}, host.token, headers=asking)
    plain = post_json(client, "/events/join", {"code": ""}, host.token)
    assert response.status_code == plain.status_code == 400
    assert response.json_body == plain.json_body and "This field may not be blank." in str(response.json_body)
