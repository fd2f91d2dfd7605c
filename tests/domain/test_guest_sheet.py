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
    assert _read(text)[1] == ['Bo "the" Host, Jr.', "", "going", "0", "", "line one\nline two", ""]


def test_one_column_per_question_in_order_with_the_guests_answers():
    questions = [Question("diet", "Dietary needs"), Question("bring", "=Bringing")]
    rows = [
        GuestRow("Ann", "+14155550100", GOING, answers={"diet": "vegan", "bring": "-salad"}),
        GuestRow("Bob", "+14155550101", NO_REPLY),
    ]
    read = _read(guest_sheet.sheet(rows, questions))
    assert read[0][6:] == ["Dietary needs", "'=Bringing", "checked in"]
    assert read[1][6:] == ["vegan", "'-salad", ""]
    assert read[2][6:] == ["", "", ""]


def test_the_sheet_holds_at_most_500_rows():
    rows = (GuestRow(f"Guest {n}", "", WAITING, waitlist_position=n + 1) for n in range(600))
    read = _read(guest_sheet.sheet(rows))
    assert len(read) == 1 + guest_sheet.MAX_ROWS
    assert read[-1][:5] == ["Guest 499", "", "waiting", "0", "500"]


@pytest.mark.parametrize(
    ("has_accepted", "waiting", "answer"),
    [(True, False, "going"), (False, False, "declined"), (None, False, "no reply"), (None, True, "waiting")],
)
def test_the_answer_words(has_accepted, waiting, answer):
    assert guest_sheet.answer_of(has_accepted, waiting=waiting) == answer
