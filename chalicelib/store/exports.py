"""The export record of a user (``USER#<id>`` / ``EXPORT``).

One record per user: ``state`` "pending" from the request until the file is written, then "ready"
with the object's key. A new request replaces it only when none is pending (or the pending one is
older than the lease: its worker died), conditionally on the record it read, so parallel requests
start one export. The record expires (TTL) with its file.
"""

from __future__ import annotations

from datetime import datetime

from pynamodb.exceptions import PutError, UpdateError

from chalicelib.aws_errors import condition_failed
from chalicelib.models.users import EXPORT_SK, ExportRecord, user_pk

PENDING, READY = "pending", "ready"


def get_record(user_id: int) -> ExportRecord | None:
    try:
        return ExportRecord.get(user_pk(user_id), EXPORT_SK, consistent_read=True)
    except ExportRecord.DoesNotExist:
        return None


def start(user_id: int, nonce: str, now: datetime, expires_at: datetime, replacing: ExportRecord | None) -> bool:
    """Put a pending record in place of ``replacing`` (the one read, or none); False when another request
    changed it meanwhile."""
    record = ExportRecord(user_pk(user_id), EXPORT_SK, state=PENDING, nonce=nonce, requested=now, expires_at=expires_at)
    unchanged = ExportRecord.sk.does_not_exist() if replacing is None else ExportRecord.nonce == replacing.nonce
    try:
        record.save(condition=unchanged)
    except PutError as exc:
        if condition_failed(exc):
            return False
        raise
    return True


def mark_ready(user_id: int, nonce: str, object_key: str, now: datetime, expires_at: datetime) -> bool:
    """The file of request ``nonce`` is written; False when the record is another request's (or gone)."""
    record = ExportRecord(user_pk(user_id), EXPORT_SK)
    try:
        record.update(
            actions=[
                ExportRecord.state.set(READY),
                ExportRecord.object_key.set(object_key),
                ExportRecord.ready_at.set(now),
                ExportRecord.expires_at.set(expires_at),
            ],
            condition=ExportRecord.nonce == nonce,
        )
    except UpdateError as exc:
        if condition_failed(exc):
            return False
        raise
    return True
