"""Login by pin, and its limits (openapi.yaml, tag "auth"); the bearer tokens it issues are checked by tokens.py.

Pins are 6 random digits kept only as an HMAC under the server key, for PIN_TTL_SECONDS (15 minutes), single use,
void after 5 wrong tries. Every request authenticates, but only the login routes text, count tries and need the
pin key: this module is loaded by them alone.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from enum import StrEnum

from chalicelib import limits, store
from chalicelib.config import get_settings
from chalicelib.errors import ServiceUnavailable, Throttled, ValidationError
from chalicelib.languages.catalogues import N_, Words, words
from chalicelib.languages.choice import for_text
from chalicelib.messaging import notifications, sms_sender
from chalicelib.messaging.notifications.kinds import kind_named
from chalicelib.parallel import parallel_map
from chalicelib.pinkey import pin_key
from chalicelib.retry import AttemptsSpent, TryAgain, retry
from chalicelib.services.guards.ratelimit import ROLLING_ATTEMPTS, Limit, RollingLimit, address_subject, hit
from chalicelib.services.identity import users
from chalicelib.services.identity.tokens import hash_token, new_token
from chalicelib.store import tokens
from chalicelib.store.rate_logs import LogCharge
from chalicelib.timeutil import utcnow

# The queue kinds sent from here (each declared with its handler)
CONTACT_JOINED = kind_named("contact_joined")

INVALID_PIN = "Invalid pin."
OPTED_OUT = "This number has opted out of texts from {service}. Reply START to one of our texts, then try again."
PIN_DIGITS = 6


class PinPurpose(StrEnum):
    """What a pin opens: logging in to the app, or one page's action. A pin opens only its own."""

    LOGIN = "login"
    JOIN = "join"  # the join page's (services/web/web_join.py)
    DELETION = "deletion"  # the deletion page's (services/web/web_account.py)


def _pin_hmac(e164: str, pin: str, purpose: PinPurpose) -> str:
    """The pin as kept: an HMAC of the number, the pin and (but for a login pin, whose form pins already
    issued keep) its purpose, so a pin checked for another purpose never matches."""

    message = f"{e164}:{pin}" if purpose == PinPurpose.LOGIN else f"{purpose.value}:{e164}:{pin}"
    # deployed stages: the SSM key, 503 without one (never the public development key)
    return hmac.new(pin_key(), message.encode(), hashlib.sha256).hexdigest()


def _number_limit(e164: str) -> RollingLimit:
    """Pins texted to one number in any window (15 minutes): also the longest someone else can hold the
    number's login back by asking for its pins."""
    return RollingLimit.of(limits.PINS_PER_NUMBER, e164)


# The login pin's text names its real lifetime (PIN_TTL_SECONDS), so a guest is never told a pin still works.
# Translators: {service} is the service's name, {pin} six digits, {minutes} how long the pin works (15).
LOGIN_PIN = N_("Your {service} pin is {pin}. It expires in {minutes} minutes. Don't share it.")
DELETION_PIN = N_("Your {service} pin to delete your account is {pin}. If you did not ask for this, ignore this text.")
JOIN_PIN = N_("Your {service} pin to join an event is {pin}. If you did not ask for this, ignore this text.")
PIN_WORDING = {PinPurpose.LOGIN: LOGIN_PIN, PinPurpose.JOIN: JOIN_PIN, PinPurpose.DELETION: DELETION_PIN}


def request_pin(
    e164: str, source_ip: str, *, purpose: PinPurpose = PinPurpose.LOGIN, language: str | None = None
) -> None:
    """Issue a pin for ``e164`` that opens ``purpose`` only, and text it worded for that purpose, in ``language``
    (the page's) or else the one of the number's country. The
    number's rolling limit, the address's hourly limit and the pin are written in one transaction (the
    number's log read first, read again when a parallel request moved it), and undone when the text
    cannot be sent, so a failed send costs nothing (past the month's text budget: 503 TextsPaused, undone
    the same way). A number on SNS's opt-out list is refused (400) before anything is written or sent;
    the stop list, which is for invitation texts only, does not apply: the person asked for this pin."""
    settings = get_settings()
    if sms_sender.opted_out(e164):
        raise ValidationError.field("phone_number", OPTED_OUT.format(service=settings.service_name))
    now = time.time()
    number_limit = _number_limit(e164)
    address_limit = Limit.of(limits.PINS_PER_ADDRESS, address_subject(source_ip))
    pin = f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
    item = tokens.new_pin(e164, _pin_hmac(e164, pin, purpose), secrets.token_hex(8), settings.pin_ttl_seconds)

    def attempt(_number: int) -> LogCharge:
        usage = number_limit.read(now)
        number_limit.check(usage, 1, now)
        log = number_limit.write(usage, 1, now)
        try:
            tokens.save_pin_counted(item, [address_limit.counted_add(now)], log=log)
        except store.Contended:
            raise TryAgain() from None  # in AWS: cancelled by a parallel transaction on the same item
        except store.Refused as refused:
            if refused.item_failed(tokens.LOG_POSITION):
                raise TryAgain() from None  # the number's log is full by now: the next read says 429
            raise Throttled(address_limit.retry_after(now)) from None
        return log

    try:
        log = retry(attempt, attempts=ROLLING_ATTEMPTS)
    except AttemptsSpent:
        raise ServiceUnavailable() from None
    try:
        sms_sender.send_sms(
            e164,
            pin_text(purpose, pin, words(for_text(language, e164))),
            priority=sms_sender.Priority.ASKED,
            origination=settings.sms_origination_pins,
        )
    except Exception:
        _undo_pin(item, number_limit, log, address_limit, now)
        raise


def pin_text(purpose: PinPurpose, pin: str, said: Words) -> str:
    """The pin's text for ``purpose`` in the person's words, naming how long the pin works."""
    settings = get_settings()
    return said._(PIN_WORDING[purpose], service=settings.service_name, pin=pin, minutes=settings.pin_ttl_seconds // 60)


def _undo_pin(item, number_limit: RollingLimit, log: LogCharge, address_limit: Limit, now: float) -> None:
    tokens.undo_pin(item, [address_limit.key(now)])
    number_limit.undo(log)


def verify_pin(e164: str, pin: str, source_ip: str) -> tuple:
    """Spend one try of the pin; on a match, consume it and log the user in with a new token.

    Every try also counts against the caller's address (429 beyond the hourly limit, and then the
    try costs the pin nothing), so one address cannot void other people's pins by the thousand.
    Three rounds: the address count, the try and the phone claim read side by side; the user read
    (or made); one transaction that consumes the pin, stores the token and activates a former
    invitee."""
    item, claim = _checked_pin(e164, pin, source_ip, PinPurpose.LOGIN)
    user, created = users.user_for_login(e164, claim)
    activating = not user.is_active
    token, token_item = new_token(user)
    try:
        tokens.use_pin(item, token_item, user if activating else None, utcnow())
    except store.Refused as refused:
        if refused.item_failed(tokens.PIN_ITEM):  # used by a parallel request meanwhile
            raise ValidationError.field("pin", INVALID_PIN) from None
        raise
    if activating:
        user.is_active = True
    if created or activating:  # first login: tell the people who keep this number as a favorite
        notifications.enqueue(CONTACT_JOINED, user_id=user.id)
    return user, token


def _checked_pin(e164: str, pin: str, source_ip: str, purpose: PinPurpose) -> tuple:
    """Spend one try of the pin (within the address's limit) and compare it; 400 when it does not match,
    or was issued for another purpose.
    Returns the pin (for the caller to consume) and the number's phone claim."""
    pin_key()  # a stage without its key answers 503 before a try is spent
    item, claim = _first_round(e164, source_ip)
    expired = item.expires_at is None or item.expires_at.timestamp() <= time.time()
    if expired or not hmac.compare_digest(item.pin_hmac, _pin_hmac(e164, pin, purpose)):
        raise ValidationError.field("pin", INVALID_PIN)
    return item, claim


def prove_number(e164: str, pin: str, source_ip: str, purpose: PinPurpose) -> int | None:
    """Check and consume a pin issued for ``purpose`` as ``verify_pin`` does, with its limits, without
    logging in: the id of the user holding the number (None when nobody does). For acts on an account
    outside the app."""
    item, claim = _checked_pin(e164, pin, source_ip, purpose)
    try:
        tokens.consume_pin(item)
    except store.Refused:  # used by a parallel request meanwhile
        raise ValidationError.field("pin", INVALID_PIN) from None
    return claim.user_id if claim is not None else None


def _first_round(e164: str, source_ip: str) -> tuple:
    """Count the try against the address and the pin side by side, and read the phone claim.
    Over the address limit: the pin's try is given back (if it was spent) and the answer is 429."""
    limit = Limit.of(limits.VERIFY_PER_ADDRESS, address_subject(source_ip))

    def outcome(step):
        try:
            return step()
        except (Throttled, ValidationError) as error:
            return error

    throttled, spent, claim = parallel_map(
        outcome, [lambda: hit(limit), lambda: _spend_try(e164), lambda: users.find_claim(e164)]
    )
    if isinstance(throttled, Throttled):
        if not isinstance(spent, ValidationError):
            tokens.give_back_pin_try(spent)
        raise throttled
    if isinstance(spent, ValidationError):
        raise spent
    return spent, claim


def _spend_try(e164: str):
    """Count one try before the comparison, so parallel guesses cannot pass the limit; the pin."""
    try:
        return tokens.spend_pin_try(e164, get_settings().pin_max_attempts)
    except store.Refused:
        raise ValidationError.field("pin", INVALID_PIN) from None


def issue_token(user) -> str:
    token, item = new_token(user)
    tokens.save_token(item)
    return token


def logout(user, token: str) -> None:
    tokens.delete_token(user.id, hash_token(token))
