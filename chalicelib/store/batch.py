"""Batch reads and writes, and raw keys-only index queries: the one implementation for every table.

BatchGetItem takes at most 100 keys and BatchWriteItem 25 requests; DynamoDB may leave part of either
unprocessed (throttling, size), which is retried here with backoff, and is a 503 once the attempts
are spent. The chunks of one call go out side by side (one sequential round).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from typing import TypeVar

from pynamodb.connection.base import BOTOCORE_EXCEPTIONS
from pynamodb.exceptions import GetError
from pynamodb.models import Model

from chalicelib.errors import ServiceUnavailable
from chalicelib.models.base import TableModel
from chalicelib.parallel import chunks, parallel_map
from chalicelib.retry import AttemptsSpent, TryAgain, retry

log = logging.getLogger(__name__)

BATCH_GET_KEYS = 100  # DynamoDB's limit of keys in one BatchGetItem
BATCH_WRITE_ITEMS = 25  # DynamoDB's limit of requests in one BatchWriteItem
BATCH_ATTEMPTS = 5  # a call plus retries of what DynamoDB left unprocessed

M = TypeVar("M", bound=Model)


def _pause(attempt: int) -> float:
    """Exponential backoff with full jitter before retrying what DynamoDB left unprocessed: the seconds."""
    return random.uniform(0, 0.05 * 2**attempt)


def _retrying_unprocessed(attempt, what: str, left) -> None:
    """Run ``attempt`` (which raises TryAgain while items are left) up to BATCH_ATTEMPTS times; 503 after."""
    try:
        retry(attempt, attempts=BATCH_ATTEMPTS, pause=lambda number: _pause(number) or 0)
    except AttemptsSpent:
        log.warning("%s: %d items still unprocessed", what, len(left()))
        raise ServiceUnavailable() from None


Key = str | tuple[str] | tuple[str, str]  # a hash key alone (the auth table), or (hash key, range key)


def _raw_key(key: Key) -> dict:
    """DynamoDB's form of a key of this data model (string ``pk``, and ``sk`` where the table has one)."""
    parts = (key,) if isinstance(key, str) else key
    raw = {"pk": {"S": parts[0]}}
    if len(parts) > 1:
        raw["sk"] = {"S": parts[1]}
    return raw


def _table_model(model: type[Model]) -> type[Model]:
    """The table's own model class (``UsersTable``) of a model or of one of its item kinds (``User``)."""
    for cls in model.__mro__:
        if TableModel in cls.__bases__:
            return cls
    return model


def batch_get(model: type[M], keys: Sequence[Key], *, consistent_read: bool = False) -> list[M]:
    """The items at ``keys`` (pk, or (pk, sk)) of ``model``'s table that are ``model`` items; missing ones left out.

    Duplicate keys are read once. One BatchGetItem per 100 keys, the calls side by side."""
    unique = list(dict.fromkeys(keys))
    found = parallel_map(
        lambda chunk: batch_get_chunk(model, chunk, consistent_read=consistent_read), chunks(unique, BATCH_GET_KEYS)
    )
    return [item for chunk in found for item in chunk]


def batch_get_chunk(model: type[M], keys: Sequence[Key], *, consistent_read: bool = False) -> list[M]:
    """One BatchGetItem of at most 100 distinct keys, retrying its UnprocessedKeys (for callers that run it
    side by side with other calls)."""
    return [item for item in batch_get_tables({model: keys}, consistent_read=consistent_read)[model]]


def batch_get_tables(keys: dict[type[Model], Sequence[Key]], *, consistent_read: bool = False) -> dict[type, list]:
    """One BatchGetItem over the tables of several models (at most 100 distinct keys in all), retrying its
    UnprocessedKeys: for each model, its items at its keys (those that are that model's items)."""
    tables = {model: _table_model(model) for model in keys}
    names = {model: table.Meta.table_name for model, table in tables.items()}
    distinct: dict[str, dict] = {}  # DynamoDB refuses a key named twice in one request
    for model, model_keys in keys.items():
        distinct.setdefault(names[model], {}).update(dict.fromkeys(model_keys))
    pending = {name: [_raw_key(key) for key in table_keys] for name, table_keys in distinct.items()}
    found: dict[type, list] = {model: [] for model in keys}
    connection = next(iter(tables.values()))._get_connection().connection

    def attempt(_number: int) -> None:
        nonlocal pending
        request = {name: {"Keys": table_keys} for name, table_keys in pending.items()}
        if consistent_read:
            for table_request in request.values():
                table_request["ConsistentRead"] = True
        try:
            data = connection.dispatch("BatchGetItem", {"RequestItems": request})
        except BOTOCORE_EXCEPTIONS as exc:
            raise GetError(f"Failed to batch get items: {exc}", exc) from exc
        responses = data.get("Responses", {})
        for model, table in tables.items():
            for raw in responses.get(names[model], []):
                item = table.from_raw_data(raw)
                if isinstance(item, model):
                    found[model].append(item)
        unprocessed = data.get("UnprocessedKeys", {})
        pending = {name: left["Keys"] for name, left in unprocessed.items() if left.get("Keys")}
        if pending:
            raise TryAgain()

    _retrying_unprocessed(attempt, "BatchGetItem", lambda: [key for left in pending.values() for key in left])
    return found


def batch_write(items: Sequence[Model], *, delete: bool = False, written: set[str]) -> None:
    """Put (or delete) ``items`` of one table, 25 a BatchWriteItem, the calls side by side.

    The sort key of every item known to be written is added to ``written`` as it goes, so a caller can
    tell what happened when this raises (503 when DynamoDB keeps items unprocessed)."""
    parallel_map(lambda chunk: _batch_write_chunk(chunk, delete, written), chunks(list(items), BATCH_WRITE_ITEMS))


def _batch_write_chunk(items: Sequence[Model], delete: bool, written: set[str]) -> None:
    table_model = _table_model(type(items[0]))
    connection = table_model._get_connection()
    table = table_model.Meta.table_name
    pending = {item.sk: item for item in items}

    def attempt(_number: int) -> None:
        nonlocal pending
        if delete:
            data = connection.batch_write_item(delete_items=[_raw_key((i.pk, i.sk)) for i in pending.values()])
        else:
            data = connection.batch_write_item(put_items=[i.serialize() for i in pending.values()])
        left = set()
        for request in data.get("UnprocessedItems", {}).get(table, []):
            raw = request["DeleteRequest"]["Key"] if "DeleteRequest" in request else request["PutRequest"]["Item"]
            left.add(raw["sk"]["S"])
        written.update(sk for sk in pending if sk not in left)  # threads only add: safe under the GIL
        pending = {sk: item for sk, item in pending.items() if sk in left}
        if pending:
            raise TryAgain()

    _retrying_unprocessed(attempt, "BatchWriteItem", lambda: pending)


def index_keys(model: type[Model], index_name: str, hash_key: str, range_key_condition=None) -> list[dict[str, str]]:
    """The string attributes of every item of a keys-only index, every page: ``[{"pk": ..., "sk": ...}]``.

    PynamoDB's model queries filter on the ``kind`` discriminator, which a keys-only index does not project,
    so these are read raw."""
    connection = _table_model(model)._get_connection()
    items, start = [], None
    while True:
        page = connection.query(
            hash_key, range_key_condition=range_key_condition, index_name=index_name, exclusive_start_key=start
        )
        items += [{name: value["S"] for name, value in raw.items() if "S" in value} for raw in page.get("Items", [])]
        start = page.get("LastEvaluatedKey")
        if not start:
            return items
