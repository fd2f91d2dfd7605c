"""The server key of the pin HMAC, and the stop list's key: from SSM Parameter Store in AWS, read once per cold start.

Deployed stages (any ``STAGE`` but "local" and "test", an unset one included) read the SecureString named
by ``PIN_KEY_PARAMETER`` on the first login of a process and keep it for the life of that process. It is
never taken from the environment there: ``PIN_SECRET`` is for local runs and tests only. A parameter that is
missing, unreadable, a placeholder or the development key answers 503 and logs why; there is no fallback key.

The stop list (services/texts/stop_list.py) hashes numbers under a key of its own, the SecureString named by
``STOP_LIST_KEY_PARAMETER`` (64 hex digits), so rotating the pin key leaves the list as it is. It must never
change: entries hashed under another key are not found. `make deploy` creates it once, as the key the list
had when it was derived from the pin key (``derived_stop_list_key``), so existing entries keep working.
Local runs and tests derive it from ``PIN_SECRET``.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import threading

from chalicelib import aws
from chalicelib.config import Settings, get_settings
from chalicelib.errors import ServiceUnavailable

LOCAL_STAGES = ("local", "test")
MIN_KEY_LENGTH = 32

log = logging.getLogger("invites")
_lock = threading.Lock()
_cached: dict[str, bytes] = {}


STOP_LIST_KEY_LABEL = b"invites stop list"
STOP_LIST_KEY_FORMAT = re.compile(r"[0-9a-f]{64}")


class PinKeyUnavailable(ServiceUnavailable):
    def __init__(self):
        super().__init__("Login is unavailable, try again later.", retry_after=30)


class StopListKeyUnavailable(ServiceUnavailable):
    def __init__(self):
        super().__init__("Texting is unavailable, try again later.", retry_after=30)


def derived_stop_list_key(key: bytes) -> bytes:
    """The stop list's key as it was derived from a pin key (local stages; the first value of a deployed one)."""
    return hmac.new(key, STOP_LIST_KEY_LABEL, hashlib.sha256).digest()


def stop_list_key() -> bytes:
    """The stop list's HMAC key; raises StopListKeyUnavailable (503) when a deployed stage has none usable."""
    settings = get_settings()
    if is_local(settings.stage):
        return derived_stop_list_key(settings.pin_secret.encode())
    name = settings.stop_list_key_parameter
    if not name:
        log.error("stop list key: STOP_LIST_KEY_PARAMETER is not set for stage %r", settings.stage)
        raise StopListKeyUnavailable()
    with _lock:
        if name not in _cached:
            _cached[name] = _read_stop_list_key(name)
        return _cached[name]


def _read_stop_list_key(name: str) -> bytes:
    try:
        value = aws.ssm().get_parameter(Name=name, WithDecryption=True)["Parameter"]["Value"].strip()
    except Exception as exc:  # noqa: BLE001 - every failure is the same 503; the log says which
        log.error("stop list key: cannot read SSM parameter %s: %s %s", name, type(exc).__name__, aws.error_code(exc))
        raise StopListKeyUnavailable() from None
    if not STOP_LIST_KEY_FORMAT.fullmatch(value):
        log.error("stop list key: SSM parameter %s is not 64 hex digits", name)
        raise StopListKeyUnavailable()
    return bytes.fromhex(value)


def is_local(stage: str) -> bool:
    return stage in LOCAL_STAGES


def pin_key() -> bytes:
    """The key for this stage; raises PinKeyUnavailable (503) when a deployed stage has none usable."""
    settings = get_settings()
    if is_local(settings.stage):
        return settings.pin_secret.encode()
    name = settings.pin_key_parameter
    if not name:
        log.error("pin key: PIN_KEY_PARAMETER is not set for stage %r", settings.stage)
        raise PinKeyUnavailable()
    with _lock:  # one SSM read per process, also when the first logins arrive together
        if name not in _cached:
            _cached[name] = _read(name)
        return _cached[name]


def _read(name: str) -> bytes:
    try:
        value = aws.ssm().get_parameter(Name=name, WithDecryption=True)["Parameter"]["Value"]
    except Exception as exc:  # noqa: BLE001 - every failure is the same 503; the log says which
        log.error("pin key: cannot read SSM parameter %s: %s %s", name, type(exc).__name__, aws.error_code(exc) or "")
        raise PinKeyUnavailable() from None
    problem = unusable(value)
    if problem:
        log.error("pin key: SSM parameter %s %s", name, problem)
        raise PinKeyUnavailable()
    return value.encode()


def unusable(value: str) -> str | None:
    """Why ``value`` cannot be a deployed stage's key, or None."""
    stripped = value.strip()
    if stripped == Settings.pin_secret:
        return "holds the development key"
    if stripped.startswith("<") or "placeholder" in stripped.lower() or "changeme" in stripped.lower():
        return "holds a placeholder"
    if len(stripped) < MIN_KEY_LENGTH:
        return f"is shorter than {MIN_KEY_LENGTH} characters"
    return None


def forget() -> None:
    """Drop the cached key (tests; a new process reads it again anyway)."""
    with _lock:
        _cached.clear()
