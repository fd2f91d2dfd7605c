"""SMS text budgets: GSM-7 vs UCS-2 segments, and fitting people's words into a text.

A text is sent as GSM-7 when every character is in the GSM 03.38 alphabet (the extension table's
characters take two septets), else as UCS-2 (UTF-16 code units; characters outside the BMP take
two). One segment holds 160 septets or 70 units; a longer text is split into segments of 153
septets or 67 units, and an escape pair or a surrogate pair is never split across two of them, so
each boundary may waste one. Carriers bill per segment.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

GSM_BASIC = frozenset(
    "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?"
    "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
)
GSM_EXTENSION = frozenset("^{}\\[~]|€\f")
SINGLE = {"gsm": 160, "ucs2": 70}
MULTI = {"gsm": 153, "ucs2": 67}
ELLIPSIS = {"gsm": "...", "ucs2": "…"}
# Control (Cc), format (Cf: bidi overrides, zero-width characters), surrogate (Cs) and line/paragraph separators.
_UNPRINTABLE = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_SPACES = re.compile(r"\s+")


def encoding(text: str) -> str:
    return "gsm" if all(ch in GSM_BASIC or ch in GSM_EXTENSION for ch in text) else "ucs2"


def char_cost(ch: str, alphabet: str) -> int:
    if alphabet == "gsm":
        return 2 if ch in GSM_EXTENSION else 1
    return 2 if ord(ch) > 0xFFFF else 1


def cost(text: str, alphabet: str) -> int:
    return sum(char_cost(ch, alphabet) for ch in text)


def budget(alphabet: str, segments: int) -> int:
    """What ``segments`` segments surely hold (a pair never straddles a boundary: one lost per boundary)."""
    if segments <= 1:
        return SINGLE[alphabet]
    return MULTI[alphabet] * segments - (segments - 1)


def segments(text: str) -> int:
    alphabet = encoding(text)
    used = cost(text, alphabet)
    if used <= SINGLE[alphabet]:
        return 1
    count = 2
    while budget(alphabet, count) < used:
        count += 1
    return count


def one_line(text: str) -> str:
    """``text`` with line breaks, control and format characters turned into single spaces."""
    text = unicodedata.normalize("NFC", text)
    cleaned = "".join(" " if unicodedata.category(ch) in _UNPRINTABLE else ch for ch in text)
    return _SPACES.sub(" ", cleaned).strip()


def _cut(text: str, room: int, alphabet: str) -> str:
    if cost(text, alphabet) <= room:
        return text
    ellipsis = ELLIPSIS[alphabet]
    room -= cost(ellipsis, alphabet)
    kept, used = [], 0
    for ch in text:
        used += char_cost(ch, alphabet)
        if used > room:
            break
        kept.append(ch)
    return "".join(kept).rstrip() + ellipsis if kept else ""


def fit(template: Callable[[str, str], str], name: str, title: str, max_segments: int, name_share: int = 40) -> str:
    """``template(name, title)`` within ``max_segments``, both words made one line and cut to fit.

    The name keeps up to ``name_share`` characters' worth when both do not fit, the title the
    rest (a short title leaves its unused room to the name). The template's own words are kept whole.
    """
    name, title = one_line(name), one_line(title)
    alphabet = encoding(template(name, title))
    room = budget(alphabet, max_segments) - cost(template("", ""), alphabet)
    name_cost, title_cost = cost(name, alphabet), cost(title, alphabet)
    if name_cost + title_cost > room:
        name_room = min(name_cost, max(room - title_cost, min(name_share, room // 2)))
        name = _cut(name, name_room, alphabet)
        title = _cut(title, room - cost(name, alphabet), alphabet)
    return template(name, title)
