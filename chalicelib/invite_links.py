"""Web links in invitation texts: the codes and their hashes (services/texts/invitation_texts.py carries them).

A code is the URL-safe base64 of 24 bytes: the event id (7 bytes, big-endian) and 17 random bytes,
so 32 characters holding 136 random bits. Only its SHA-256 is stored, on the guest's invitation
(``link_hash``), the way tokens are kept. Naming the event in the code lets the page read it the
way detail does: one Query of the event's partition, which holds the invitation and its hash.
Nothing here reads or writes the database; ``services/web/guest_answers.py`` serves the links.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from collections.abc import Iterable

from chalicelib.config import get_settings
from chalicelib.ids import MAX_ID

EVENT_ID_BYTES = 7
SECRET_BYTES = 17
CODE_LENGTH = 4 * (EVENT_ID_BYTES + SECRET_BYTES) // 3  # 32: no padding, every bit used
_CODE = re.compile(rf"[A-Za-z0-9_-]{{{CODE_LENGTH}}}")


def new_code(event_id: int) -> str:
    raw = event_id.to_bytes(EVENT_ID_BYTES, "big") + secrets.token_bytes(SECRET_BYTES)
    return base64.urlsafe_b64encode(raw).decode("ascii")


def hash_code(code: str) -> str:
    return hashlib.sha256(code.encode("ascii")).hexdigest()


def event_id_of(code: str) -> int | None:
    """The event a well-formed code names; None for anything else (the caller answers 404)."""
    if not isinstance(code, str) or not _CODE.fullmatch(code):
        return None
    event_id = int.from_bytes(base64.urlsafe_b64decode(code)[:EVENT_ID_BYTES], "big")
    return event_id if 0 < event_id <= MAX_ID else None


def link_url(code: str) -> str:
    return f"{get_settings().public_base_url.rstrip('/')}/i/{code}"


def attach_links(invitations: Iterable) -> dict[int, str]:
    """Give each invitation (not yet saved) a fresh code: sets ``link_hash``; returns {user id: link}.

    Without a public base URL no link could be opened, so none is made and texts go without one."""
    if not get_settings().public_base_url:
        return {}
    links = {}
    for invitation in invitations:
        code = new_code(invitation.event_id)
        invitation.link_hash = hash_code(code)
        links[invitation.user_id] = link_url(code)
    return links
