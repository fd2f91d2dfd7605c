"""Single-item writes that must not happen twice when their answer is lost.

botocore retries a write whose answer did not come back (a read timeout). A SET is the same when applied
twice; an ADD to a counter is not, and a conditional write retried after it was applied fails its own
condition. Such a write is sent here as a one-item transaction: its ``ClientRequestToken``
(chalicelib/models/base.py, chalicelib/write_tokens.py) makes DynamoDB apply it once however often it is sent,
without a marker in the item. The price: a transactional write costs two write units instead of one.

Refusals come back as :class:`~chalicelib.store.Refused` (item 0), as from any write of the store.
"""

from __future__ import annotations

from collections.abc import Sequence

from chalicelib.models.base import transact_write
from chalicelib.store import Refused, refusals


def update_once(item, actions: list, condition=None, also: Sequence = ()) -> None:
    """``item.update(actions, condition)``, applied once, with the items ``also`` saved in the same transaction.
    The item object is not refreshed from the answer (a transaction returns no values): read it again when its
    new values are needed."""
    with refusals(), transact_write() as transaction:
        transaction.update(item, actions=actions, condition=condition)
        for other in also:
            transaction.save(other)


def delete_once(item, condition) -> None:
    """``item.delete(condition)``, applied once: a retry of a delete that was applied does not fail its own
    condition on the item it removed."""
    with refusals(), transact_write() as transaction:
        transaction.delete(item, condition=condition)


def save_new(item, condition) -> None:
    """Save a new item on its "not there yet" ``condition``. When refused, a stored item equal to this one in
    every attribute (its id and time drawn by this request) is this request's own earlier write, applied
    before its answer was lost and the SDK sent it again: done. Otherwise raises Refused. Costs one
    consistent GetItem, only when refused."""
    try:
        with refusals():
            item.save(condition=condition)
        return
    except Refused:
        if not _stored_as(item):
            raise


def marked_update(item, actions: list, condition, marker, mark: str):
    """``item.update`` (values returned) that also sets the attribute ``marker`` to ``mark``, a value drawn for
    this one write, and is refused when the stored item already holds it. When refused, a stored item with
    ``mark`` is this write's own, applied before its answer was lost: it is returned, read consistently, not
    applied again. For a counted write (an ADD) that cannot pay a transaction's second write unit and whose
    values the caller needs. Otherwise raises Refused; costs one consistent GetItem, only when refused."""
    not_yet = marker.does_not_exist() | (marker != mark)
    try:
        with refusals():
            item.update(actions=[*actions, marker.set(mark)], condition=condition & not_yet)
        return item
    except Refused:
        stored = _stored(item)
        found = type(item).from_raw_data(stored) if stored is not None else None
        if found is None or getattr(found, marker.attr_name) != mark:
            raise
        return found


def _stored(item) -> dict | None:
    hash_key, range_key = item._get_hash_range_key_serialized_values()
    answer = item._get_connection().get_item(hash_key, range_key=range_key, consistent_read=True)
    return answer.get("Item")


def _stored_as(item) -> bool:
    return _stored(item) == item.serialize()
