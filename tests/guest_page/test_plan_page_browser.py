"""A plan's page (/p/<code>) as a person without the app uses it on a phone: `make run`'s local stack and a real
headless Chromium at 390x844, with script and without, a Hebrew title with an emoji. Screenshots are saved in the
test's tmp_path (their paths are printed)."""

from __future__ import annotations

import re

import pytest

from tests.utils.live_stack import LocalStack

OWNER, FRIEND = "+14155550166", "+14155550167"
TITLE = "\u05e2\u05e8\u05d1 \u05de\u05e9\u05d7\u05e7\u05d9\u05dd \U0001f3b2 \u05d0\u05e6\u05dc \u05e0\u05d5\u05e2\u05d4"
PHONE_SCREEN = {"width": 390, "height": 844}
PLAN_LINK = re.compile(r"https?://[^\s]+/p/[A-Za-z0-9_-]{32}")


def _fits_the_screen(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE_SCREEN["width"]


@pytest.mark.e2e
@pytest.mark.browser
def test_a_friend_votes_on_a_phone_with_and_without_script_then_finds_the_event(chromium, tmp_path):  # noqa: F811
    shots = []
    with LocalStack() as stack:
        owner = stack.login(OWNER, full_name="Noa Host")
        plan = {
            "title": TITLE,
            "time_zone": "Asia/Jerusalem",
            "options": [
                "2030-06-05T17:00:00Z",
                {"starts_at": "2030-06-06T17:00:00Z", "label": "\u05de\u05d5\u05e7\u05d3\u05dd"},
            ],
            "invite_phone_numbers": [FRIEND],
        }
        made = stack.call("POST", "/plans", owner["auth_token"], plan)
        assert made.status_code == 201, made.text
        link = PLAN_LINK.search(stack.texts_to(FRIEND)[-1]).group(0)

        context = chromium.new_context(viewport=PHONE_SCREEN, timezone_id="America/New_York", locale="en-US")
        page = context.new_page()
        blocked = []
        page.on("console", lambda message: blocked.append(message.text) if "Content Security" in message.text else 0)
        assert page.goto(link).status == 200
        assert page.locator("h1").inner_text() == TITLE and page.locator("h1").get_attribute("dir") == "auto"
        assert "Noa Host is planning" in page.inner_text("main")
        assert "Wednesday, June 5, 2030 at 8:00 PM IDT" in page.inner_text("main")  # the plan's own zone
        assert _fits_the_screen(page)
        choices = page.locator("label.choice")
        assert choices.count() == 6
        for index in range(6):
            box = choices.nth(index).bounding_box()
            assert box is not None and box["height"] >= 44, box  # a thumb's target
        page.locator('input[name="vote_1"][value="yes"]').check()
        page.locator('input[name="vote_2"][value="if_need_be"]').check()
        with page.expect_navigation():
            page.get_by_role("button", name="Save my answers").click()
        assert page.get_by_role("status").inner_text() == "Thanks! Your answers are saved."
        assert page.locator('input[name="vote_1"][value="yes"]').is_checked()
        assert "So far: 1 yes, 0 if need be, 0 no" in page.inner_text("main")
        assert blocked == []
        shots.append(tmp_path / "plan-page-script.png")
        page.screenshot(path=str(shots[-1]), full_page=True)
        context.close()

        plain = chromium.new_context(viewport=PHONE_SCREEN, java_script_enabled=False)
        page = plain.new_page()
        assert page.goto(link).status == 200
        assert page.locator('input[name="vote_2"][value="if_need_be"]').is_checked()
        page.locator('input[name="vote_2"][value="no"]').check()
        with page.expect_navigation():
            page.get_by_role("button", name="Save my answers").click()
        assert page.get_by_role("status").inner_text() == "Thanks! Your answers are saved."
        assert _fits_the_screen(page)
        shots.append(tmp_path / "plan-page-no-script.png")
        page.screenshot(path=str(shots[-1]), full_page=True)

        decided = stack.call("POST", f"/plans/{made.json()['id']}/decide", owner["auth_token"], {"option": 1})
        assert decided.status_code == 201, decided.text
        assert page.goto(link).status == 200
        assert "The date is set." in page.inner_text("main")
        with page.expect_navigation():
            page.get_by_role("link", name="Answer the invitation").click()
        assert page.locator("h1").inner_text() == TITLE and "/i/" in page.url
        shots.append(tmp_path / "plan-decided-event-page.png")
        page.screenshot(path=str(shots[-1]), full_page=True)
        plain.close()

        seen = stack.call("GET", f"/plans/{made.json()['id']}", owner["auth_token"]).json()
        assert seen["votes"][0]["votes"] == {"1": "yes", "2": "no"}
    for shot in shots:
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        print(f"screenshot: {shot}")
