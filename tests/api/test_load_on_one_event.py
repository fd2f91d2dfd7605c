"""Load on one event: many guests at once while DynamoDB answers some calls slower than the client's read
timeout (2 s: the call ends in botocore's ReadTimeoutError, either before DynamoDB applied it or after, with
the answer lost) and botocore retries as it would. Nothing answers a 5xx but a 503 with Retry-After where
nothing was written; a client that retries after a 503 converges; the counters are exact.

The slow calls are simulated as the timeouts they cause (tests/utils/aws_faults.py: ``TIME_OUT``,
``LOSE_ANSWER``), not by sleeping 2 s each."""

from __future__ import annotations

import itertools
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

from chalicelib.models.events import Message, event_pk
from chalicelib.services.identity import auth
from chalicelib.store import users as user_store
from tests.utils.api import post_json
from tests.utils.aws_faults import LOSE_ANSWER, TIME_OUT, on_the_wire
from tests.utils.factories import Person, make_event, make_person, phone, stored_event

WRITES = {"PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem"}
RETRIES = 6
WORKERS = 16


def _slow_dynamodb():
    """A rule: of DynamoDB's writes, every 5th is applied and its answer lost, every 7th times out unapplied;
    every 11th read times out."""
    writes, reads = itertools.count(1), itertools.count(1)
    lock = threading.Lock()

    def rule(service: str, operation: str, body: bytes):
        if service != "dynamodb":
            return None
        with lock:
            if operation in WRITES:
                n = next(writes)
                return LOSE_ANSWER if n % 5 == 0 else TIME_OUT if n % 7 == 0 else None
            return TIME_OUT if next(reads) % 11 == 0 else None

    return rule


def _guests(count: int) -> list[Person]:
    """``count`` signed-in people, made through the store in batches (the many-guest setup is not what is tested)."""
    now = datetime.now(UTC)
    numbers = [phone() for _ in range(count)]
    made = []
    for start in range(0, count, 50):
        made += user_store.create_inactive_users(numbers[start : start + 50], now)
    people = []
    for user in made:
        user_store.activate(user, now)
        people.append(Person(user, auth.issue_token(user)))
    return people


def _as_client_would(request) -> tuple[int, list[int]]:
    """Make ``request`` and repeat it after each 503 (which must carry Retry-After): its statuses in order."""
    statuses = []
    for _ in range(RETRIES):
        response = request()
        statuses.append(response.status_code)
        if response.status_code != 503:
            return response.status_code, statuses
        assert int(response.headers["Retry-After"]) >= 1
    return statuses[-1], statuses


def _report(name: str, outcomes: list[tuple[int, list[int]]]) -> dict:
    first = Counter(statuses[0] for _, statuses in outcomes)
    final = Counter(status for status, _ in outcomes)
    rate = first[503] / len(outcomes)
    print(f"{name}: first tries {dict(first)}, after retries {dict(final)}, first-try 503 rate {rate:.1%}")
    return {"first": first, "final": final}


def test_200_parallel_accepts_on_a_50_spot_event_seat_50_and_queue_the_rest_in_arrival_order(client):
    owner = make_person("Olive Owner")
    guests = _guests(200)
    event = make_event(owner, *guests, total_spots=50, waitlist=True)
    positions: dict[int, int | None] = {}

    def accept(guest: Person):
        def request():
            response = post_json(client, f"/events/{event.id}/accept", {}, guest.token)
            if response.status_code == 200:
                positions[guest.user.id] = response.json_body["waitlist_position"]
            return response

        return _as_client_would(request)

    with on_the_wire(_slow_dynamodb()) as wire, ThreadPoolExecutor(WORKERS) as pool:
        outcomes = list(pool.map(accept, guests))
    figures = _report("accepts", outcomes)
    assert wire.faults, "no slow call was injected"
    assert all(status < 500 or status == 503 for _, statuses in outcomes for status in statuses)
    assert figures["final"] == Counter({200: 200})
    stored = stored_event(event.id)
    assert (stored.accepted_count, stored.spots_filled, stored.waiting_count) == (50, 50, 150)
    line = _waiting_user_ids(event.id)
    seated = _seated(event.id) - {owner.user.id}
    assert len(line) == 150 and len(seated) == 50 and set(line) | seated == {guest.user.id for guest in guests}
    # the line is in arrival order, and each party was told its place in it
    assert [positions[user_id] for user_id in line] == list(range(1, 151))
    assert all(positions[user_id] is None for user_id in seated)


def _waiting_user_ids(event_id: int) -> list[int]:
    from chalicelib.models.events import EventsTable

    query = EventsTable.query(event_pk(event_id), EventsTable.sk.startswith("WAIT#"), consistent_read=True)
    return [int(item.sk.rsplit("#", 1)[1]) for item in query]


def _seated(event_id: int) -> set[int]:
    from chalicelib.models.events import Invitation

    query = Invitation.query(event_pk(event_id), Invitation.sk.startswith("INV#"), consistent_read=True)
    return {invitation.user_id for invitation in query if invitation.has_accepted}


def test_215_parallel_messages_on_one_event_store_exactly_200(client, override_settings):
    owner = make_person("Olive Owner")
    guests = _guests(215)
    event = make_event(owner, *guests)

    def post(guest: Person):
        return _as_client_would(
            lambda: post_json(client, f"/events/{event.id}/messages", {"body": f"hi from {guest.user.id}"}, guest.token)
        )

    with on_the_wire(_slow_dynamodb()) as wire, ThreadPoolExecutor(WORKERS) as pool:
        outcomes = list(pool.map(post, guests))
    figures = _report("messages", outcomes)
    assert wire.faults, "no slow call was injected"
    assert all(status < 500 or status == 503 for _, statuses in outcomes for status in statuses)
    assert figures["final"] == Counter({201: 200, 409: 15})
    query = Message.query(event_pk(event.id), Message.sk.startswith("MSG#"), consistent_read=True)
    assert len(list(query)) == 200 and stored_event(event.id).message_count == 200
