"""The server key of the pin HMAC: from SSM Parameter Store in AWS, read once per cold start.

Deployed stages (any ``STAGE`` but "local" and "test", an unset one included) read the SecureString named
by ``PIN_KEY_PARAMETER`` on the first login of a process and keep it for the life of that process. It is
never taken from the environment there: ``PIN_SECRET`` is for local runs and tests only. A parameter that is
missing, unreadable, a placeholder or the development key answers 503 and logs why; there is no fallback key.
"""

from __future__ import annotations

import logging
import threading

from chalicelib import aws
from chalicelib.config import Settings, get_settings
from chalicelib.errors import ServiceUnavailable

LOCAL_STAGES = ("local", "test")
MIN_KEY_LENGTH = 32

log = logging.getLogger("invites")
_lock = threading.Lock()
_cached: dict[str, bytes] = {}


class PinKeyUnavailable(ServiceUnavailable):
    def __init__(self):
        super().__init__("Login is unavailable, try again later.", retry_after=30)


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
