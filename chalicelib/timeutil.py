"""Time in and out: any ISO 8601 form or UNIX seconds in, UTC ``YYYY-MM-DDTHH:MM:SSZ`` out."""

from __future__ import annotations

import re
from datetime import UTC, datetime

_UNIX = re.compile(r"^-?\d+(\.\d+)?$")


def utcnow() -> datetime:
    return datetime.now(UTC)


def parse_datetime(value: object, *, allow_unix: bool = False) -> datetime | None:
    """Parse an ISO 8601 string (a value without offset is UTC); None when it is not one."""
    if isinstance(value, bool):
        return None
    if allow_unix and isinstance(value, (int, float)):
        return _from_unix(float(value))
    if not isinstance(value, str):
        return None
    text = value.strip()
    if allow_unix and _UNIX.match(text):
        return _from_unix(float(text))
    parsed = parse_iso_as_sent(text)
    if parsed is None:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    try:
        return parsed.astimezone(UTC)
    except OverflowError:  # e.g. 0001-01-01T00:00:00+01:00 is before the first representable UTC instant
        return None


def parse_iso_as_sent(text: str) -> datetime | None:
    """An ISO 8601 string as sent, in its own offset (or naive when it has none); None when not one."""
    text = text.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def _from_unix(seconds: float) -> datetime | None:
    try:
        return datetime.fromtimestamp(seconds, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return None


def format_datetime(value: datetime | None) -> str | None:
    if value is None:
        return None
    # Not strftime: its %Y drops the zero padding of years before 1000 ("817-08-07..."), which is no ISO 8601
    # and sorts after "2030-..." in the date keys of the indexes.
    return value.astimezone(UTC).replace(tzinfo=None, microsecond=0).isoformat() + "Z"
