"""Rate limits at the service layer: rolling periods, address subjects, parallel charges."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from chalicelib.errors import Throttled
from chalicelib.services.contacts import contacts
from chalicelib.services.guards import ratelimit
from chalicelib.services.guards.ratelimit import RollingLimit, address_subject
from chalicelib.services.hosting import events
from chalicelib.services.identity import auth
from chalicelib.services.participants import event_reads
from chalicelib.store import rate_logs
from tests.utils.api import texts_to
from tests.utils.factories import future, make_person, phone
from tests.utils.races import race, read_together

HOUR = 3600
START = 1_800_000_000.0


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


# --- parallel charges of one subject ----------------------------------------------------------------
# Every racer reads its logs before any writes (read_together), as requests overlap on a loaded machine.
# A charge is one write that a sibling's charge cannot make fail: two attempts serve every outcome here
# (the second reads again after a refusal, to answer 429 with a fresh Retry-After). Lowered to that, a
# log rewritten whole on a version took turns and answered 503 to most of a burst.


@pytest.fixture
def two_attempts(monkeypatch):
    monkeypatch.setattr(ratelimit, "ROLLING_ATTEMPTS", 2)


def _create(owner, numbers=()):
    return lambda n: events.create_event(
        owner, events.EventInput(title=f"E{n}", event_date=future(), invite_phone_numbers=list(numbers))
    )


def test_eight_parallel_creates_of_one_owner_all_pass(aws, two_attempts, monkeypatch):
    read_together(monkeypatch, rate_logs, "read_logs", 8)
    alice = make_person("Alice")
    outcomes = race(_create(alice.user), 8, refused=Throttled, workers=8)
    assert outcomes == ["ok"] * 8
    assert event_reads.list_events(alice.user, per_page=100).count == 8


def test_parallel_creates_with_new_numbers_charge_both_limits_without_losing(aws, two_attempts, monkeypatch):
    read_together(monkeypatch, rate_logs, "read_logs", 12)
    # each create charges the owner's events and the numbers invited, all or none
    alice = make_person("Alice")

    def create(n: int) -> None:
        _create(alice.user, [phone(9000 + 10 * n + k) for k in range(3)])(n)

    assert race(create, 12, refused=Throttled, workers=12) == ["ok"] * 12
    assert event_reads.list_events(alice.user, per_page=100).count == 12


def test_a_burst_of_creates_past_the_limit_gets_exactly_the_limit_and_429s(
    aws, override_settings, two_attempts, monkeypatch
):
    override_settings(events_per_owner_per_day=5)
    read_together(monkeypatch, rate_logs, "read_logs", 16)
    alice = make_person("Alice")
    outcomes = race(_create(alice.user), 16, refused=Throttled, workers=16)
    assert outcomes.count("ok") == 5 and outcomes.count("refused") == 11
    assert event_reads.list_events(alice.user, per_page=100).count == 5


def test_parallel_pins_for_one_number_pass_the_limit_exactly(aws, two_attempts, monkeypatch):
    read_together(monkeypatch, rate_logs, "read_logs", 10)
    number = phone(4242)
    outcomes = race(lambda n: auth.request_pin(number, f"203.0.113.{n}"), 10, refused=Throttled, workers=10)
    assert outcomes.count("ok") == 5 and outcomes.count("refused") == 5
    assert len(texts_to(number)) == 5


def test_parallel_invites_of_one_stranger_text_it_exactly_its_daily_number(aws, two_attempts, monkeypatch):
    stranger = phone(5151)
    owners = [make_person(f"Owner {n}").user for n in range(8)]
    read_together(monkeypatch, rate_logs, "read_logs", 8)
    outcomes = race(lambda n: _create(owners[n], [stranger])(n), 8, refused=Throttled, workers=8)
    assert outcomes == ["ok"] * 8
    assert len(texts_to(stranger)) == 3


def test_a_number_whose_log_filled_after_the_read_is_not_texted_and_costs_one_read_to_tell(aws, monkeypatch):
    limit = RollingLimit("invite-sms-to", "+14155550199", 1)
    stale = limit.read(START)
    limit.charge(1, now=START)  # a parallel request took the last unit after this one read
    monkeypatch.setattr(ratelimit, "read_usage", lambda limits, now: [stale for _ in limits])
    aws.reset()
    assert ratelimit.charge_each([limit], now=START + 1) == [False]
    # the refused charge, and one consistent read that finds it was not this charge's own lost answer
    assert aws.of("dynamodb") == {"UpdateItem": 1, "GetItem": 1}
