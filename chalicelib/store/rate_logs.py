"""Rolling-limit logs in the auth table: one ``RateLog`` per (scope, subject) holding the charges still
inside the limit's period. A log is rewritten whole, conditional on the version read, so parallel
charges of one subject take turns (services/ratelimit.py decides what fits)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from chalicelib.models.auth import RateLog, rate_log_pk
from chalicelib.models.base import transact_write
from chalicelib.store import refusals
from chalicelib.store.batch import batch_get


@dataclass(frozen=True)
class LogWrite:
    """A log's new charges (oldest first), written only if it still has ``version_read`` (0: absent)."""

    key: str
    charges: list[tuple[float, int]]
    version_read: int
    expires_at: datetime


def log_key(scope: str, subject: str) -> str:
    return rate_log_pk(scope, subject)


def read_logs(keys: list[str]) -> dict[str, tuple[list[tuple[float, int]], int]]:
    """``{key: (charges, version)}`` of the logs that exist, read consistently (100 a BatchGetItem)."""
    found = {}
    for item in batch_get(RateLog, keys, consistent_read=True):
        charges = [(float(when), int(spent)) for when, spent in zip(item.times or [], item.amounts or [], strict=True)]
        found[item.pk] = (charges, int(item.version or 0))
    return found


def add_to(transaction, write: LogWrite) -> None:
    """Put ``write`` into ``transaction`` (one item), conditional on the version it was read at."""
    log = RateLog(
        write.key,
        times=[when for when, _ in write.charges],
        amounts=[spent for _, spent in write.charges],
        version=write.version_read + 1,
        expires_at=write.expires_at,
    )
    version = write.version_read
    transaction.save(log, condition=RateLog.pk.does_not_exist() if version == 0 else RateLog.version == version)


def write_logs(writes: list[LogWrite]) -> None:
    """Write the logs in one transaction (at most 100); Refused or Contended when any moved meanwhile."""
    with refusals(), transact_write() as transaction:
        for write in writes:
            add_to(transaction, write)
