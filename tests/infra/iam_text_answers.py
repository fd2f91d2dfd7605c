"""Answering by reply, as part of the IAM run (tests/infra/test_iam.py): with two-way texting on, an invitation
text from the API function, then replies to it as the inbound function (an accept on a full event with a
waitlist, a reply it cannot read, a decline that seats the next party), and the owner's pushes as the worker."""

from __future__ import annotations

from tests.utils.api import login, post_json, texts_to

HOST, FIRST, SECOND = "+14155550151", "+14155550152", "+14155550153"


def answer_by_text(run, monkeypatch) -> None:
    from chalicelib.config import get_settings

    monkeypatch.setenv("SMS_TWO_WAY", "true")
    get_settings.cache_clear()
    try:
        owner = login(run.client, HOST, full_name="Rhea Reply")["auth_token"]
        event = {"title": "Quiz", "event_date": "2031-10-01T19:00:00Z", "total_spots": 1, "waitlist": True,
                 "invite_phone_numbers": [FIRST, SECOND]}  # fmt: skip
        created = post_json(run.client, "/events", event, owner)
        assert created.status_code == 201, created.body
        run.deliver()
        for number, text in ((FIRST, "1"), (SECOND, "yes"), (SECOND, "what?"), (FIRST, "2")):
            run.text_in(number, text)
        run.deliver()
    finally:
        monkeypatch.delenv("SMS_TWO_WAY")
        get_settings.cache_clear()
    assert run.failed_invocations == [], "\n".join(run.failed_invocations)
    assert any("You're going" in text for text in texts_to(FIRST)), texts_to(FIRST)
    assert any("on the waitlist" in text for text in texts_to(SECOND)), texts_to(SECOND)
    assert any("spot opened" in text for text in texts_to(SECOND)), texts_to(SECOND)
