"""Texts to guests without an account who were seated from a waitlist, or taken out of it because their
party no longer fits: each at most once per event,
behind a delivery claim (``SENT#waitlist_promoted#<event>#<user>#sms``) like a push, so a queue
message delivered again texts nobody twice. When the checks before the texts fail (the stop list's key or
table, SNS's opt-out list, the month's text budget's counter), the claims are released and the message fails, so
the queue delivers it again."""

from __future__ import annotations

from chalicelib.config import get_settings
from chalicelib.messaging.notifications.kinds import QueueKind
from chalicelib.messaging.notifications.messages import RetryLater, event_expiry
from chalicelib.services.texts.invitation_texts import dropped_text, promotion_text, send_promotion_texts
from chalicelib.store import claims

SMS_DEVICE = "sms"


def text_promoted(owner, event, people: list, links: dict[int, str]) -> None:
    _text_once(QueueKind.WAITLIST_PROMOTED, owner, event, people, links)


def text_dropped(owner, event, people: list, links: dict[int, str]) -> None:
    """Guests taken out of the line because their party no longer fits (claim ``SENT#waitlist_dropped#...``)."""
    _text_once(QueueKind.WAITLIST_DROPPED, owner, event, people, links)


def _text_once(kind: str, owner, event, people: list, links: dict[int, str]) -> None:
    lease = get_settings().notification_lease_seconds
    claimed = []
    for person in people:
        key = claims.claim_key(kind, str(event.id), person.id, SMS_DEVICE)
        claim = claims.claim_delivery(key, event_expiry(event), lease)
        if claim is not None:
            claimed.append((person, claim))
    if not claimed:
        return
    wording = dropped_text if kind == QueueKind.WAITLIST_DROPPED else promotion_text
    try:
        send_promotion_texts(owner, event, [person for person, _ in claimed], links, wording=wording)
    except Exception as exc:  # the stop list, the opt-out check or the budget's count failed: nothing was sent
        for _, claim in claimed:
            claims.release_claim(claim)
        raise RetryLater("waitlist texts not sent: a check before them failed") from exc
    for _, claim in claimed:
        claims.mark_claim_sent(claim)
