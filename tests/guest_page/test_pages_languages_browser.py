"""The join page, the deletion page and a plan's page in English, Spanish, Hebrew and Arabic in headless Chromium,
as a person meets them on a phone: at 390x844 and at 320 px with the browser's text at 200%, with and without
script. Each reads in its language and direction, its form and the form's button are within the first screen at
390x844, nothing scrolls sideways, and a form posted in a language answers in it (the browser sends no cookie
here: the form's own address keeps the language). The pages are the service's own answers
(tests/utils/page_server.py).

With ``GUEST_PAGE_SCREENSHOTS=docs`` the screenshots of docs/languages.md are written there too."""

from __future__ import annotations

import pytest

from chalicelib.services.hosting import events
from tests.api.test_plan_page import plan_link_of
from tests.api.test_plans import FRIEND, OWNER, make_plan
from tests.guest_page.test_first_screen_browser import (
    SCREENS,
    _no_sideways_scroll,
    _open,
    _shoot,
    _within_first_screen,
)
from tests.utils.api import login, post_json
from tests.utils.factories import future, make_event, make_person
from tests.utils.web import PUBLIC_BASE

# the language's direction, then the words of each page's button: join, delete, plan
LANGUAGES = {
    "en": ("ltr", "Text me a pin", "Text me a pin", "Save my answers"),
    "es": ("ltr", "Envíame un código", "Envíame un código", "Guardar mis respuestas"),
    "he": ("rtl", "שליחת קוד ב-SMS", "שליחת קוד ב-SMS", "שמירת התשובות"),
    "ar": ("rtl", "أرسل لي رمزًا", "أرسل لي رمزًا", "احفظ إجاباتي"),
}
TITLES = {
    "en": ("Alice Smith", "Dinner on the roof for Sam's birthday"),
    "es": ("José Núñez", "Cena de cumpleaños en la azotea de Begoña"),
    "he": ("דנה כהן", "ערב משחקים ויום הולדת אצל דנה"),
    "ar": ("سارة العلي", "عيد ميلاد سعيد لسارة في الحديقة"),
}
PAGES = ("join", "delete", "plan")
SCREENSHOTS = {("join", "he"), ("delete", "ar"), ("plan", "es")}  # those docs/languages.md shows


def _urls(client, language: str) -> dict[str, str]:
    host_name, title = TITLES[language]
    host = make_person(host_name)
    event = make_event(host, title=title, when=future(days=5), time_zone="Europe/Madrid")
    events.update_event(
        host.user, event.id, events.EventInput(join_mode="open", venue_name="Café Ñandú", address="Calle Mayor 1")
    )
    join = post_json(client, f"/events/{event.id}/join_link", {}, host.token).json_body["url"]
    owner = login(client, OWNER, full_name=host_name)
    assert make_plan(client, owner, title=title).status_code == 201
    return {
        "join": f"{PUBLIC_BASE}/j/{join.rsplit('/j/', 1)[1]}?lang={language}",
        "delete": f"{PUBLIC_BASE}/account/delete?lang={language}",
        "plan": f"{PUBLIC_BASE}{plan_link_of(FRIEND)}?lang={language}",
    }


@pytest.mark.browser
@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("language", list(LANGUAGES))
def test_each_page_reads_in_its_language_with_its_form_in_the_first_screen(client, chromium, tmp_path, language,
                                                                           screen):  # fmt: skip
    direction, *buttons = LANGUAGES[language]
    for name, url in _urls(client, language).items():
        for script in (True, False):
            tab, refused = _open(chromium, client, url, screen, script=script)
            assert tab.evaluate("[document.documentElement.lang, getComputedStyle(document.body).direction]") == [
                language, direction
            ]  # fmt: skip
            button = tab.locator("form button[type=submit]").first
            assert button.inner_text() == buttons[PAGES.index(name)]
            if screen == "390x844":
                _within_first_screen(tab, "form button[type=submit]")
                _within_first_screen(tab, "form input:not([type=hidden])")
            assert tab.locator("nav.languages a[aria-current=true]").get_attribute("lang") == language
            _no_sideways_scroll(tab)
            assert refused == []
            if script and screen == "390x844" and (name, language) in SCREENSHOTS:
                _shoot(tab, tmp_path, f"web-{name}-page-{language}.png")
            tab.context.close()


@pytest.mark.browser
def test_a_form_posted_in_hebrew_answers_in_hebrew_without_a_cookie(client, chromium):
    urls = _urls(client, "he")
    tab, _ = _open(chromium, client, urls["join"], "390x844")
    tab.fill("#full_name", "נועה")
    tab.fill("#phone_number", "12")
    with tab.expect_navigation():
        tab.get_by_role("button", name="שליחת קוד ב-SMS").click()
    assert tab.evaluate("document.documentElement.lang") == "he"
    assert tab.locator("#phone_number-error").inner_text() == "יש להזין מספר טלפון תקין."
    _no_sideways_scroll(tab)
    tab.context.close()
    tab, _ = _open(chromium, client, urls["plan"], "320-text-200")
    with tab.expect_navigation():
        tab.get_by_role("button", name="שמירת התשובות").click()
    assert tab.locator(".problem").inner_text() == "יש לבחור כן, אם אין ברירה או לא לפחות בתאריך אחד."
    assert tab.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["he", "rtl"]
    _no_sideways_scroll(tab)
    tab.context.close()
