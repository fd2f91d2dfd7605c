"""The deletion pages (/account/delete) in the reader's language: start, refusals, pin, confirm, done and the
error pages, chosen as the guest page chooses and kept across each step's post.

# GIVEN a person with an account
# WHEN they delete it on the web in Spanish, Arabic or Hebrew, typing a wrong number and a wrong pin first
# THEN every step, refusal and error is in that language, and the account is deleted as in English
"""

from __future__ import annotations

from tests.utils.api import get, last_pin, login, post_json
from tests.utils.factories import phone
from tests.utils.page_forms import submit
from tests.utils.page_words import assert_frame_translated, html_lang, visible_text
from tests.utils.web import page, post_form, text_of

ME = "+14155550881"
FRAME = [
    "Delete your Invites account",
    "This deletes your profile, your events (their guests are told they are cancelled), your answers and messages in "
    "other people's events, your favorites and your photos. It cannot be undone.",
    "Your phone number",
    "With the country code, e.g. +1 415 555 0100. We text a pin to it.",
    "Text me a pin",
]
WORDS = {
    "es": ["Borrar tu cuenta de Invites", "No se puede deshacer.", "Tu número de teléfono", "Envíame un código"],
    "he": ["מחיקת החשבון שלך ב-Invites", "אי אפשר לבטל אותה.", "מספר הטלפון שלך", "שליחת קוד ב-SMS"],
    "ar": ["حذف حسابك في Invites", "لا يمكن التراجع عن ذلك.", "رقم هاتفك", "أرسل لي رمزًا"],
}


def test_the_first_step_is_in_the_language_asked_for_and_its_form_keeps_it(client):
    english = page(client, "/account/delete")
    for language, wanted in WORDS.items():
        shown = page(client, f"/account/delete?lang={language}")
        assert shown.status_code == 200 and html_lang(shown) == (language, "ltr" if language == "es" else "rtl")
        assert_frame_translated(english, shown, FRAME, wanted)
        assert f'<form method="post" action="delete/pin?lang={language}">' in text_of(shown)
        assert '<a href="delete?lang=en" hreflang="en"' in text_of(shown)
        assert f"lang={language};" in shown.headers["Set-Cookie"]
    assert "Set-Cookie" not in english.headers and '<html lang="en" dir="ltr">' in text_of(english)


def test_a_spanish_deletion_says_every_step_and_refusal_in_spanish_and_deletes_the_account(client):
    me = login(client, ME, full_name="Mia Me")
    opened = page(client, "/account/delete?lang=es")
    where, refused = submit(client, "/account/delete", opened, "phone_number", {"phone_number": "12"})
    assert where == "/account/delete/pin?lang=es" and refused.status_code == 400
    assert "Escribe un número de teléfono válido." in visible_text(refused)
    assert '<a href="../delete?lang=fr"' in text_of(refused)  # the switcher climbs back to the first step
    where, pin_page = submit(client, where, refused, "phone_number", {"phone_number": ME})
    assert pin_page.status_code == 200
    assert "Escribe tu código" in visible_text(pin_page) and ">Continuar</button>" in text_of(pin_page)
    wrong = "000000" if last_pin(ME) != "000000" else "111111"
    where, refused_pin = submit(client, where, pin_page, "pin", {"pin": wrong})
    assert where == "/account/delete/verify?lang=es" and refused_pin.status_code == 400
    assert "Código incorrecto." in visible_text(refused_pin) and "Invalid pin." not in visible_text(refused_pin)
    where, confirm = submit(client, where, refused_pin, "pin", {"pin": last_pin(ME)})
    shown = visible_text(confirm)
    assert "¿Borrar tu cuenta?" in shown and "Se borrará la cuenta del" in shown and "Borrar mi cuenta" in shown
    assert "Delete" not in shown and "undone" not in shown
    where, done = submit(client, where, confirm, "grant", {})
    assert where == "/account/delete/confirm?lang=es" and done.status_code == 200
    assert "Tu cuenta está borrada" in visible_text(done) and "deleted" not in visible_text(done)
    assert get(client, "/users/me", me["auth_token"]).status_code == 401


def test_no_account_and_a_stale_form_are_told_in_the_browsers_language(client, override_settings):
    arabic = {"Accept-Language": "ar"}
    opened = page(client, "/account/delete", arabic)
    assert html_lang(opened) == ("ar", "rtl")
    where, pin_page = submit(client, "/account/delete", opened, "phone_number", {"phone_number": "+14155550882"})
    _, nobody = submit(client, where, pin_page, "pin", {"pin": last_pin("+14155550882")})
    assert nobody.status_code == 200 and "لا يوجد حساب لهذا الرقم" in visible_text(nobody)
    override_settings(web_form_ttl_seconds=-61)
    _, stale = submit(client, "/account/delete", opened, "phone_number", {"phone_number": ME})
    assert stale.status_code == 403 and "بقيت هذه الصفحة مفتوحة مدة طويلة. حاول مرة أخرى." in visible_text(stale)


def test_the_deletion_error_pages_are_in_the_chosen_language(client):
    foreign = post_form(client, "/account/delete/pin", {}, {"Cookie": "lang=he", "Sec-Fetch-Site": "cross-site"})
    assert foreign.status_code == 403 and html_lang(foreign) == ("he", "rtl")
    shown = visible_text(foreign)
    assert "הדף היה פתוח זמן רב מדי" in shown and "אפשר להתחיל מחדש מהשלב הראשון." in shown
    assert "Start again" not in shown and '<a href="../delete?lang=en"' in text_of(foreign)


def test_a_pin_paused_by_the_months_text_budget_is_told_in_the_chosen_language(client, override_settings):
    override_settings(sms_monthly_segments=1)
    assert post_json(client, "/auth", {"phone_number": phone()}).status_code == 204  # the month's one segment
    opened = page(client, "/account/delete?lang=de")
    _, paused = submit(client, "/account/delete", opened, "phone_number", {"phone_number": phone()})
    assert paused.status_code == 503 and int(paused.headers["Retry-After"]) >= 1
    shown = visible_text(paused)
    assert "SMS sind pausiert" in shown and "SMS sind im Moment pausiert. Versuche es später noch einmal." in shown
    assert "Texts are paused" not in shown
