"""The day itself: when an event's album takes photos, who is going (may add and see photos, holds a check-in
code), and the check-in code's shape. Pure rules: no AWS, no storage."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from chalicelib.domain.event_fields import ALBUM_MODES

ALBUM_OPEN_DAYS = 30  # photos may be added from the event's start until this many days after
ALBUM_GUESTS = ALBUM_MODES[1]
# A check-in code: the party's user id, a dot, and 128 random bits (URL-safe base64, 22 characters).
CHECKIN_CODE = re.compile(r"^([1-9][0-9]{0,15})\.([A-Za-z0-9_-]{22})$")


def album_state(event, now: datetime) -> str:
    """``open``, ``off`` (the setting), ``not_yet`` (before the start), ``closed`` (30 days after, or cancelled)."""
    if (event.album or ALBUM_MODES[0]) != ALBUM_GUESTS:
        return "off"
    if event.cancelled:
        return "closed"
    if now < event.event_date:
        return "not_yet"
    if now > event.event_date + timedelta(days=ALBUM_OPEN_DAYS):
        return "closed"
    return "open"


def is_going(invitation) -> bool:
    """The owner, or an invitee who accepted and holds spots (not waiting for them)."""
    if invitation is None:
        return False
    if invitation.role == "owner":
        return True
    return invitation.has_accepted is True and not getattr(invitation, "wait_key", None)


def checkin_code(user_id: int, token: str) -> str:
    return f"{user_id}.{token}"


def parse_checkin_code(code: str) -> tuple[int, str] | None:
    """(user id, token) of a well-formed code, else None."""
    match = CHECKIN_CODE.match(code or "")
    return (int(match.group(1)), match.group(2)) if match else None
