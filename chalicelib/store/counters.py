"""Rate-limit counters in the auth table: one ``RateCounter`` per (scope, subject, window or bucket),
kept until ``expires_at`` (DynamoDB TTL). Every add that a limit bounds is conditional, so parallel
callers cannot pass the limit (DynamoDB evaluates the condition atomically)."""

from __future__ import annotations

from datetime import datetime

from chalicelib.models.auth import RateCounter, rate_pk
from chalicelib.store.once import update_once


def counter_key(scope: str, subject: str, window: int) -> str:
    return rate_pk(scope, subject, window)


def _add_actions(by: int, expires_at: datetime) -> list:
    return [RateCounter.count.add(by), RateCounter.expires_at.set(expires_at), RateCounter.kind.set(RateCounter)]


def _room_for(by: int, limit: int):
    """The counter is absent, or ``by`` more keeps it within ``limit``."""
    return RateCounter.pk.does_not_exist() | (RateCounter.count <= limit - by)


def limited_add(key: str, by: int, limit: int, expires_at: datetime) -> tuple[RateCounter, list, object]:
    """The item, actions and condition of a bounded add, for a transaction that writes more than the counter."""
    return RateCounter(key), _add_actions(by, expires_at), _room_for(by, limit)


def add_within(key: str, by: int, limit: int, expires_at: datetime) -> None:
    """Add ``by`` while the sum stays within ``limit``, once however often it is sent; raises Refused when it
    would not."""
    update_once(RateCounter(key), _add_actions(by, expires_at), _room_for(by, limit))


def add(key: str, by: int) -> None:
    """Add ``by`` (negative: give units back) without a condition, once however often it is sent."""
    update_once(RateCounter(key), [RateCounter.count.add(by)])


def count_of(key: str) -> int:
    """The counter's value, read consistently; 0 when absent."""
    try:
        return int(RateCounter.get(key, consistent_read=True).count)
    except RateCounter.DoesNotExist:
        return 0
