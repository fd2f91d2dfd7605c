"""Bearer tokens: ``<user id>.<secret>``, kept only as a SHA-256, so one BatchGetItem reads both the token and
its user. Every request authenticates here; logging in (auth.py) issues them."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from chalicelib.config import get_settings
from chalicelib.errors import InvalidToken
from chalicelib.store import tokens
from chalicelib.timeutil import utcnow


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token(user) -> tuple:
    """A new token for ``user`` and its item, not yet saved."""
    token = f"{user.id}.{secrets.token_urlsafe(32)}"
    now = utcnow()
    expires = now + timedelta(days=get_settings().token_ttl_days)
    return token, tokens.new_token(user.id, hash_token(token), now, expires)


def authenticate(token: str, *, event_id: int | None = None) -> tuple:
    """The caller holding ``token``, in one BatchGetItem. ``event_id``: the event the request names, whose
    invitation of the caller the same call reads (the role check's first read, store.invitations.own_invitation)."""
    user_id, dot, secret = token.partition(".")
    if not dot or not (user_id.isascii() and user_id.isdigit()) or not secret or len(token) > 200:
        raise InvalidToken()
    user, stored = tokens.user_and_token(int(user_id), hash_token(token), invitation_of=event_id)
    if user is None or stored is None:
        raise InvalidToken()
    if stored.expires_at <= utcnow():
        raise InvalidToken()
    return user, token
