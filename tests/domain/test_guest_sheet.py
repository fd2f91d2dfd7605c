"""The guest list's CSV as a spreadsheet program reads it: RFC 4180, no formula, any script, bounded."""

from __future__ import annotations

import csv
import io

import pytest

from chalicelib.domain import guest_sheet
from chalicelib.domain.guest_sheet import GOING, NO_REPLY, WAITING, GuestRow, Question


def _read(text: str) -> list[list[str]]:
    assert text.startswith(guest_sheet.BYTE_ORDER_MARK)
    return list(csv.reader(io.StringIO(text[1:], newline="")))


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("=1+1", "'=1+1"),
        ("+1 (555)", "'+1 (555)"),
        ("-x", "'-x"),
        ("@y", "'@y"),
        ("\tTab", "'\tTab"),
        ("\rCR", "'\rCR"),
        ("Ann = Bob", "Ann = Bob"),
        ("", ""),
        (None, ""),
        (3, "3"),
    ],
)
def test_a_cell_that_would_run_as_a_formula_is_prefixed(value, cell):
    assert guest_sheet.safe_cell(value) == cell


def test_line_breaks_commas_and_quotes_inside_cells_round_trip():
    row = GuestRow(name='Bo "the" Host, Jr.', phone="", answer=GOING, message="line one\nline two")
    text = guest_sheet.sheet([row])
    assert text.endswith("\r\n") and '"Bo ""the"" Host, Jr."' in text
    assert _read(text)[1] == ['Bo "the" Host, Jr.', "", "going", "0", "", "line one\nline two", "", "", ""]


def test_one_column_per_question_in_order_with_the_guests_answers():
    questions = [Question("diet", "Dietary needs"), Question("bring", "=Bringing")]
    rows = [
        GuestRow("Ann", "+14155550100", GOING, answers={"diet": "vegan", "bring": "-salad"}),
        GuestRow("Bob", "+14155550101", NO_REPLY),
    ]
    read = _read(guest_sheet.sheet(rows, questions))
    assert read[0][6:] == ["Dietary needs", "'=Bringing", "checked in", "invited via", "first opened at"]
    assert read[1][6:] == ["vegan", "'-salad", "", "", ""]
    assert read[2][6:] == ["", "", "", "", ""]


def test_the_sheet_holds_at_most_600_rows():
    rows = (GuestRow(f"Guest {n}", "", WAITING, waitlist_position=n + 1) for n in range(700))
    read = _read(guest_sheet.sheet(rows))
    assert len(read) == 1 + 600 == 1 + guest_sheet.MAX_ROWS
    assert read[-1][:5] == ["Guest 599", "", "waiting", "0", "600"]


@pytest.mark.parametrize("value", ["a;=1+1", "Ann; Bob", ";", "x;+1"])
def test_a_cell_holding_a_semicolon_is_quoted_and_read_with_semicolons_stays_one_cell(value):
    row = GuestRow(name=value, phone="", answer=GOING, message=value)
    text = guest_sheet.sheet([row], [Question("q", value)])
    assert f'"{value}"' in text
    for line in text[1:].split("\r\n")[:2]:
        assert not any(cell.startswith(guest_sheet.FORMULA_STARTS) for cell in _split_outside_quotes(line, ";"))
    assert _read(text)[1][0] == value and _read(text)[0][6] == value


@pytest.mark.parametrize(
    ("answer", "word"),
    [
        ("going", "going"),
        ("declined", "declined"),
        ("maybe", "maybe"),
        ("waiting", "waiting"),
        ("no_reply", "no reply"),
    ],
)
def test_the_answer_words(answer, word):
    assert guest_sheet.answer_word(answer) == word


def _split_outside_quotes(line: str, separator: str) -> list[str]:
    """The cells a spreadsheet whose list separator is ``separator`` makes of ``line``: it splits at each
    separator outside quotes (a quote toggles quoting), each cell's quotes then dropped."""
    cells, cell, quoted = [], "", False
    for char in line:
        if char == '"':
            quoted = not quoted
        elif char == separator and not quoted:
            cells.append(cell)
            cell = ""
        else:
            cell += char
    return [*cells, cell]
