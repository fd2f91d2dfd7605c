"""Rate limits at the service layer: rolling periods, address subjects, parallel charges."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from chalicelib.errors import Throttled
from chalicelib.services import contacts
from chalicelib.services.ratelimit import RollingLimit, address_subject
from tests.utils.factories import make_person

HOUR = 3600


def _charges(limit: RollingLimit, amount: int, now: float) -> bool:
    try:
        limit.charge(amount, now=now)
        return True
    except Throttled:
        return False


def test_a_rolling_limit_holds_across_the_edge_of_a_day(aws):
    limit = RollingLimit("test", "someone", 2000)
    midnight = 1_800_000_000 - 1_800_000_000 % 86400 + 86400
    # 2,000 a minute before midnight, then more a minute after: a fixed daily window would take them
    assert _charges(limit, 2000, midnight - 60)
    assert not _charges(limit, 1, midnight + 60)
    assert not _charges(limit, 1, midnight + 23 * HOUR)
    # once every bucket of that charge is older than 24 hours, the allowance is back
    assert _charges(limit, 2000, midnight + 25 * HOUR)


def test_retry_after_names_when_the_oldest_charges_leave_the_period(aws):
    limit = RollingLimit("test", "someone", 10)
    start = 1_800_000_000 - 1_800_000_000 % HOUR
    assert _charges(limit, 6, start + 10)
    assert _charges(limit, 4, start + 5 * HOUR + 10)
    with pytest.raises(Throttled) as refused:
        limit.charge(5, now=start + 6 * HOUR)
    # the 6 stop counting exactly 24 hours after they were charged
    assert refused.value.retry_after == (start + 10 + 24 * HOUR) - (start + 6 * HOUR) + 1
    assert not _charges(limit, 5, start + 24 * HOUR + 9)
    assert _charges(limit, 5, start + 24 * HOUR + 11)


def test_parallel_lookups_never_pass_the_allowance(aws, override_settings):
    override_settings(contact_lookup_numbers_per_user_per_day=30)
    caller = make_person("Caller").user

    def look_up(batch: int) -> str:
        try:
            contacts.users_by_phone(caller, [f"+1212555{batch:02d}{i:02d}" for i in range(4)])
            return "answered"
        except Throttled:
            return "throttled"

    with ThreadPoolExecutor(max_workers=10) as pool:
        results = list(pool.map(look_up, range(20)))
    assert results.count("answered") == 7 and results.count("throttled") == 13  # 7 x 4 = 28 <= 30 < 32


@pytest.mark.parametrize(
    ("source", "subject"),
    [
        ("203.0.113.9", "203.0.113.9"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("::ffff:203.0.113.9", "203.0.113.9"),
        ("unknown", "unknown"),
    ],
)
def test_ipv6_callers_are_counted_per_64(source, subject):
    assert address_subject(source) == subject
