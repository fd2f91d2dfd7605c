"""The auth table: short-lived login state, all of it expiring through DynamoDB TTL.

| item         | pk                                  |
|--------------|-------------------------------------|
| Pin          | PIN#<e164>                          |
| RateCounter  | RATE#<scope>#<subject>#<window>     |
| SentNotification | SENT#<type>#<occurrence>#<user id>#<device> |
"""

from __future__ import annotations

from pynamodb.attributes import DiscriminatorAttribute, NumberAttribute, TTLAttribute, UnicodeAttribute

from chalicelib.models.base import TableModel, table_meta


def pin_pk(e164: str) -> str:
    return f"PIN#{e164}"


def sent_pk(push_type: str, occurrence: str, user_id: int, device: str) -> str:
    return f"SENT#{push_type}#{occurrence}#{user_id}#{device}"


def rate_pk(scope: str, subject: str, window: int) -> str:
    return f"RATE#{scope}#{subject}#{window}"


class AuthTable(TableModel):
    Meta = table_meta("auth_table")

    pk = UnicodeAttribute(hash_key=True)
    kind = DiscriminatorAttribute()


class Pin(AuthTable, discriminator="pin"):
    """A pin, kept only as an HMAC. ``nonce`` tells one issued pin from the next."""

    pin_hmac = UnicodeAttribute()
    nonce = UnicodeAttribute()
    attempts = NumberAttribute(default=0)
    expires_at = TTLAttribute()


class RateCounter(AuthTable, discriminator="rate"):
    """Requests counted in one fixed window; the item expires with its window."""

    count = NumberAttribute(default=0)
    expires_at = TTLAttribute()


class SentNotification(AuthTable, discriminator="sent"):
    """One push to one device, claimed before it is sent, so a redelivered queue message never sends
    it twice. ``state`` is "sending" while a worker holds the claim (``nonce``, since ``claimed_at``),
    "sent" once SNS took it; a claim left "sending" longer than the lease may be taken over."""

    state = UnicodeAttribute()
    nonce = UnicodeAttribute()
    claimed_at = NumberAttribute()
    expires_at = TTLAttribute()
