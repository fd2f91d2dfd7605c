"""Pin and token rules under concurrency, at the service layer (threads share no request state)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from chalicelib.errors import Throttled, ValidationError
from chalicelib.models.auth import Pin, pin_pk
from chalicelib.services.identity import auth
from tests.utils.api import last_pin
from tests.utils.races import race

PHONE = "+14155550177"


def _verify(pin: str):
    try:
        return auth.verify_pin(PHONE, pin, "203.0.113.9")
    except ValidationError as error:
        return error


def test_parallel_guesses_spend_at_most_five_tries(aws):
    # GIVEN a pin was sent
    auth.request_pin(PHONE, "203.0.113.9")
    pin = last_pin(PHONE)
    guesses = [f"{n:06d}" for n in range(40) if f"{n:06d}" != pin][:30]
    # WHEN 30 wrong guesses race
    with ThreadPoolExecutor(max_workers=10) as pool:
        results = list(pool.map(_verify, guesses))
    # THEN all fail, only five tries were counted, and the right pin no longer works
    assert all(isinstance(r, ValidationError) for r in results)
    assert Pin.get(pin_pk(PHONE), consistent_read=True).attempts == 5
    assert isinstance(_verify(pin), ValidationError)


def test_parallel_use_of_the_right_pin_logs_in_once(aws):
    auth.request_pin(PHONE, "203.0.113.9")
    pin = last_pin(PHONE)
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(_verify, [pin] * 8))
    logins = [r for r in results if not isinstance(r, ValidationError)]
    assert len(logins) == 1


def test_parallel_pin_requests_never_pass_the_hourly_limit(aws):
    results = race(lambda _: auth.request_pin(PHONE, "203.0.113.9"), 20, refused=Throttled, workers=10)
    assert results.count("ok") == 5 and results.count("refused") == 15


def test_parallel_first_logins_make_one_user(aws):
    from chalicelib.services.identity.users import find_or_create_user

    with ThreadPoolExecutor(max_workers=8) as pool:
        users = list(pool.map(lambda _: find_or_create_user(PHONE, active=True)[0].id, range(8)))
    assert len(set(users)) == 1
