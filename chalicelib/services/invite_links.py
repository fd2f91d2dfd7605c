"""Web links in invitation texts (issue 16): the codes, their hashes, and the text that carries them.

A code is the URL-safe base64 of 24 bytes: the event id (7 bytes, big-endian) and 17 random bytes,
so 32 characters holding 136 random bits. Only its SHA-256 is stored, on the guest's invitation
(``link_hash``), the way tokens are kept. Naming the event in the code lets the page read it the
way detail does: one Query of the event's partition, which holds the invitation and its hash.
Nothing here reads or writes the database; ``services/web_rsvp.py`` serves the links.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
import unicodedata
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


# --------------------------------------------------------------------------- the text

# GSM 03.38: a text only of these characters is sent in 7-bit units (the extension ones take two);
# any other character makes the whole text UCS-2, counted in UTF-16 units.
_GSM_BASIC = set(
    "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿"
    "abcdefghijklmnopqrstuvwxyzäöñüà"
)
_GSM_EXTENDED = set("^{}\\[~]|€")
TWO_SEGMENTS_GSM = 2 * 153  # a text longer than one segment is split in parts of 153 units (GSM-7)
TWO_SEGMENTS_UCS2 = 2 * 67  # or of 67 UTF-16 units (UCS-2)
ELLIPSIS = "..."  # GSM-7, unlike "…", which would turn the whole text into UCS-2


def fits_two_segments(text: str) -> bool:
    if all(char in _GSM_BASIC or char in _GSM_EXTENDED for char in text):
        return len(text) + sum(char in _GSM_EXTENDED for char in text) <= TWO_SEGMENTS_GSM
    return len(text.encode("utf-16-le")) // 2 <= TWO_SEGMENTS_UCS2


def one_line(text: str) -> str:
    """Line breaks and other control or format characters become spaces; runs of spaces one."""
    cleaned = "".join(" " if unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") else char for char in text)
    return " ".join(cleaned.split())


def _cut(text: str, length: int) -> str:
    return text if len(text) <= length else text[: max(0, length - len(ELLIPSIS))].rstrip() + ELLIPSIS


def invitation_text(who: str, title: str, when: str, link: str | None) -> str:
    """The invitation SMS, within two segments: the link is kept whole (counted first), then the
    inviter's name and the title are cut, the longer one first, until the text fits."""
    reply = f"Answer here: {link}" if link else f"Get the {get_settings().service_name} app to reply."
    who, title = one_line(who), one_line(title)

    def compose(name: str, subject: str) -> str:
        return f'{name} invited you to "{subject}" on {when}. {reply}'

    name_length, title_length = len(who), len(title)
    text = compose(who, title)
    while not fits_two_segments(text) and (name_length > len(ELLIPSIS) or title_length > len(ELLIPSIS)):
        if title_length >= name_length:
            title_length -= 1
        else:
            name_length -= 1
        text = compose(_cut(who, name_length), _cut(title, title_length))
    return text
