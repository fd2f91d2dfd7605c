"""The latest text that asked a number: the newest one written wins, one read finds it, and after 30 days it is
gone for replies even before DynamoDB's TTL deletes it."""

from __future__ import annotations

from chalicelib.store import text_asks
from chalicelib.store.text_asks import Ask

NUMBER = "+14155550140"
DAY = 86400
NOW = 1_900_000_000


def test_the_newest_asking_text_is_the_one_a_reply_answers(aws):
    text_asks.remember([Ask(NUMBER, 1, 7, "invitation")], NOW - DAY)
    text_asks.remember([Ask(NUMBER, 2, 7, "nudge"), Ask("+14155550141", 2, 8, "nudge")], NOW)
    assert text_asks.latest(NUMBER, NOW) == Ask(NUMBER, 2, 7, "nudge")
    assert text_asks.latest("+14155550141", NOW) == Ask("+14155550141", 2, 8, "nudge")
    assert text_asks.latest("+14155550142", NOW) is None


def test_after_30_days_no_text_asked(aws):
    text_asks.remember([Ask(NUMBER, 1, 7, "invitation")], NOW)
    assert text_asks.latest(NUMBER, NOW + 30 * DAY) is not None
    assert text_asks.latest(NUMBER, NOW + 30 * DAY + 1) is None
