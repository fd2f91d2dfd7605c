"""People's words on the pages, with their web addresses made clickable.

Only ``http://`` and ``https://`` addresses become links (never ``javascript:``, ``data:`` or any other
scheme); everything else is escaped text. The text is plain (no markup is read from it), so a link can
never end up inside another. Each link carries ``rel="nofollow noopener"`` and shows the address as written.
"""

from __future__ import annotations

import re
from html import escape

# An address runs to the first space or character that cannot be part of one unescaped in text; the
# punctuation that usually closes a sentence or a bracket around it is left out of its end.
_ADDRESS = re.compile(r"https?://[^\s<>\"'`{}|\\^]+", re.IGNORECASE)
_TRAILING = ".,;:!?\u2026\u201d\u2019)]"
_LONGEST = 2000  # longer "addresses" stay text


def _trimmed(found: str) -> str:
    """``found`` without the sentence's punctuation at its end; a closing bracket stays when the address
    opened one (``https://en.wikipedia.org/wiki/Python_(language)``)."""
    while found and found[-1] in _TRAILING:
        if found[-1] == ")" and found.count("(") >= found.count(")"):
            break
        if found[-1] == "]" and found.count("[") >= found.count("]"):
            break
        found = found[:-1]
    return found


def _has_host(address: str) -> bool:
    host = address.split("://", 1)[1].split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
    return bool(host.strip(".:@"))


def linked(text: str) -> str:
    """``text`` as HTML: escaped, with each http(s) address an ``<a>`` to itself."""
    parts, start = [], 0
    for match in _ADDRESS.finditer(text):
        address = _trimmed(match.group(0))
        if not _has_host(address) or len(address) > _LONGEST:
            continue
        end = match.start() + len(address)
        parts.append(escape(text[start : match.start()]))
        parts.append(f'<a href="{escape(address)}" rel="nofollow noopener">{escape(address)}</a>')
        start = end
    parts.append(escape(text[start:]))
    return "".join(parts)
