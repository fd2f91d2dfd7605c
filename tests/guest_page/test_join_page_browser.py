"""/j/<code> as a person without the app uses it: `make run`'s local stack, a real headless Chromium on a
phone-sized screen. A right-to-left title reads right to left, nothing scrolls sideways, and name and number
(a refused number corrected on the page shown after it), pin, then the person's own guest page, where the host
sees the name."""

from __future__ import annotations

import pytest

from tests.utils.live_stack import LocalStack

OWNER, NEWCOMER = "+14155550172", "+14155550173"
PHONE_SCREEN = {"width": 390, "height": 844}
RTL_TITLE = "\u05de\u05e1\u05d9\u05d1\u05ea \u05d9\u05d5\u05dd \u05d4\u05d5\u05dc\u05d3\u05ea"  # a birthday party


@pytest.mark.e2e
def test_a_newcomer_joins_an_open_event_on_a_phone(chromium, tmp_path):
    with LocalStack() as stack:
        owner = stack.login(OWNER, full_name="Olivia Host")["auth_token"]
        created = stack.call("POST", "/events", owner, {"title": RTL_TITLE, "event_date": "2031-06-01T18:30:00Z"})
        event_id = created.json()["id"]
        assert stack.call("PATCH", f"/events/{event_id}", owner, {"join_mode": "open"}).status_code == 200
        url = stack.call("POST", f"/events/{event_id}/join_link", owner, {}).json()["url"]
        path = "/j/" + url.rsplit("/j/", 1)[1]

        context = chromium.new_context(viewport=PHONE_SCREEN)
        page = context.new_page()
        assert page.goto(stack.url(path)).status == 200
        heading = page.locator("h1")
        assert heading.inner_text() == RTL_TITLE
        assert heading.evaluate("element => getComputedStyle(element).direction") == "rtl"
        assert "Olivia Host" in page.locator(".host").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_SCREEN["width"]
        page.fill("#full_name", "Noa Newcomer")
        page.fill("#phone_number", "+1 415 555")  # a digit short: refused, then corrected on the page shown
        with page.expect_navigation():
            page.get_by_role("button", name="Text me a pin").click()
        assert page.locator("#phone_number").get_attribute("aria-invalid") == "true"
        assert page.input_value("#full_name") == "Noa Newcomer"
        page.fill("#phone_number", NEWCOMER)
        with page.expect_navigation():
            page.get_by_role("button", name="Text me a pin").click()
        assert page.locator("h1").inner_text() == "Enter your pin"
        page.fill("#pin", stack.last_pin(NEWCOMER))
        with page.expect_navigation():
            page.get_by_role("button", name="Join").click()
        assert "/i/" in page.url and page.locator("h1").inner_text() == RTL_TITLE
        assert page.get_by_role("button", name="Accept").count() == 1
        page.screenshot(path=str(tmp_path / "joined.png"), full_page=True)
        context.close()
        requests = stack.call("GET", f"/events/{event_id}/join_requests", owner)
        guests = stack.call("GET", f"/events/{event_id}", owner).json()["invitees"]
        assert requests.status_code == 200 and any(guest["full_name"] == "Noa Newcomer" for guest in guests), guests
