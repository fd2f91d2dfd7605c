"""The words a person reads on a page, for checking that a page's frame is in the page's language."""

from __future__ import annotations

import html
import re

from tests.utils.web import text_of


def visible_text(response_or_html) -> str:
    """What the page shows as text (no style, script or tags), whitespace collapsed."""
    page_html = response_or_html if isinstance(response_or_html, str) else text_of(response_or_html)
    shown = re.sub(r"<(style|script)[^>]*>.*?</\1>", " ", page_html, flags=re.S)
    shown = re.sub(r"<[^>]+>", " ", shown)
    return " ".join(html.unescape(shown).split())


def html_lang(response_or_html) -> tuple[str, str]:
    """The page's ``<html lang dir>``."""
    page_html = response_or_html if isinstance(response_or_html, str) else text_of(response_or_html)
    found = re.search(r'<html lang="([^"]+)" dir="(ltr|rtl)">', page_html)
    assert found, page_html[:200]
    return found[1], found[2]


def assert_frame_translated(english, translated, frame: list[str], wanted: list[str]) -> None:
    """Every sentence of ``frame`` is on the English page and none is left on the translated one, which shows
    every one of ``wanted`` instead."""
    english_text, shown = visible_text(english), visible_text(translated)
    for sentence in frame:
        assert sentence in english_text, (sentence, english_text)
        assert sentence not in shown, (sentence, shown)
    for sentence in wanted:
        assert sentence in shown, (sentence, shown)
