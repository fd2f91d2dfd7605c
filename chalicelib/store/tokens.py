"""What logs a person in: pins (``PIN#<e164>`` in the auth table, an HMAC only, with a TTL) and bearer
tokens (``USER#<id>``/``TOKEN#<sha256>`` in the users table, beside the profile, so one BatchGetItem
reads both)."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from chalicelib.models.auth import Pin, RateCounter, pin_pk
from chalicelib.models.base import transact_write
from chalicelib.models.events import Invitation
from chalicelib.models.users import PROFILE_SK, Token, User, UsersTable, token_sk, user_pk
from chalicelib.store import Refused, invitations, once, refusals
from chalicelib.store.batch import batch_get_tables

if TYPE_CHECKING:
    from chalicelib.store import rate_logs

PIN_ITEM = 0  # the pin's position in :func:`use_pin`'s transaction, as Refused.items names it
LOG_POSITION = -1  # the rolling log's position in what :func:`save_pin_counted` raises


def new_pin(e164: str, pin_hmac: str, nonce: str, ttl_seconds: int) -> Pin:
    return Pin(pin_pk(e164), pin_hmac=pin_hmac, nonce=nonce, attempts=0, expires_at=timedelta(seconds=ttl_seconds))


def save_pin_counted(pin: Pin, counted_adds: list[tuple], log: rate_logs.LogCharge | None = None) -> None:
    """The pin, the bounded counter adds (``(item, actions, condition)``, see store.counters.limited_add)
    and a rolling limit's charge ``log`` in one transaction. Raises Refused whose items are the indexes in
    ``counted_adds`` of the full counters, and ``LOG_POSITION`` when the log had no room left; Contended
    when a parallel transaction cancelled it."""
    try:
        with refusals(), transact_write() as transaction:
            if log is not None:
                from chalicelib.store import rate_logs  # rolling logs: the login's, off the API's cold start

                rate_logs.add_to(transaction, log)
            for counter, actions, condition in counted_adds:
                transaction.update(counter, actions=actions, condition=condition)
            transaction.save(pin)
    except Refused as refused:
        # PynamoDB sends puts before updates: the pin first, then the log (if any) and the counters in order
        first = 1 if log is None else 2
        positions = tuple(position - first for position in refused.items if position >= first)
        if log is not None and refused.item_failed(1):
            positions += (LOG_POSITION,)
        raise Refused(positions) from refused


def undo_pin(pin: Pin, counter_keys: list[str]) -> None:
    """Give the counters their unit back and delete the pin (while it is still this one)."""
    with transact_write() as transaction:
        for key in counter_keys:
            transaction.update(RateCounter(key), actions=[RateCounter.count.add(-1)])
        transaction.delete(pin, condition=Pin.nonce == pin.nonce)


def spend_pin_try(e164: str, max_attempts: int) -> Pin:
    """Count one try of the number's pin while it exists and has tries left; the pin as it is now.
    Raises Refused when there is no pin or no try left."""
    condition = Pin.pk.exists() & (Pin.attempts < max_attempts)
    return once.marked_update(Pin(pin_pk(e164)), [Pin.attempts.add(1)], condition, Pin.last_try, secrets.token_hex(8))


def give_back_pin_try(pin: Pin) -> None:
    """Undo :func:`spend_pin_try`, unless the pin was replaced or used meanwhile."""
    try:
        with refusals():
            pin.update(actions=[Pin.attempts.add(-1)], condition=Pin.nonce == pin.nonce)
    except Refused:
        pass


def new_token(user_id: int, token_hash: str, now: datetime, expires_at: datetime) -> Token:
    return Token(user_pk(user_id), token_sk(token_hash), created=now, expires_at=expires_at)


def use_pin(pin: Pin, token: Token, activate: User | None, now: datetime) -> None:
    """Consume the pin (while it is the one read), store the token and activate ``activate`` (a former
    invitee), in one transaction. Raises Refused (item PIN_ITEM: used by a parallel request meanwhile)."""
    with refusals(), transact_write() as transaction:
        transaction.delete(pin, condition=Pin.nonce == pin.nonce)
        transaction.save(token)
        if activate is not None:
            transaction.update(activate, actions=[User.is_active.set(True), User.modified.set(now)])


def consume_pin(pin: Pin) -> None:
    """Delete the pin while it is the one read. Raises Refused when a parallel request used or replaced it."""
    once.delete_once(pin, Pin.nonce == pin.nonce)


def save_token(token: Token) -> None:
    token.save()


def user_and_token(
    user_id: int, token_hash: str, *, invitation_of: int | None = None
) -> tuple[User | None, Token | None]:
    """The profile and the token item, read consistently in one BatchGetItem; with ``invitation_of`` (an event
    id), the same call reads the person's invitation to that event, kept for the request
    (invitations.own_invitation)."""
    keys: dict = {UsersTable: [(user_pk(user_id), PROFILE_SK), (user_pk(user_id), token_sk(token_hash))]}
    if invitation_of is not None:
        keys[Invitation] = [invitations.invitation_key(invitation_of, user_id)]
    read = batch_get_tables(keys, consistent_read=True)
    found = {item.sk: item for item in read[UsersTable]}
    user, stored = found.get(PROFILE_SK), found.get(token_sk(token_hash))
    invitations.keep_read_ahead(
        None if invitation_of is None else (invitation_of, user_id, next(iter(read[Invitation]), None))
    )
    return (user if isinstance(user, User) else None), (stored if isinstance(stored, Token) else None)


def delete_token(user_id: int, token_hash: str) -> None:
    Token(user_pk(user_id), token_sk(token_hash)).delete()
