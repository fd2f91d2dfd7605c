"""The language of a page: its ``<html lang dir>`` and the switcher, plain links that need no script.

Hebrew and Arabic pages are ``dir="rtl"``; what people wrote keeps its own ``dir="auto"`` inside. Each
switcher link names its language in that language (``Español``, ``עברית``) and carries ``lang`` and
``hreflang``, so a screen reader reads it in its own voice.
"""

from __future__ import annotations

from html import escape

from chalicelib.languages.catalogues import Words, available
from chalicelib.languages.choice import own_name, right_to_left


def direction(tag: str) -> str:
    return "rtl" if right_to_left(tag) else "ltr"


def document_language(tag: str) -> str:
    """The page's opening ``<html>`` tag in the language ``tag``."""
    return f'<html lang="{escape(tag)}" dir="{direction(tag)}">'


def switcher(said: Words, here: str) -> str:
    """Links to ``here`` (the page's own relative address) in each language; the current one is marked."""
    links = []
    for tag in available():
        name = escape(own_name(tag))
        if tag == said.language:
            links.append(f'<li><a aria-current="true" lang="{tag}" dir="{direction(tag)}">{name}</a></li>')
        else:
            href = escape(f"{here}?lang={tag}")
            links.append(f'<li><a href="{href}" hreflang="{tag}" lang="{tag}" dir="{direction(tag)}">{name}</a></li>')
    label = escape(said._("Language"))
    return f'<nav class="languages" aria-label="{label}"><ul>{"".join(links)}</ul></nav>'
