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


def test_fit_keeps_the_template_and_cuts_name_and_title():
    def template(name: str, title: str) -> str:
        return f"Service: {name} / {title} end."

    text = sms.fit(template, "N" * 500, "T" * 500, max_segments=2)
    assert text.startswith("Service: NNN") and text.endswith("... end.")
    assert sms.segments(text) == 2 and len(text) == 2 * 153 - 1
    short = sms.fit(template, "Ann", "T" * 500, max_segments=1)
    assert short.startswith("Service: Ann / TTT") and len(short) == 160
