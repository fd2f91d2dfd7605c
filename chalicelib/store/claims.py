"""Delivery claims in the auth table: ``SENT#<push type>#<occurrence>#<user>#<device>``, taken before a
push is published so a redelivered queue message never sends it twice (see services/push/push_delivery.py).

A claim is "sending" while a worker holds it (its ``nonce``, since ``claimed_at``) and "sent" once SNS
took the push; one left "sending" longer than the lease may be taken over. Claims expire (TTL)."""

from __future__ import annotations

import logging
import secrets
import time
from datetime import datetime, timedelta

from chalicelib.models.auth import CLAIM_DAYS, SentNotification, sent_pk
from chalicelib.store import Refused
from chalicelib.store.once import save_new

log = logging.getLogger("invites")

SENDING, SENT = "sending", "sent"


def claim_key(push_type: str, occurrence: str, user_id: int, device_token: str) -> str:
    return sent_pk(push_type, occurrence, user_id, device_token)


def key_parts(key: str) -> tuple[str, str, int, str]:
    """What a claim's key names: (type, occurrence, user id, device), as :func:`claim_key` made it."""
    _prefix, kind, rest = key.split("#", 2)
    occurrence, user_id, device = rest.rsplit("#", 2)
    return kind, occurrence, int(user_id), device


def claim_delivery(key: str, expires_at: datetime | None, lease_seconds: int) -> SentNotification | None:
    """Take the key (conditional PutItem); None when a delivery already sent it, or is sending it within
    its lease. A claim whose answer was lost, sent again by the SDK, is this delivery's own and taken."""
    now = int(time.time())
    claim = SentNotification(
        key,
        state=SENDING,
        nonce=secrets.token_hex(8),
        claimed_at=now,
        expires_at=expires_at or timedelta(days=CLAIM_DAYS),
    )
    stale = (SentNotification.state == SENDING) & (SentNotification.claimed_at < now - lease_seconds)
    try:
        save_new(claim, SentNotification.pk.does_not_exist() | stale)
    except Refused:
        return None
    return claim


def release_claim(claim: SentNotification) -> None:
    """Give the key back after a failed publish, so the redelivery sends it."""
    try:
        claim.delete(condition=SentNotification.nonce == claim.nonce)
    except Exception:  # noqa: BLE001 - then the lease runs out and the redelivery takes it over
        log.warning("could not release a push claim")


def mark_claim_sent(claim: SentNotification) -> None:
    try:
        claim.update(actions=[SentNotification.state.set(SENT)], condition=SentNotification.nonce == claim.nonce)
    except Exception:  # noqa: BLE001 - the push went out; a "sending" claim still blocks for its lease
        log.warning("could not mark a push claim sent")
