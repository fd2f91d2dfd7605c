"""The guest page's answer form as a guest meets it on a phone when something is refused: `make run`'s local
stack and a real headless Chromium at 390x844. A refused accept keeps every value and marks the missing answer;
a form left open past its lifetime comes back fresh, still filled in, and sends on the next press; a guest of a
full event declines."""

from __future__ import annotations

import pytest

from tests.utils.live_stack import LocalStack
from tests.utils.web import invite_on_live_stack

OWNER, GUEST, LATE_GUEST, APP_GUEST = "+14155550174", "+14155550175", "+14155550176", "+14155550177"
PHONE_SCREEN = {"width": 390, "height": 844}
FORM_LIFETIME_SECONDS = 10  # the stack's WEB_FORM_TTL_SECONDS: short, so a form can go stale in the test
QUESTIONS = [
    {"text": "Plat principal / الطبق الرئيسي", "kind": "choice", "choices": ["Poisson", "سمك"], "required": True},
    {"text": "Allergies? 🥜", "kind": "text", "required": True},
]


def _press(page, button: str) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name=button).click()


def _values(page) -> tuple:
    return (
        page.input_value("#message"),
        page.input_value("#extra_guests"),
        page.get_by_label("سمك").is_checked(),
        page.input_value("#answer_q2"),
    )


@pytest.mark.e2e
@pytest.mark.browser
def test_a_refused_accept_keeps_every_value_a_stale_form_comes_back_and_a_full_event_takes_a_decline(
    chromium, tmp_path
):
    with LocalStack(WEB_FORM_TTL_SECONDS=str(FORM_LIFETIME_SECONDS)) as stack:
        owner = stack.login(OWNER, full_name="Olivia Host")["auth_token"]
        event_id, found = invite_on_live_stack(
            stack, owner, GUEST, total_spots=4, max_extra_guests=3, questions=QUESTIONS
        )
        context = chromium.new_context(viewport=PHONE_SCREEN, locale="en-US")
        page = context.new_page()
        assert page.goto(found.group(0)).status == 200

        # an Accept without the required allergies answer
        page.fill("#message", "À bientôt ✨")
        page.select_option("#extra_guests", "2")
        page.get_by_label("سمك").check()
        _press(page, "Accept")
        assert "Answer the questions marked required" in page.inner_text("main")
        assert _values(page) == ("À bientôt ✨", "2", True, "")
        allergies = page.locator("#answer_q2")
        assert allergies.get_attribute("aria-invalid") == "true"
        error = page.locator(f"#{allergies.get_attribute('aria-describedby')}")
        assert error.is_visible() and error.inner_text()
        page.screenshot(path=str(tmp_path / "refused-accept.png"), full_page=True)

        # the guest types the answer, then leaves the page open past the form's lifetime
        page.fill("#answer_q2", "Peanuts")
        page.wait_for_timeout((FORM_LIFETIME_SECONDS + 1) * 1000)
        _press(page, "Accept")
        main = page.inner_text("main")
        assert "This form was open too long, so your answer was not sent." in main and "reload" not in main.lower()
        assert _values(page) == ("À bientôt ✨", "2", True, "Peanuts")
        _press(page, "Accept")  # the fresh form sends as it stands
        assert page.get_by_role("status").inner_text() == "Thanks! Your answer is saved."
        context.close()
        detail = stack.call("GET", f"/events/{event_id}", owner).json()
        (guest,) = [inv for inv in detail["invitees"] if inv["phone_number"] == GUEST]
        assert guest["is_attending"] is True and guest["answers"] == {"q1": "سمك", "q2": "Peanuts"}

        # a full event: the last spot taken by a guest with the app, then the guest without it opens the page
        app_guest = stack.login(APP_GUEST, full_name="Ari App")["auth_token"]
        full_id, late = invite_on_live_stack(stack, owner, LATE_GUEST, total_spots=1)
        patched = stack.call("PATCH", f"/events/{full_id}", owner, {"invite_phone_numbers": [APP_GUEST]})
        assert patched.status_code == 200, patched.text
        assert stack.call("POST", f"/events/{full_id}/accept", app_guest, {}).status_code == 200
        context = chromium.new_context(viewport=PHONE_SCREEN, locale="en-US")
        page = context.new_page()
        assert page.goto(late.group(0)).status == 200
        assert "This event is full" in page.inner_text("main")
        assert page.get_by_role("button", name="Accept").count() == 0
        page.fill("#message", "Next time! 🙏")
        _press(page, "Decline")
        assert page.get_by_role("status").inner_text() == "Thanks! Your answer is saved."
        assert "You're not going." in page.inner_text("main")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_SCREEN["width"]
        page.screenshot(path=str(tmp_path / "declined-full-event.png"), full_page=True)
        context.close()
    print(f"screenshots: {tmp_path}")
