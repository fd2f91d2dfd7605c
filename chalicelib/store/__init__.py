"""The data-access layer: every table read and write, one module per aggregate.

users.py (profiles and phone claims), tokens.py (pins and bearer tokens), devices.py (push devices and their
owners), favorites.py, events.py (an event's partition), invitations.py (replies, new invitations),
waitlist.py, conversation.py (messages, polls, time suggestions), counters.py and rate_logs.py (rate limits),
claims.py (delivery claims), stop_list.py, exports.py (the export record), account_deletion.py (closing an
account and its cascade); batch.py holds the batch reads and writes every table shares and records.py names
the records handed to the layers above. The models and their keys are in chalicelib/models (every item kind
of a table in that table's module); every model and transaction runs on the one DynamoDB client of
chalicelib/models/base.py.

Services catch the outcomes below, never PynamoDB's errors: a store function turns a refused write
into :class:`Refused` and a transaction cancelled by another one writing the same items into
:class:`Contended`.
"""

from __future__ import annotations

from contextlib import contextmanager

from chalicelib.aws_errors import cancellation_codes, condition_failed, conflicted


class Refused(Exception):
    """A conditional write was refused: what it assumed no longer holds. ``items`` are the positions (in
    the order sent) of a transaction's items whose condition failed; empty for a single write."""

    def __init__(self, items: tuple[int, ...] = ()):
        super().__init__(f"refused: {items}" if items else "refused")
        self.items = items

    def item_failed(self, position: int) -> bool:
        """True when the item at ``position`` of the transaction was the refused one."""
        return position in self.items


class Contended(Exception):
    """A transaction was cancelled because another one was writing the same items: try again."""


@contextmanager
def refusals():
    """Turn PynamoDB's refused writes and conflicted transactions raised in the block into
    :class:`Refused` and :class:`Contended`; anything else passes unchanged."""
    from pynamodb.exceptions import PynamoDBException

    try:
        yield
    except PynamoDBException as exc:
        if conflicted(exc):
            raise Contended() from exc
        if condition_failed(exc):
            codes = cancellation_codes(exc)
            failed = tuple(n for n, code in enumerate(codes) if code is not None and condition_failed(exc, n))
            raise Refused(failed) from exc
        raise
