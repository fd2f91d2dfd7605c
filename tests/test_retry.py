"""The retry helper: how many attempts, pauses only between them, and what is tried again."""

from __future__ import annotations

import pytest

from chalicelib.retry import AttemptsSpent, TryAgain, linear, retry


def test_try_again_uses_every_attempt_then_says_so():
    calls, pauses = [], []

    def attempt(number: int):
        calls.append(number)
        raise TryAgain()

    with pytest.raises(AttemptsSpent):
        retry(attempt, attempts=4, pause=linear(0.5), sleep=pauses.append)
    assert calls == [0, 1, 2, 3]
    assert pauses == [0.5, 1.0, 1.5]  # between attempts only, none after the last


def test_only_retryable_errors_are_tried_again_and_the_last_one_is_raised():
    calls = []

    def attempt(number: int):
        calls.append(number)
        raise (KeyError if number < 2 else ValueError)(number)

    with pytest.raises(ValueError):
        retry(attempt, attempts=5, retry_on=lambda exc: isinstance(exc, KeyError), sleep=lambda _: None)
    assert calls == [0, 1, 2]  # a ValueError is not retryable
    calls.clear()
    with pytest.raises(KeyError):
        retry(attempt, attempts=2, retry_on=lambda exc: isinstance(exc, KeyError), sleep=lambda _: None)
    assert calls == [0, 1]  # attempts spent on a retryable error: that error


def test_the_first_success_is_the_answer():
    def attempt(number: int) -> int:
        if number == 0:
            raise TryAgain()
        return number * 10

    assert retry(attempt, attempts=3, sleep=lambda _: None) == 10


def test_an_attempt_may_name_the_pause_before_the_next():
    pauses = []

    def attempt(number: int) -> str:
        if number < 3:
            raise TryAgain(pause=[0.0, 2.0, None][number])
        return "done"

    assert retry(attempt, attempts=4, pause=linear(0.5), sleep=pauses.append) == "done"
    assert pauses == [2.0, 1.5]  # none asked after the first, 2 s after the second, the policy's after the third
