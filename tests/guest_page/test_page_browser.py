"""The guest's event page as a person uses it: `make run`'s local stack, a real headless Chromium.

An owner invites a number that has no account; the link is taken from the text the emulator kept;
the page opens on a phone-sized screen, shows the event (the time in the phone's own zone, by the
page's script under its Content-Security-Policy), Accept is pressed, the confirmation shows, and the
owner's GET /events/{id} has the guest attending. Screenshots before and after are saved in the
test's tmp_path (their paths are printed).
"""

from __future__ import annotations

import re

import pytest

from tests.utils.live_stack import LocalStack
from tests.utils.web import invite_on_live_stack

OWNER, GUEST = "+14155550160", "+14155550161"
TITLE = "Ужин на крыше 🎉 屋上ディナー"  # Cyrillic, an emoji, Japanese
PHONE_SCREEN = {"width": 390, "height": 844}


@pytest.mark.e2e
def test_a_guest_opens_the_texted_link_accepts_and_the_owner_sees_it(chromium, tmp_path):  # noqa: F811
    with LocalStack() as stack:
        owner = stack.login(OWNER, full_name="Olivia Host")
        event_id, found = invite_on_live_stack(
            stack,
            owner["auth_token"],
            GUEST,
            title=TITLE,
            event_date="2030-06-01T18:30:00Z",
            time_zone="America/Los_Angeles",
            venue_name="The Roof",
            address="1 Main St, Springfield",
            total_spots=4,
        )
        (text,) = stack.texts_to(GUEST)
        assert found.group(1) == stack.api, text  # the link points at this API (PUBLIC_BASE_URL)
        link = found.group(0)

        context = chromium.new_context(viewport=PHONE_SCREEN, timezone_id="America/New_York", locale="en-US")
        page = context.new_page()
        blocked = []
        page.on("console", lambda message: blocked.append(message.text) if "Content Security" in message.text else 0)
        response = page.goto(link)
        assert response.status == 200

        # the event as a guest reads it
        assert page.locator("h1").inner_text() == TITLE
        assert "Olivia Host invited you" in page.inner_text("main")
        assert "The Roof" in page.inner_text("dl") and "1 Main St, Springfield" in page.inner_text("dl")
        assert "1 person going, 4 spots left" in page.inner_text("dl")
        assert page.locator("#answer").inner_text() == "You haven't answered yet."
        when = page.locator("time")
        assert when.get_attribute("datetime") == "2030-06-01T18:30:00Z"
        # the event's own time, then the phone's where it differs: 18:30 UTC is 11:30 AM in LA, 2:30 PM in New York
        assert when.inner_text() == "Saturday, June 1, 2030 at 11:30 AM PDT"
        assert re.fullmatch(r"\s*\(Sat,? 2:30\sPM EDT your time\)", page.locator("time + .yours").inner_text())
        assert page.locator("button[aria-pressed=true]").count() == 0
        assert blocked == []  # the inline script and style ran under the policy
        # the keyboard reaches the answer first, with a visible focus ring
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.value") == "accept"
        assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"
        before = tmp_path / "event-page-before.png"
        page.screenshot(path=str(before), full_page=True)

        page.fill("#message", "Can't wait!")
        with page.expect_navigation():
            page.get_by_role("button", name="Accept").click()

        assert page.get_by_role("status").inner_text() == "Thanks! Your answer is saved."
        assert page.locator("#answer").inner_text() == "You're going. Your message: \u201cCan't wait!\u201d"
        assert "2 people going, 3 spots left" in page.inner_text("dl")
        assert re.search(r"/i/[A-Za-z0-9_-]{32}\?answered=1$", page.url), page.url
        # the page remembers: the chosen button is pressed, the message is in its field
        assert page.locator("button[value=accept]").get_attribute("aria-pressed") == "true"
        assert page.locator("button[value=decline]").get_attribute("aria-pressed") == "false"
        assert page.input_value("#message") == "Can't wait!"
        after = tmp_path / "event-page-after.png"
        page.screenshot(path=str(after), full_page=True)
        context.close()

        # without script: the same local time, rendered by the server, and the same remembered answer
        plain = chromium.new_context(viewport=PHONE_SCREEN, timezone_id="America/New_York", java_script_enabled=False)
        page = plain.new_page()
        assert page.goto(link).status == 200
        assert page.locator("time").inner_text() == "Saturday, June 1, 2030 at 11:30 AM PDT"
        assert page.locator(".yours").count() == 0
        assert page.locator("button[value=accept]").get_attribute("aria-pressed") == "true"
        no_script = tmp_path / "event-page-no-script.png"
        page.screenshot(path=str(no_script), full_page=True)
        plain.close()

        detail = stack.call("GET", f"/events/{event_id}", owner["auth_token"])
        assert detail.status_code == 200, detail.text
        (guest,) = [inv for inv in detail.json()["invitees"] if inv["phone_number"] == GUEST]
        assert guest["is_attending"] is True and guest["rsvp_message"] == "Can't wait!"
        assert detail.json()["attendees_count"] == 2

    for shot in (before, after, no_script):
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        print(f"screenshot: {shot}")
