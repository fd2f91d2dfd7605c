"""The name a downloaded file gets (the calendar entry, the guest list): made from the event's title."""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

from chalicelib.messaging.sms_segments import one_line

FILENAME_CHARACTERS = 60
_UNSAFE_IN_FILENAME = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]+')
_NOT_PLAIN = re.compile(r"[^A-Za-z0-9 ._-]+")


def filename(title: str, suffix: str) -> tuple[str, str]:
    """(a plain ASCII file name, the full Unicode one) for ``title``, both ending in ``suffix`` (".ics")."""
    words = _UNSAFE_IN_FILENAME.sub(" ", one_line(unicodedata.normalize("NFC", title)))
    words = " ".join(words.split())[:FILENAME_CHARACTERS].strip(" .") or "event"
    ascii_words = unicodedata.normalize("NFKD", words).encode("ascii", "ignore").decode("ascii")
    ascii_words = " ".join(_NOT_PLAIN.sub(" ", ascii_words).split()).strip(" .") or "event"
    return f"{ascii_words}{suffix}", f"{words}{suffix}"


def content_disposition(title: str, suffix: str) -> str:
    """``attachment`` with the ASCII name and, for browsers that read it, the UTF-8 one (RFC 6266, RFC 5987)."""
    plain, full = filename(title, suffix)
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(full, safe='')}"
