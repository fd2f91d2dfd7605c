"""The questions on the guest's page as a person answers them on a phone: `make run`'s local stack and a real
headless Chromium at a phone's screen size."""

from __future__ import annotations

import pytest

from tests.utils.live_stack import LocalStack
from tests.utils.web import invite_on_live_stack

OWNER, GUEST = "+14155550164", "+14155550165"
PHONE_SCREEN = {"width": 390, "height": 844}
QUESTIONS = [
    {"text": "Plat principal / الطبق الرئيسي", "kind": "choice", "choices": ["Poisson", "سمك"], "required": True},
    {"text": "Allergies?", "kind": "text"},
]


@pytest.mark.e2e
def test_a_guest_answers_the_questions_on_a_phone_and_the_owner_sees_the_answers(chromium, tmp_path):  # noqa: F811
    with LocalStack() as stack:
        owner = stack.login(OWNER, full_name="Olivia Host")
        event_id, found = invite_on_live_stack(stack, owner["auth_token"], GUEST, total_spots=4, questions=QUESTIONS)
        context = chromium.new_context(viewport=PHONE_SCREEN, locale="en-US")
        page = context.new_page()
        assert page.goto(found.group(0)).status == 200

        choices = page.locator("label.choice")
        assert choices.count() == 2
        for index in range(2):
            box = choices.nth(index).bounding_box()
            assert box is not None and box["height"] >= 44, box  # a thumb's target
        assert page.locator("fieldset.question legend").get_attribute("dir") == "auto"
        assert page.locator("label.choice span").nth(1).get_attribute("dir") == "auto"

        # Accept without the required answer: the page says so and nothing is stored
        with page.expect_navigation():
            page.get_by_role("button", name="Accept").click()
        assert "Answer the questions marked required" in page.inner_text("main")

        page.get_by_label("سمك").check()
        page.fill("#answer_q2", "Peanuts")
        with page.expect_navigation():
            page.get_by_role("button", name="Accept").click()
        assert page.get_by_role("status").inner_text() == "Thanks! Your answer is saved."
        assert page.get_by_label("سمك").is_checked() and page.input_value("#answer_q2") == "Peanuts"
        shot = tmp_path / "questions-after.png"
        page.screenshot(path=str(shot), full_page=True)
        context.close()

        detail = stack.call("GET", f"/events/{event_id}", owner["auth_token"])
        (guest,) = [inv for inv in detail.json()["invitees"] if inv["phone_number"] == GUEST]
        assert guest["is_attending"] is True and guest["answers"] == {"q1": "سمك", "q2": "Peanuts"}
    print(f"screenshot: {shot}")
