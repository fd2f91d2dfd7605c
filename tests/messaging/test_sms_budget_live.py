"""The month's text budget on `make run`'s local stack started with a small SMS_MONTHLY_SEGMENTS, driven over
HTTP as the app would: invitation texts stop at 80% of it while pins go on, and past 100% POST /auth answers
503 with Retry-After."""

from __future__ import annotations

import requests

from chalicelib.messaging.sms_segments import segments
from tests.utils.live_stack import HTTP_TIMEOUT_SECONDS, LocalStack

BUDGET = 10  # segments; texts nobody asked for may use 8 of them


def _numbers(count: int, start: int) -> list[str]:
    return [f"+1415555{n:04d}" for n in range(start, start + count)]


def test_a_small_budget_stops_invitations_at_80_percent_then_pins_at_100():
    with LocalStack(SMS_MONTHLY_SEGMENTS=str(BUDGET)) as stack:
        owner_number, *guests = _numbers(9, 3000)
        owner = stack.login(owner_number)["auth_token"]  # its pin: one segment

        def spent(*numbers: str) -> int:
            return sum(segments(text) for number in numbers for text in stack.texts_to(number))

        created = stack.call(
            "POST",
            "/events",
            owner,
            {"title": "Picnic", "event_date": "2030-06-01T18:30:00Z", "invite_phone_numbers": guests},
        )
        assert created.status_code == 201, created.text
        assert set(guests) <= {person["phone_number"] for person in created.json()["invitees"]}
        texted = [number for number in guests if stack.texts_to(number)]
        held = [number for number in guests if number not in texted]
        assert texted == guests[: len(texted)] and held  # in order, as far as 80% goes
        invitation = stack.texts_to(texted[0])[0]
        used = spent(owner_number, *guests)
        assert used <= BUDGET * 80 // 100 < used + segments(invitation)

        pins = 0
        for number in _numbers(BUDGET, 3100):
            answer = requests.post(stack.url("/auth"), json={"phone_number": number}, timeout=HTTP_TIMEOUT_SECONDS)
            if answer.status_code != 204:
                break
            pins += 1
        assert pins == BUDGET - used  # a pin is one segment: they went on to 100%
        assert answer.status_code == 503, answer.text
        assert answer.json() == {"detail": "Texts are paused for now. Try again later."}
        assert 1 <= int(answer.headers["Retry-After"]) <= 3600
        assert stack.texts_to(number) == []
