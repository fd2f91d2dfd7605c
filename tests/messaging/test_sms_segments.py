"""SMS segment arithmetic: GSM-7 and UCS-2 budgets, and cutting words to fit."""

from __future__ import annotations

import pytest

from chalicelib.messaging import sms_segments as sms


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a" * 160, 1),
        ("a" * 161, 2),
        ("a" * 305, 2),
        ("a" * 306, 3),  # a boundary may lose a septet to an escape pair: 2 x 153 - 1 are sure to fit
        ("€" * 80, 1),  # extension characters: two septets each
        ("€" * 81, 2),
        ("é" * 160, 1),  # in the GSM alphabet
        ("ę" * 70, 1),  # not in it: UCS-2
        ("ę" * 71, 2),
        ("🎉" * 35, 1),  # outside the BMP: two UTF-16 units each
        ("🎉" * 36, 2),
    ],
)
def test_segments(text, expected):
    assert sms.segments(text) == expected


def test_one_line_removes_breaks_controls_and_format_characters():
    assert sms.one_line(" a\r\nb\tc\u202ed\u200be\x00f\u2028g ") == "a b c d e f g"


def test_fold_typography_turns_quotes_dashes_ellipsis_and_spaces_into_gsm():
    folded = sms.fold_typography("\u2018a\u2019 \u201bb\u201c\u201d\u201e \u2013\u2014 x\u2026\u00a0y\u202fz\u2003.")
    assert folded == "'a' 'b\"\"\" -- x... y z ."
    assert sms.encoding(folded) == "gsm"


def test_fit_keeps_the_template_and_cuts_name_and_title():
    def template(name: str, title: str) -> str:
        return f"Service: {name} / {title} end."

    text = sms.fit([template], "N" * 500, "T" * 500, {"gsm": 2, "ucs2": 3})
    assert text.startswith("Service: NNNNNNNNNN... / TTT") and text.endswith("... end.")  # the name cut first
    assert sms.segments(text) == 2 and len(text) == 2 * 153 - 1
    short = sms.fit([template], "Ann", "T" * 500, {"gsm": 1, "ucs2": 1})
    assert short.startswith("Service: Ann / TTT") and len(short) == 160


def test_fit_cuts_the_title_only_after_the_name_is_at_its_minimum():
    def template(name: str, title: str) -> str:
        return f"S: {name} / {title}"

    text = sms.fit([template], "Name" * 10, "Title" * 10, {"gsm": 1, "ucs2": 1}, min_name=6, min_title=8)
    assert text == "S: " + "Name" * 10 + " / " + "Title" * 10  # fits whole
    cut_name = sms.fit([template], "N" * 100, "T" * 100, {"gsm": 1, "ucs2": 1}, min_name=6, min_title=8)
    assert cut_name == "S: " + "N" * 51 + "... / " + "T" * 100  # the title whole while the name can give
    both = sms.fit([template], "N" * 100, "T" * 200, {"gsm": 1, "ucs2": 1}, min_name=6, min_title=8)
    assert both == "S: NNNNNN... / " + "T" * 142 + "..." and len(both) == 160


def test_fit_takes_the_next_template_when_the_minimums_do_not_fit_the_first():
    def long_words(name: str, title: str) -> str:
        return "L" * 150 + f"{name}{title}"

    def short_words(name: str, title: str) -> str:
        return f"S {name} {title}"

    assert sms.fit([long_words, short_words], "N" * 50, "T" * 50, {"gsm": 1, "ucs2": 1}).startswith("S NNN")
