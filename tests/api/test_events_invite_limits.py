"""POST and PATCH /events under the limits on inviting: invitees per event, the numbers an owner may
invite (shared with contact lookups), events per owner, and what a large invite costs."""

from __future__ import annotations

import re

import pytest

from chalicelib.errors import Throttled, ValidationError
from chalicelib.services.guards import ratelimit
from chalicelib.services.hosting import events
from chalicelib.services.identity.users import find_user_by_phone
from chalicelib.services.participants import event_reads
from tests.utils.api import body, post_event, post_json, texts_to
from tests.utils.factories import future, make_event, make_person, phone, stored_event, table_items
from tests.utils.races import race

THROTTLED = re.compile(r"Request was throttled\. Expected available in \d+ seconds\.")


def _numbers(first: int, count: int) -> list[str]:
    return [phone(first + n) for n in range(count)]


def _edit(client, owner, event_id: int, numbers: list[str]):
    return post_json(client, f"/events/{event_id}", {"invite_phone_numbers": numbers}, owner.token, method="PATCH")


def _guests(event_id: int) -> int:
    return stored_event(event_id).invitee_count


# --- invitees per event ---------------------------------------------------------------------------


def test_creating_with_more_invitees_than_an_event_holds_is_400_and_stores_nothing(client, override_settings):
    # a 1,000-number create went through whole
    override_settings(invitees_per_event=5)
    alice = make_person("Alice")
    before = table_items()
    numbers = _numbers(7000, 6)
    response = post_event(client, alice, invite_phone_numbers=numbers)
    assert response.status_code == 400
    assert body(response) == {"invite_phone_numbers": ["An event can have at most 5 invitees."]}
    assert table_items() == before
    assert [find_user_by_phone(number) for number in numbers] == [None] * 6
    assert [texts_to(number) for number in numbers] == [[]] * 6


def test_edits_count_the_invitees_the_event_has(client, override_settings):
    override_settings(invitees_per_event=5)
    alice = make_person("Alice")
    created = body(post_event(client, alice, invite_phone_numbers=_numbers(7010, 3)))
    # the three invited already cost nothing again; two more fit, three do not
    response = _edit(client, alice, created["id"], _numbers(7010, 3) + _numbers(7020, 3))
    assert response.status_code == 400
    assert body(response) == {"invite_phone_numbers": ["An event can have at most 5 invitees."]}
    assert find_user_by_phone(phone(7020)) is None
    assert _edit(client, alice, created["id"], _numbers(7010, 3) + _numbers(7020, 2)).status_code == 200
    assert _guests(created["id"]) == 5


def test_parallel_edits_never_pass_the_invitees_of_an_event(aws, override_settings):
    override_settings(invitees_per_event=6)
    alice = make_person("Alice")
    event = make_event(alice)

    def invite(n: int) -> None:
        data = events.EventInput(invite_phone_numbers=_numbers(7100 + 10 * n, 2))
        events.update_event(alice.user, event.id, data)

    outcomes = race(invite, 8, refused=ValidationError)
    assert outcomes.count("ok") == 3
    view = event_reads.get_event(alice.user, event.id)
    assert len(view.invitations) - 1 == 6 == _guests(event.id)


# --- invites share the contact-lookup allowance ---------------------------------------------------


def test_invited_numbers_count_against_the_lookup_allowance(client, override_settings):
    # with from_phone_numbers answering 429, invites still told who was registered, 1,000 a request
    override_settings(contact_lookup_numbers_per_user_per_day=10)
    alice = make_person("Alice")
    assert post_event(client, alice, invite_phone_numbers=_numbers(7200, 8)).status_code == 201
    before = table_items()
    response = post_event(client, alice, invite_phone_numbers=_numbers(7210, 3))
    assert response.status_code == 429
    assert THROTTLED.fullmatch(body(response)["detail"]) and int(response.headers["Retry-After"]) > 0
    assert table_items() == before and find_user_by_phone(phone(7210)) is None
    # the allowance is the lookups' one: 2 numbers left
    lookup = post_json(client, "/users/from_phone_numbers", {"phone_numbers": _numbers(7220, 3)}, alice.token)
    assert lookup.status_code == 429


def test_numbers_the_owner_invited_before_cost_nothing(client, override_settings):
    override_settings(contact_lookup_numbers_per_user_per_day=10)
    alice = make_person("Alice")
    friends = _numbers(7300, 8)
    assert post_event(client, alice, invite_phone_numbers=friends).status_code == 201
    for _ in range(3):
        assert post_event(client, alice, invite_phone_numbers=friends).status_code == 201
    assert post_event(client, alice, invite_phone_numbers=_numbers(7310, 2)).status_code == 201


# --- events per owner -----------------------------------------------------------------------------


def test_events_past_the_owners_daily_number_are_429_and_not_stored(client, override_settings):
    # 150 events at one instant, each inviting Carol, filled her timeline page
    override_settings(events_per_owner_per_day=3)
    alice = make_person("Alice")
    for _ in range(3):
        assert post_event(client, alice).status_code == 201
    before = table_items()
    response = post_event(client, alice, invite_phone_numbers=[phone(7400)])
    assert response.status_code == 429
    assert THROTTLED.fullmatch(body(response)["detail"]) and int(response.headers["Retry-After"]) > 0
    assert table_items() == before and find_user_by_phone(phone(7400)) is None


def test_parallel_creates_never_pass_the_owners_daily_number(aws, override_settings):
    override_settings(events_per_owner_per_day=3)
    alice = make_person("Alice")

    def create(n: int) -> None:
        events.create_event(alice.user, events.EventInput(title=f"E{n}", event_date=future()))

    outcomes = race(create, 10, refused=Throttled)
    assert outcomes.count("ok") == 3
    assert event_reads.list_events(alice.user, per_page=100).count == 3


# --- what a large invite costs --------------------------------------------------------------------


@pytest.fixture
def counters_read(monkeypatch) -> list[str]:
    """The scopes of every rolling counter read, one entry per limit."""
    scopes: list[str] = []
    original = ratelimit.read_usage

    def spy(limits, now):
        scopes.extend(limit.scope for limit in limits)
        return original(limits, now)

    monkeypatch.setattr(ratelimit, "read_usage", spy)
    return scopes


def test_500_new_numbers_cost_at_most_80_dynamodb_calls(client, aws, counters_read):
    # 1,000 new numbers took 5,028 AWS calls: about 3 per new user, and every number's text counter
    alice = make_person("Alice")
    numbers = _numbers(2000, 500)
    aws.reset()
    response = post_event(client, alice, invite_phone_numbers=numbers)
    assert response.status_code == 201
    assert len(body(response)["invitees"]) == 501
    calls = aws.of("dynamodb")
    assert calls["Scan"] == 0
    assert aws.total("dynamodb") <= 80, calls  # 40 when measured
    # only the 50 numbers the owner's hourly quota lets through had their counters read
    assert counters_read.count("invite-sms-to") == 50
    assert sum(len(texts_to(number)) for number in numbers) == 50
    assert all(find_user_by_phone(number) is not None for number in numbers[::50])


def test_120_new_numbers_cost_a_call_per_batch_not_per_number(client, aws, counters_read):
    alice = make_person("Alice")
    numbers = _numbers(3000, 120)
    aws.reset()
    response = post_event(client, alice, invite_phone_numbers=numbers)
    assert response.status_code == 201
    # claims and marks 3 BatchGetItem, counters 2, users 3 and invitations 3 TransactWriteItems, texts 6
    assert aws.total("dynamodb") <= 25, aws.of("dynamodb")
    assert counters_read.count("invite-sms-to") == 50


def test_throttled_writes_of_a_large_invite_are_503_and_no_event_is_stored(client, fail_aws):
    alice = make_person("Alice")
    before = table_items()
    fail_aws("dynamodb", "TransactWriteItems")
    response = post_event(client, alice, invite_phone_numbers=_numbers(3500, 60))
    assert response.status_code == 503 and int(response.headers["Retry-After"]) > 0
    assert table_items() == before
    assert [texts_to(number) for number in _numbers(3500, 60)] == [[]] * 60
