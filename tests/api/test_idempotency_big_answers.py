"""An idempotent answer of any size is kept: a repeated Idempotency-Key answers it again and never does the
work twice. DynamoDB refuses items over 400 KB; moto does not, so these tests refuse them on the wire
(tests/utils/aws_faults.py, ``dynamodb_item_limit``)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from chalicelib.models.events import EventsTable
from chalicelib.models.users import User
from chalicelib.store import users as user_store
from tests.utils.api import login, post_json
from tests.utils.aws_faults import ITEM_LIMIT_BYTES, dynamodb_item_limit, on_the_wire
from tests.utils.factories import phone

NAME_LENGTH = 256  # the longest full_name


def _cjk_name(rng: random.Random) -> str:
    return "".join(chr(rng.randint(0x4E00, 0x9FFF)) for _ in range(NAME_LENGTH))


def _registered_people(count: int) -> list[str]:
    """``count`` active users with 256-character CJK names, written straight to the store; their numbers."""
    rng = random.Random(7)
    numbers = [phone() for _ in range(count)]
    now = datetime.now(UTC)
    made = []
    for start in range(0, count, 50):
        made += user_store.create_inactive_users(numbers[start : start + 50], now)
    with User.batch_write() as batch:
        for user in made:
            user.full_name, user.is_active = _cjk_name(rng), True
            batch.save(user)
    return numbers


def _events_of(owner_id: int) -> int:
    return sum(1 for item in EventsTable.scan() if item.sk == "META" and item.owner_id == owner_id)


def test_a_repeat_of_a_create_whose_answer_is_over_400_kb_answers_it_again_and_makes_no_second_event(client):
    owner = login(client, "+14155550931", full_name="Olive Owner")
    numbers = _registered_people(499)  # the owner is the 500th invitee
    fields = {"title": "Festival", "event_date": "2030-06-01T12:00:00Z", "invite_phone_numbers": numbers}
    headers = {"Idempotency-Key": "big-1"}
    with on_the_wire(dynamodb_item_limit):
        first = post_json(client, "/events", fields, owner["auth_token"], headers=headers)
        again = post_json(client, "/events", fields, owner["auth_token"], headers=headers)
    assert first.status_code == 201 and len(first.body) > 2 * ITEM_LIMIT_BYTES
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.body == first.body
    assert _events_of(owner["id"]) == 1
