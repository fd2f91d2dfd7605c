"""services.contacts: batch retries of unprocessed keys and items, partial failures."""

from __future__ import annotations

import base64

import pytest
from pynamodb.connection.base import Connection
from pynamodb.connection.table import TableConnection

from chalicelib.api.contacts_input import parse_favorites
from chalicelib.errors import ServiceUnavailable
from chalicelib.models.events import Invitation, event_pk, invitation_sk
from chalicelib.models.users import PHONE_SK, PROFILE_SK, Favorite, PhoneClaim, User, phone_pk, user_pk
from chalicelib.services.contacts import contacts
from chalicelib.services.identity import users
from chalicelib.store import batch as store_batch
from tests.utils.avatars import stored_objects
from tests.utils.factories import make_event, make_person
from tests.utils.images import jpeg


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch):
    monkeypatch.setattr(store_batch, "_pause", lambda attempt: None)


# Batches


def _make_users(count: int) -> list[User]:
    return [users.find_or_create_user(f"+1212555{i:04d}", active=True)[0] for i in range(count)]


def _batch_gets(monkeypatch, answer):
    """Every BatchGetItem goes through ``answer(send, request)``; ``send`` makes the real call."""
    original = Connection.dispatch

    def dispatch(self, operation, kwargs):
        if operation != "BatchGetItem":
            return original(self, operation, kwargs)
        return answer(lambda request: original(self, operation, {"RequestItems": request}), kwargs["RequestItems"])

    monkeypatch.setattr(Connection, "dispatch", dispatch)


def test_batch_get_retries_unprocessed_keys(aws, monkeypatch):
    people = _make_users(6)
    calls = []

    def half_processed(send, request):
        ((table, wanted),) = request.items()
        calls.append(len(wanted["Keys"]))
        if len(calls) == 1:  # DynamoDB answers only the first half and hands back the rest
            answer = send({table: {**wanted, "Keys": wanted["Keys"][:3]}})
            answer["UnprocessedKeys"] = {table: {"Keys": wanted["Keys"][3:]}}
            return answer
        return send(request)

    _batch_gets(monkeypatch, half_processed)
    found = store_batch.batch_get(User, [(user_pk(p.id), PROFILE_SK) for p in people])
    assert sorted(u.id for u in found) == sorted(p.id for p in people)
    assert calls == [6, 3]


def test_a_read_over_two_tables_retries_what_each_left(aws, monkeypatch):
    people = [make_person("Olivia Owner"), make_person("Gus Guest")]
    event = make_event(*people)
    asked = []

    def one_key_per_table_first(send, request):
        asked.append({table: len(wanted["Keys"]) for table, wanted in request.items()})
        if len(asked) > 1:
            return send(request)
        answer = send({table: {**wanted, "Keys": wanted["Keys"][:1]} for table, wanted in request.items()})
        left = {table: {"Keys": wanted["Keys"][1:]} for table, wanted in request.items() if len(wanted["Keys"]) > 1}
        return {**answer, "UnprocessedKeys": left}

    _batch_gets(monkeypatch, one_key_per_table_first)
    found = store_batch.batch_get_tables(
        {
            User: [(user_pk(p.id), PROFILE_SK) for p in people],
            Invitation: [(event_pk(event.id), invitation_sk(p.id)) for p in people],
        },
        consistent_read=True,
    )
    assert sorted(u.id for u in found[User]) == sorted(p.id for p in people)
    assert sorted(i.user_id for i in found[Invitation]) == sorted(p.id for p in people)
    assert asked == [{"test-users": 2, "test-events": 2}, {"test-users": 1, "test-events": 1}]


def test_batch_get_gives_up_with_503_when_keys_stay_unprocessed(aws, monkeypatch):
    _batch_gets(monkeypatch, lambda send, request: {"Responses": {}, "UnprocessedKeys": request})
    with pytest.raises(ServiceUnavailable):
        store_batch.batch_get(User, [(user_pk(1), PROFILE_SK)])


def test_batch_get_filters_by_model_and_ignores_missing_and_duplicate_keys(aws):
    (person,) = _make_users(1)
    keys = [(phone_pk(person.phone_number), PHONE_SK), (user_pk(person.id), PROFILE_SK), (phone_pk("+1999"), PHONE_SK)]
    claims = store_batch.batch_get(PhoneClaim, keys + keys)
    assert [c.user_id for c in claims] == [person.id]


def _favorites(owner_id: int, count: int) -> list[Favorite]:
    from chalicelib.timeutil import utcnow

    return [
        Favorite(
            user_pk(owner_id),
            f"FAV#+1212555{i:04d}",
            id=i + 1,
            fav_phone=f"+1212555{i:04d}",
            created=utcnow(),
        )
        for i in range(count)
    ]


def test_batch_write_retries_unprocessed_items_and_reports_what_was_written(aws, monkeypatch):
    original = TableConnection.batch_write_item
    calls = []

    def one_left_over(self, put_items=None, delete_items=None, **kwargs):
        calls.append(len(put_items or delete_items))
        if len(calls) == 1:
            answer = original(self, put_items=put_items[:-1], **kwargs)
            answer["UnprocessedItems"] = {self.table_name: [{"PutRequest": {"Item": put_items[-1]}}]}
            return answer
        return original(self, put_items=put_items, delete_items=delete_items, **kwargs)

    monkeypatch.setattr(TableConnection, "batch_write_item", one_left_over)
    items = _favorites(7, 5)
    written: set[str] = set()
    store_batch.batch_write(items, written=written)
    assert calls == [5, 1] and written == {item.sk for item in items}
    assert len(list(Favorite.query(user_pk(7)))) == 5


def test_batch_write_gives_up_with_503_and_tells_what_was_written(aws, monkeypatch):
    original = TableConnection.batch_write_item

    def last_never_written(self, put_items=None, delete_items=None, **kwargs):
        answer = original(self, put_items=put_items[:-1], **kwargs) if len(put_items) > 1 else {}
        answer["UnprocessedItems"] = {self.table_name: [{"PutRequest": {"Item": put_items[-1]}}]}
        return answer

    monkeypatch.setattr(TableConnection, "batch_write_item", last_never_written)
    items = _favorites(7, 3)
    written: set[str] = set()
    with pytest.raises(ServiceUnavailable):
        store_batch.batch_write(items, written=written)
    assert written == {items[0].sk, items[1].sk}


def test_a_write_failing_midway_leaves_no_orphan_photo_and_no_broken_link(aws, monkeypatch, override_settings):
    """30 entries with photos: the first 25 written, the last 5 fail; S3 matches the table exactly."""
    override_settings(favorite_photos_per_request=30)
    owner, _ = users.find_or_create_user("+14155550900", active=True)
    photo = base64.b64encode(jpeg(32, 32, "navy")).decode()
    body = [{"phone_number": f"+1212555{i:04d}", "contact_name": f"n{i}", "photo": photo} for i in range(30)]
    original = TableConnection.batch_write_item

    def second_chunk_fails(self, put_items=None, delete_items=None, **kwargs):
        if put_items and len(put_items) < store_batch.BATCH_WRITE_ITEMS:
            raise RuntimeError("BatchWriteItem failed")
        return original(self, put_items=put_items, delete_items=delete_items, **kwargs)

    monkeypatch.setattr(TableConnection, "batch_write_item", second_chunk_fails)
    with pytest.raises(RuntimeError):
        contacts.save_favorites(owner, parse_favorites(body, with_details=True))
    stored = list(Favorite.query(user_pk(owner.id)))
    assert len(stored) == 25
    assert stored_objects() == sorted(favorite.photo_key for favorite in stored)


def test_users_by_phone_takes_20_batch_gets_for_a_thousand_numbers(aws, monkeypatch):
    caller, _ = users.find_or_create_user("+14155550900", active=True)
    numbers = [f"+1650253{i:04d}" for i in range(1000)]
    from chalicelib.models.users import UsersTable
    from chalicelib.timeutil import utcnow

    with UsersTable.batch_write() as batch:
        for i, number in enumerate(numbers):
            batch.save(PhoneClaim(phone_pk(number), PHONE_SK, user_id=20_000 + i))
            batch.save(
                User(
                    user_pk(20_000 + i),
                    PROFILE_SK,
                    id=20_000 + i,
                    phone_number=number,
                    is_active=i % 2 == 0,
                    created=utcnow(),
                    modified=utcnow(),
                )
            )
    contacts.users_by_phone(caller, numbers[:1])  # PynamoDB caches the table description
    aws.reset()
    rows = contacts.users_by_phone(caller, numbers)
    assert [number for number, _ in rows] == numbers[::2]  # inactive users left out
    # the lookup, the lookup log read, and the conditional UpdateItem charging it
    assert aws.of("dynamodb") == {"BatchGetItem": 21, "UpdateItem": 1}
