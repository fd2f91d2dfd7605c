"""SMS text budgets: GSM-7 vs UCS-2 segments, and fitting people's words into a text.

A text is sent as GSM-7 when every character is in the GSM 03.38 alphabet (the extension table's
characters take two septets), else as UCS-2 (UTF-16 code units; characters outside the BMP take
two). One segment holds 160 septets or 70 units; a longer text is split into segments of 153
septets or 67 units, and an escape pair or a surrogate pair is never split across two of them, so
each boundary may waste one. Carriers bill per segment.

People's words are folded first: typographic quotes, dashes, the ellipsis and Unicode spaces become
their plain GSM forms, so one curly apostrophe does not turn a whole text into UCS-2. Cutting keeps a
minimum of each: when even the minimums do not fit, the text takes the fewest segments that hold
them (see ``fit``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence

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
Template = Callable[[str, str], str]  # (name, title) -> the whole text
_SPACES = re.compile(r"\s+")
_TYPOGRAPHY = str.maketrans(
    {
        "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'",
        "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"',
        "\u2013": "-", "\u2014": "-",
        "\u2026": "...",
    }
)  # fmt: skip


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


def fold_typography(text: str) -> str:
    """Typographic punctuation as its GSM form: quotes, dashes, the ellipsis, and any Unicode space."""
    text = text.translate(_TYPOGRAPHY)
    return "".join(" " if unicodedata.category(ch) == "Zs" else ch for ch in text)


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


def _shortest(text: str, keep: int, alphabet: str) -> str:
    """``text`` cut to its first ``keep`` characters (an ellipsis after them), or whole when that is no shorter."""
    if len(text) <= keep:
        return text
    return text[:keep].rstrip() + ELLIPSIS[alphabet]


def _fit_template(template: Template, name: str, title: str, limits: Mapping[str, int], minimums: tuple[int, int]):
    """The text within the segment limit, the name cut before the title, or None when even the minimums overflow."""
    alphabet = encoding(template(name, title))
    room = budget(alphabet, limits[alphabet]) - cost(template("", ""), alphabet)
    name_cost, title_cost = cost(name, alphabet), cost(title, alphabet)
    if name_cost + title_cost <= room:
        return template(name, title)
    name_least = cost(_shortest(name, minimums[0], alphabet), alphabet)
    title_least = cost(_shortest(title, minimums[1], alphabet), alphabet)
    if name_least + title_least > room:
        return None
    if room - title_cost >= name_least:
        return template(_cut(name, room - title_cost, alphabet), title)
    name = _cut(name, name_least, alphabet)
    return template(name, _cut(title, room - cost(name, alphabet), alphabet))


def fit(
    templates: Sequence[Template],
    name: str,
    title: str,
    limits: Mapping[str, int],
    *,
    min_name: int = 10,
    min_title: int = 20,
) -> str:
    """``template(name, title)`` within ``limits`` (segments per encoding), name and title folded and made one line.

    When both do not fit, the name is cut first, down to its first ``min_name`` characters, then the
    title, down to its first ``min_title``; the template's own words stay whole. ``templates`` go
    from the fullest wording to the most compact; the first whose words and minimums fit is used.
    When none does (long words outside the BMP in UCS-2, a long link), the last one carries the two
    minimums, in as many segments as that takes: the name and the title are never lost.
    """
    name, title = fold_typography(one_line(name)), fold_typography(one_line(title))
    for template in templates:
        text = _fit_template(template, name, title, limits, (min_name, min_title))
        if text is not None:
            return text
    template = templates[-1]
    alphabet = encoding(template(name, title))
    return template(_shortest(name, min_name, alphabet), _shortest(title, min_title, alphabet))
