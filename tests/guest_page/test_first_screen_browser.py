"""The guest page's first screen in headless Chromium, as a guest meets it on a phone: at 390x844, and at 320 px wide
with the browser's text at 200%, in English, Spanish, Hebrew and Arabic, with and without script. The title, when
and the answer buttons are within the first 844 px; a cancelled event or closed replies say so above them (and a
cancelled event shows no count); nothing scrolls sideways. The pages are the service's own answers (headers and
Content-Security-Policy included), served to the browser by the test client (tests/utils/page_server.py).

With ``GUEST_PAGE_SCREENSHOTS=docs`` the screenshots of docs/guest-page.md are written there too."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from chalicelib.services.hosting import events
from tests.api.test_plan_page import plan_link_of
from tests.api.test_plans import FRIEND, OWNER, make_plan
from tests.utils.api import login, post_json
from tests.utils.factories import make_event, make_person, phone, put
from tests.utils.page_server import serve_through
from tests.utils.web import PUBLIC_BASE, answer, invite_by_text, link_texted_to

SCREENS = {
    "390x844": ({"width": 390, "height": 844}, 16),
    "320-text-200": ({"width": 320, "height": 844}, 32),  # the browser's text size doubled (16 px -> 32 px)
}
FIRST_SCREEN = 844
LANGUAGES = {
    "english": ("Alice Smith", "Dinner on the roof for Sam's birthday", "The Roof", "1 Main St, Springfield"),
    "spanish": ("José Núñez", "Cena de cumpleaños en la azotea de Begoña", "Café Ñandú", "Calle Mayor 1, Logroño"),
    "hebrew": ("דנה כהן", "ערב משחקים ויום הולדת אצל דנה", "בית קפה הצפון", "רחוב הרצל 1, תל אביב"),
    "arabic": ("سارة العلي", "عيد ميلاد سعيد لسارة في الحديقة", "مقهى الشمال", "شارع الملك فهد، الرياض"),
}
RTL = {"hebrew", "arabic"}
NEWS = "Parking is behind the house, see https://example.org/parking-map-for-the-evening?floor=2&gate=north."
QUESTION = {"text": "Anything you can't eat?", "kind": "text"}


def _event(client, language: str, **fields) -> str:
    """An event of the language's host, title and place inviting a new number by text; its page's URL."""
    host_name, title, venue, address = LANGUAGES[language]
    number = phone()
    host = make_person(host_name)
    event = invite_by_text(
        client, host, number, title=title, venue_name=venue, address=address, total_spots=10, max_extra_guests=3,
        questions=[QUESTION], time_zone="Europe/Madrid", **fields,
    )  # fmt: skip
    said = post_json(client, f"/events/{event['id']}/announcements", {"text": NEWS}, host.token)
    assert said.status_code == 201
    return event, host, PUBLIC_BASE + link_texted_to(number)


def _open(chromium, client, url: str, screen: str, *, script: bool = True, dark: bool = False):
    viewport, text_px = SCREENS[screen]
    context = chromium.new_context(
        viewport=viewport, locale="en-US", timezone_id="America/New_York", java_script_enabled=script,
        color_scheme="dark" if dark else "light",
    )  # fmt: skip
    serve_through(context, client)
    tab = context.new_page()
    if text_px != 16:
        session = context.new_cdp_session(tab)
        session.send("Page.setFontSizes", {"fontSizes": {"standard": text_px, "fixed": text_px}})
    refused = []
    tab.on("console", lambda message: refused.append(message.text) if "Content Security" in message.text else 0)
    assert tab.goto(url).status == 200
    return tab, refused


def _box(tab, selector: str) -> dict:
    box = tab.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def _within_first_screen(tab, selector: str) -> dict:
    """The element's box, checked to lie wholly within the first screen."""
    for index in range(tab.locator(selector).count()):
        box = tab.locator(selector).nth(index).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= FIRST_SCREEN, (selector, box)
    return _box(tab, selector)


def _no_sideways_scroll(tab) -> None:
    widths = tab.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], widths


def _shoot(tab, tmp_path: Path, name: str) -> None:
    tab.screenshot(path=str(tmp_path / name))
    wanted = os.environ.get("GUEST_PAGE_SCREENSHOTS")
    if wanted:
        tab.screenshot(path=str(Path(wanted) / name))


@pytest.mark.browser
@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_first_screen_holds_the_title_when_and_the_answer_buttons(client, chromium, tmp_path, language, screen):
    _, _, url = _event(client, language)
    for script in (True, False):
        tab, refused = _open(chromium, client, url, screen, script=script)
        title = _within_first_screen(tab, "h1")
        when = _within_first_screen(tab, ".when")
        buttons = tab.locator("button[name=answer]")
        assert [buttons.nth(i).inner_text().strip("\u2713\u00a0") for i in range(buttons.count())] == [
            "Accept",
            "Maybe",
            "Decline",
        ]
        first_button = _within_first_screen(tab, "button[name=answer]")
        assert title["y"] < when["y"] < first_button["y"]
        assert _box(tab, "button[name=answer]")["height"] >= 44
        # the message, the people brought and the question follow the buttons, still in the same form
        assert _box(tab, "#message")["y"] > first_button["y"]
        assert tab.locator("form:has(button[value=accept]) #extra_guests").count() == 1
        assert tab.locator("form:has(button[value=accept]) .questions input").count() == 1
        direction = tab.evaluate("getComputedStyle(document.querySelector('h1')).direction")
        assert direction == ("rtl" if language in RTL else "ltr")
        _no_sideways_scroll(tab)
        assert refused == []  # the inline style and script ran under the page's policy
        if script:
            assert tab.locator(".when .yours").count() == 1  # the phone's own time, by the script
        name = f"first-screen-{language}-{screen}-{'script' if script else 'no-script'}.png"
        tab.screenshot(path=str(tmp_path / name))
        if script and screen == "390x844" and language in ("english", "hebrew"):
            _shoot(tab, tmp_path, "web-rsvp-page.png" if language == "english" else "web-rsvp-page-rtl.png")
        tab.context.close()


@pytest.mark.browser
@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_cancelled_event_or_closed_replies_say_so_first(client, chromium, tmp_path, language, screen):
    event, host, url = _event(client, language)
    _, _, paused_url = _event(client, language, replies_paused=True)
    tab, _ = _open(chromium, client, paused_url, screen)
    notice = _within_first_screen(tab, ".closed")
    assert tab.locator(".closed").inner_text().startswith("Replies are closed")
    assert notice["y"] + notice["height"] <= _box(tab, "h1")["y"]
    decline = _within_first_screen(tab, "button[name=answer]")
    assert tab.locator("button[name=answer]").count() == 1 and decline["y"] > notice["y"]
    _no_sideways_scroll(tab)
    tab.context.close()

    assert put(client, f"/events/{event['id']}/cancel_event", host.token).status_code == 204
    tab, _ = _open(chromium, client, url, screen)
    notice = _within_first_screen(tab, ".closed")
    assert tab.locator(".closed").inner_text() == "This event has been cancelled."
    assert notice["y"] + notice["height"] <= _box(tab, "h1")["y"]
    _within_first_screen(tab, "h1")
    assert tab.locator("button[name=answer]").count() == 0
    shown = tab.locator("main").inner_text()
    assert "going" not in shown.split("Your answer")[1] and "spots" not in shown  # no count, no spots
    _no_sideways_scroll(tab)
    if screen == "390x844" and language == "english":
        _shoot(tab, tmp_path, "web-rsvp-page-cancelled.png")
    tab.context.close()


LUMINANCE = "(r, g, b) => (r * 299 + g * 587 + b * 114) / 1000"  # a color's brightness, 0 to 255


def _shades(tab, selector: str) -> tuple[float, float]:
    """The brightness of the element's text and of its background."""
    return tuple(
        tab.evaluate(
            f"([selector, property]) => ({LUMINANCE})(...getComputedStyle(document.querySelector(selector))"
            "[property].match(/\\d+/g).slice(0, 3).map(Number))",
            [selector, name],
        )
        for name in ("color", "backgroundColor")
    )


@pytest.mark.browser
def test_dark_mode_follows_the_phone(client, chromium, tmp_path):
    _, _, url = _event(client, "english")
    shades = {}
    for dark in (False, True):
        tab, refused = _open(chromium, client, url, "390x844", dark=dark)
        shades[dark] = [_shades(tab, s) for s in ("body", "h1", "button.decline", "button.accept", "input#message")]
        assert refused == []
        if dark:
            _shoot(tab, tmp_path, "web-rsvp-page-dark.png")
        tab.context.close()
    light, dark = shades[False], shades[True]
    assert light[0][1] > 200 and dark[0][1] < 50  # the page's background: white, then nearly black
    assert light[1][0] < 60 and dark[1][0] > 200  # the title's ink follows
    for ink, paper in dark[:1] + dark[2:]:  # every pair with a background of its own stays readable in the dark
        assert abs(ink - paper) > 100, dark


@pytest.mark.browser
def test_words_without_spaces_and_long_links_wrap_on_a_small_screen_with_large_text(client, chromium, tmp_path):
    unbroken = "Geburtstagsüberraschungsfeier" * 3
    number = phone()
    host = make_person("Ann")
    event = invite_by_text(client, host, number, title=unbroken, venue_name="🎉" * 40, address=unbroken)
    link = "https://example.org/" + "a" * 200
    said = post_json(client, f"/events/{event['id']}/announcements", {"text": f"{unbroken[:80]} {link}"}, host.token)
    assert said.status_code == 201
    path = link_texted_to(number)
    assert answer(client, path, "accept", "ñ" * 60).status_code == 303  # the guest's own message, without a space
    tab, _ = _open(chromium, client, PUBLIC_BASE + path, "320-text-200")
    assert tab.input_value("#message") == "ñ" * 60 and "ñ" * 60 in tab.locator("#answer").inner_text()
    _no_sideways_scroll(tab)
    assert tab.get_by_role("link", name=link).get_attribute("rel") == "nofollow noopener"
    tab.screenshot(path=str(tmp_path / "unbroken-320-text-200.png"))


@pytest.mark.browser
def test_a_right_to_left_page_mirrors(client, chromium):
    """The layout is written in logical properties: a page marked right to left lays out from the right."""
    _, _, url = _event(client, "hebrew")
    tab, _ = _open(chromium, client, url, "390x844")
    tab.evaluate("document.documentElement.dir = 'rtl'")
    line = tab.evaluate(
        "() => { const s = getComputedStyle(document.querySelector('.announcements li'));"
        " return [s.borderRightWidth, s.borderLeftWidth, s.paddingRight, s.paddingLeft] }"
    )
    assert line[0] == "3px" and line[1] == "0px" and line[2] != "0px" and line[3] == "0px"
    term, detail = _box(tab, "dt"), _box(tab, "dd")
    assert term["x"] > detail["x"]  # the row's name on the right, its value to its left
    accept, decline = _box(tab, "button[value=accept]"), _box(tab, "button[value=decline]")
    assert accept["x"] > decline["x"]  # the first answer on the right
    _no_sideways_scroll(tab)


@pytest.mark.browser
def test_the_join_plan_and_series_pages_share_the_look(client, chromium, tmp_path):
    unbroken = "Cumpleañosdelaabuela" * 4
    host = make_person("José Núñez")
    event = make_event(host, title=unbroken)
    events.update_event(host.user, event.id, events.EventInput(join_mode="open", venue_name=unbroken))
    join = post_json(client, f"/events/{event.id}/join_link", {}, host.token).json_body["url"]
    owner = login(client, OWNER, full_name="Olive Owner")
    assert make_plan(client, owner, title=unbroken).status_code == 201
    number = phone()
    invite_by_text(client, host, number, title=unbroken, repeat={"freq": "weekly", "interval": 1, "count": 3})
    pages = {
        "join": PUBLIC_BASE + "/j/" + join.rsplit("/j/", 1)[1],
        "plan": PUBLIC_BASE + plan_link_of(FRIEND),
        "series": PUBLIC_BASE + link_texted_to(number),
    }
    for name, url in pages.items():
        for dark in (False, True):
            tab, refused = _open(chromium, client, url, "320-text-200", dark=dark)
            _no_sideways_scroll(tab)
            _within_first_screen(tab, "h1")
            assert (_shades(tab, "body")[1] < 50) is dark, name
            assert refused == []
            tab.screenshot(path=str(tmp_path / f"{name}-{'dark' if dark else 'light'}.png"))
            tab.context.close()


@pytest.mark.browser
@pytest.mark.parametrize("screen", list(SCREENS))
def test_three_answers_fit_the_first_screen_when_the_form_offers_maybe(client, chromium, screen):
    """The buttons' row as the page draws it (Accept, Maybe, Decline)."""
    _, _, url = _event(client, "spanish")
    tab, _ = _open(chromium, client, url, screen)
    boxes = [_within_first_screen(tab, f"button[value={value}]") for value in ("accept", "maybe", "decline")]
    assert all(box["height"] >= 44 for box in boxes)
    if screen == "390x844":
        assert len({box["y"] for box in boxes}) == 1  # side by side on a phone
    _no_sideways_scroll(tab)
