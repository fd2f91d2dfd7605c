"""Login by pin, bearer tokens, and their limits (openapi.yaml, tag "auth").

Pins are 6 random digits kept only as an HMAC under the server key, for 10 minutes, single use,
void after 5 wrong tries. Tokens are ``<user id>.<secret>`` and kept only as a SHA-256, so one
BatchGetItem reads both the token and its user.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from datetime import timedelta

from pynamodb.exceptions import DeleteError, TransactWriteError, UpdateError

from chalicelib import notify
from chalicelib.config import get_settings
from chalicelib.errors import InvalidToken, NotAuthenticated, Throttled, ValidationError
from chalicelib.models.auth import Pin, RateCounter, pin_pk
from chalicelib.models.base import transact_write
from chalicelib.models.users import PROFILE_SK, PhoneClaim, Token, User, UsersTable, token_sk, user_pk
from chalicelib.parallel import parallel_map
from chalicelib.pinkey import pin_key
from chalicelib.services import notifications, users
from chalicelib.services.ratelimit import Limit, address_subject, hit
from chalicelib.store.batch import batch_get
from chalicelib.store.conditions import condition_failed
from chalicelib.timeutil import utcnow

INVALID_PIN = "Invalid pin."
PIN_DIGITS = 6


def _pin_hmac(e164: str, pin: str) -> str:
    # deployed stages: the SSM key, 503 without one (never the public development key)
    return hmac.new(pin_key(), f"{e164}:{pin}".encode(), hashlib.sha256).hexdigest()


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _sms_limits(e164: str, source_ip: str) -> list[Limit]:
    settings = get_settings()
    return [
        Limit("sms-number", e164, settings.auth_sms_per_number, settings.auth_sms_number_window_seconds),
        Limit("sms-ip", address_subject(source_ip), settings.auth_sms_per_ip_per_hour),
    ]


def request_pin(e164: str, source_ip: str) -> None:
    """Issue a pin for ``e164`` and text it. The limits and the pin are written in one transaction,
    and undone when the text cannot be sent, so a failed send costs the caller nothing."""
    settings = get_settings()
    now = time.time()
    limits = _sms_limits(e164, source_ip)
    pin = f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
    nonce = secrets.token_hex(8)
    item = Pin(
        pin_pk(e164),
        pin_hmac=_pin_hmac(e164, pin),
        nonce=nonce,
        attempts=0,
        expires_at=timedelta(seconds=settings.pin_ttl_seconds),
    )
    try:
        with transact_write() as transaction:
            for limit in limits:
                counter = _counter(limit, now)
                transaction.update(
                    counter, actions=limit.increment_actions(now), condition=limit.below_limit_condition()
                )
            transaction.save(item)
    except TransactWriteError as exc:
        # PynamoDB sends puts before updates: the counters' reasons are the last ones.
        for position, limit in enumerate(limits, start=-len(limits)):
            if condition_failed(exc, position):
                raise Throttled(limit.retry_after(now)) from None
        raise
    try:
        notify.send_sms(e164, f"Your {settings.service_name} pin is {pin}.")
    except Exception:
        _undo_pin(item, limits, now)
        raise


def _counter(limit: Limit, now: float):
    return RateCounter(limit.key(now))


def _undo_pin(item: Pin, limits: list[Limit], now: float) -> None:
    with transact_write() as transaction:
        for limit in limits:
            transaction.update(_counter(limit, now), actions=[limit.increment_actions(now, by=-1)[0]])
        transaction.delete(item, condition=Pin.nonce == item.nonce)


def verify_pin(e164: str, pin: str, source_ip: str) -> tuple[User, str]:
    """Spend one try of the pin; on a match, consume it and log the user in with a new token.

    Every try also counts against the caller's address (429 beyond the hourly limit, and then the
    try costs the pin nothing), so one address cannot void other people's pins by the thousand.
    Three rounds: the address count, the try and the phone claim read side by side; the user read
    (or made); one transaction that consumes the pin, stores the token and activates a former
    invitee."""
    item, claim = _checked_pin(e164, pin, source_ip)
    user, created = users.user_for_login(e164, claim)
    activating = not user.is_active
    token, token_item = _new_token(user)
    try:
        with transact_write() as transaction:
            transaction.delete(item, condition=Pin.nonce == item.nonce)
            transaction.save(token_item)
            if activating:
                transaction.update(user, actions=[User.is_active.set(True), User.modified.set(utcnow())])
    except TransactWriteError as exc:
        if condition_failed(exc, 0):  # used by a parallel request meanwhile
            raise ValidationError.field("pin", INVALID_PIN) from None
        raise
    if activating:
        user.is_active = True
    if created or activating:  # first login: tell the people who keep this number as a favorite
        notifications.enqueue(notifications.CONTACT_JOINED, user_id=user.id)
    return user, token


def _checked_pin(e164: str, pin: str, source_ip: str) -> tuple[Pin, PhoneClaim | None]:
    """Spend one try of the pin (within the address's limit) and compare it; 400 when it does not match.
    Returns the pin item (to be consumed by the caller) and the number's phone claim."""
    pin_key()  # a stage without its key answers 503 before a try is spent
    item = Pin(pin_pk(e164))
    claim = _first_round(item, e164, source_ip)
    expired = item.expires_at is None or item.expires_at.timestamp() <= time.time()
    if expired or not hmac.compare_digest(item.pin_hmac, _pin_hmac(e164, pin)):
        raise ValidationError.field("pin", INVALID_PIN)
    return item, claim


def prove_number(e164: str, pin: str, source_ip: str) -> int | None:
    """Check and consume a pin as ``verify_pin`` does, with its limits, without logging in: the id of the
    user holding the number (None when nobody does). For acts on an account outside the app."""
    item, claim = _checked_pin(e164, pin, source_ip)
    try:
        item.delete(condition=Pin.nonce == item.nonce)
    except DeleteError as exc:
        if condition_failed(exc):  # used by a parallel request meanwhile
            raise ValidationError.field("pin", INVALID_PIN) from None
        raise
    return claim.user_id if claim is not None else None


def _first_round(item: Pin, e164: str, source_ip: str) -> PhoneClaim | None:
    """Count the try against the address and the pin side by side, and read the phone claim.
    Over the address limit: the pin's try is given back (if it was spent) and the answer is 429."""
    limit = Limit("verify-ip", address_subject(source_ip), get_settings().auth_verify_per_ip_per_hour)

    def outcome(step):
        try:
            return step()
        except (Throttled, ValidationError) as error:
            return error

    throttled, spent, claim = parallel_map(
        outcome, [lambda: hit(limit), lambda: _spend_try(item), lambda: users.find_claim(e164)]
    )
    if isinstance(throttled, Throttled):
        if not isinstance(spent, ValidationError):
            _give_back_try(item)
        raise throttled
    if isinstance(spent, ValidationError):
        raise spent
    return claim


def _give_back_try(item: Pin) -> None:
    try:
        item.update(actions=[Pin.attempts.add(-1)], condition=Pin.nonce == item.nonce)
    except UpdateError as exc:
        if not condition_failed(exc):  # replaced or used meanwhile: nothing to give back
            raise


def _spend_try(item: Pin) -> None:
    """Count one try before the comparison, so parallel guesses cannot pass the limit."""
    try:
        item.update(
            actions=[Pin.attempts.add(1)],
            condition=Pin.pk.exists() & (Pin.attempts < get_settings().pin_max_attempts),
        )
    except UpdateError as exc:
        if condition_failed(exc):
            raise ValidationError.field("pin", INVALID_PIN) from None
        raise


def _new_token(user: User) -> tuple[str, Token]:
    token = f"{user.id}.{secrets.token_urlsafe(32)}"
    now = utcnow()
    expires = now + timedelta(days=get_settings().token_ttl_days)
    return token, Token(user_pk(user.id), token_sk(hash_token(token)), created=now, expires_at=expires)


def issue_token(user: User) -> str:
    token, item = _new_token(user)
    item.save()
    return token


def authenticate(header: str | None) -> tuple[User, str]:
    """The caller of ``Authorization: Bearer <token>``, in one BatchGetItem."""
    if not header or not header.strip():
        raise NotAuthenticated()
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() not in ("bearer", "token"):
        raise NotAuthenticated()
    token = token.strip()
    user_id, dot, secret = token.partition(".")
    if not dot or not (user_id.isascii() and user_id.isdigit()) or not secret or len(token) > 200:
        raise InvalidToken()
    token_hash = hash_token(token)
    items = batch_get(
        UsersTable,
        [(user_pk(int(user_id)), PROFILE_SK), (user_pk(int(user_id)), token_sk(token_hash))],
        consistent_read=True,
    )
    found = {item.sk: item for item in items}
    user, stored = found.get(PROFILE_SK), found.get(token_sk(token_hash))
    if not isinstance(user, User) or not isinstance(stored, Token):
        raise InvalidToken()
    if stored.expires_at <= utcnow():
        raise InvalidToken()
    return user, token


def logout(user: User, token: str) -> None:
    Token(user_pk(user.id), token_sk(hash_token(token))).delete()
