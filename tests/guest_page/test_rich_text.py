"""People's words on the pages: http(s) addresses become links, everything else stays text, whatever is typed."""

from __future__ import annotations

import re

import pytest

from chalicelib.guest_page.rich_text import linked

REL = 'rel="nofollow noopener"'


def links_in(html: str) -> list[str]:
    return re.findall(r'<a href="([^"]*)" rel="nofollow noopener">', html)


def test_an_address_in_a_sentence_becomes_a_link_without_the_sentences_punctuation():
    html = linked("Map: https://example.org/map?a=1&b=2. See you (https://example.org/x)!")
    assert links_in(html) == ["https://example.org/map?a=1&amp;b=2", "https://example.org/x"]
    assert html == (
        f'Map: <a href="https://example.org/map?a=1&amp;b=2" {REL}>https://example.org/map?a=1&amp;b=2</a>.'
        f' See you (<a href="https://example.org/x" {REL}>https://example.org/x</a>)!'
    )


def test_a_bracket_the_address_opened_stays_in_it():
    assert links_in(linked("https://en.wikipedia.org/wiki/Python_(language).")) == [
        "https://en.wikipedia.org/wiki/Python_(language)"
    ]


def test_http_and_any_case_are_links_too():
    assert links_in(linked("http://a.example and HTTPS://B.example/Path")) == [
        "http://a.example",
        "HTTPS://B.example/Path",
    ]


@pytest.mark.parametrize(
    "hostile",
    [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(document.cookie)",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "vbscript:msgbox(1)",
        "//evil.example/x",
        "https://",
        "https:///path-only",
        '<a href="https://evil.example">click</a>',
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
    ],
)
def test_nothing_but_an_http_address_is_ever_a_link_and_markup_stays_text(hostile):
    html = linked(hostile)
    assert "<script" not in html and "<img" not in html  # markup typed is shown, never read
    for href in links_in(html):
        assert href.lower().startswith(("http://", "https://")) and "<" not in href and '"' not in href
    assert html.count("<a ") == len(links_in(html))  # no anchor but the ones made here
    if "https://evil.example" in hostile and "<a" in hostile:
        assert links_in(html) == ["https://evil.example"]  # the address alone, never a link inside a link
        assert html.startswith("&lt;a href=&quot;")


def test_an_address_cannot_break_out_of_its_attribute():
    html = linked("https://example.org/\"onmouseover=\"alert(1) https://example.org/'x' https://example.org/`y`")
    assert links_in(html) == ["https://example.org/", "https://example.org/", "https://example.org/"]
    assert 'onmouseover="' not in html and "&quot;onmouseover=&quot;" in html


def test_other_scripts_and_emoji_around_an_address_stay_whole():
    text = "המפה כאן: https://example.org/מפה?q=שלום 🎉 “https://example.org/a”, خريطة"
    html = linked(text)
    assert links_in(html) == ["https://example.org/מפה?q=שלום", "https://example.org/a"]
    assert html.startswith("המפה כאן: <a ") and html.endswith("</a>”, خريطة")


def test_a_text_without_an_address_is_only_escaped():
    assert linked("Fish & chips <3") == "Fish &amp; chips &lt;3"
