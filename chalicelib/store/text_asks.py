"""The latest text that asked each number for an answer (``ASK#<e164>`` items in the auth table, expiring
through TTL): written once per text when SNS took it, read once per reply. The newest text sent wins, as it
is the one the person last read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from chalicelib.models.auth import AskingText, ask_pk

REMEMBERED = timedelta(days=30)


@dataclass(frozen=True)
class Ask:
    phone_number: str
    event_id: int
    user_id: int
    text_kind: str


def _item(ask: Ask, at: int) -> AskingText:
    expires = datetime.fromtimestamp(at, tz=UTC) + REMEMBERED
    return AskingText(
        ask_pk(ask.phone_number),
        event_id=ask.event_id,
        user_id=ask.user_id,
        text_kind=ask.text_kind,
        asked_at=at,
        expires_at=expires,
    )


def remember(asks: Sequence[Ask], at: int) -> None:
    """The texts of ``asks`` went out at ``at`` (UNIX seconds): one PutItem for one, else a BatchWriteItem per 25."""
    if len(asks) == 1:
        _item(asks[0], at).save()
        return
    with AskingText.batch_write() as batch:
        for ask in asks:
            batch.save(_item(ask, at))


def latest(phone_number: str, now: int) -> Ask | None:
    """The latest text that asked ``phone_number``, if one went out within the last 30 days (one GetItem: TTL
    deletes late, so the age is checked here)."""
    try:
        item = AskingText.get(ask_pk(phone_number), consistent_read=True)
    except AskingText.DoesNotExist:
        return None
    if now - int(item.asked_at) > REMEMBERED.total_seconds():
        return None
    return Ask(phone_number, int(item.event_id), int(item.user_id), item.text_kind)
