"""The auth table: short-lived login state, all of it expiring through DynamoDB TTL.

| item         | pk                                  |
|--------------|-------------------------------------|
| Pin          | PIN#<e164>                          |
| RateCounter  | RATE#<scope>#<subject>#<window>     |
"""

from __future__ import annotations

from pynamodb.attributes import DiscriminatorAttribute, NumberAttribute, TTLAttribute, UnicodeAttribute
from pynamodb.models import Model

from chalicelib.models.base import table_meta


def pin_pk(e164: str) -> str:
    return f"PIN#{e164}"


def rate_pk(scope: str, subject: str, window: int) -> str:
    return f"RATE#{scope}#{subject}#{window}"


class AuthTable(Model):
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
