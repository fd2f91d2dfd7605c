"""The host's guest list as a spreadsheet (CSV): the rows, their cells, the file's name. No storage here.

RFC 4180: comma-separated, every field quoted (quotes doubled), CRLF between records. Quoting every cell
keeps a cell whole in a spreadsheet whose list separator is ``;`` (much of Europe): ``a;=1+1`` unquoted
would split there into a cell starting with ``=``. The text starts with a UTF-8 byte order mark: Excel
opens a CSV without one in the machine's legacy code page, which garbles every name outside Latin-1
(Hebrew, Cyrillic, emoji); with it, Excel, Numbers, LibreOffice and Google Sheets all read UTF-8, and none
shows the mark. A cell a spreadsheet would run as a formula (starting with ``=``, ``+``, ``-``, ``@``, a
tab or a carriage return) gets a leading ``'``, which spreadsheets take as "text" (OWASP's advice for CSV
injection).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from chalicelib.domain import answers

BYTE_ORDER_MARK = "\ufeff"
CONTENT_TYPE = "text/csv; charset=utf-8"
MAX_ROWS = 600  # 500 invitees and 100 offline guests at most: every row fits, the sheet never grows past it
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

GOING, DECLINED, MAYBE, WAITING, NO_REPLY = "going", "declined", "maybe", "waiting", "no reply"
COLUMNS = ("name", "phone", "answer", "extra guests", "waitlist position", "message")
CHECKED_IN = "checked in"  # after the questions' columns (the others keep their places)
# The columns added after "checked in", so a sheet read by position keeps every column it had.
INSIGHT_COLUMNS = ("invited via", "first opened at")


@dataclass(frozen=True)
class Question:
    """One column of answers: the question's id and the words shown as the column's heading."""

    id: str
    label: str


@dataclass(frozen=True)
class GuestRow:
    name: str
    phone: str  # E.164, "" for a guest without a phone
    answer: str  # GOING, DECLINED, WAITING or NO_REPLY
    extra_guests: int = 0
    waitlist_position: int | None = None
    message: str = ""
    answers: dict[str, str] = field(default_factory=dict)  # question id: the guest's answer
    checked_in: str = ""  # when the party was checked in at the door (UTC, ISO 8601), "" when not
    invited_via: str = ""  # push, text or link (domain/invitation_insight.py), "" for a guest without a phone
    first_opened_at: str = ""  # the guest's first visit of their page (UTC, ISO 8601), "" when never


def answer_word(answer: str) -> str:
    """The sheet's word for an invitation's ``answer`` (domain/answers.py): the same, but ``no reply`` in two
    words, as the sheet has always said it."""
    return NO_REPLY if answer == answers.NO_REPLY else answer


def safe_cell(value: object) -> str:
    """The cell as text, with a leading ``'`` when a spreadsheet would read it as a formula."""
    text = "" if value is None else str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def sheet(rows: Iterable[GuestRow], questions: Sequence[Question] = ()) -> str:
    """The CSV text: a heading row, then one row per guest (at most MAX_ROWS), one column per question, when
    each party was checked in at the door, how the invitation reached them and when they first opened their
    page."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_ALL)  # RFC 4180, quotes doubled
    headings = (*COLUMNS, *(question.label for question in questions), CHECKED_IN, *INSIGHT_COLUMNS)
    writer.writerow([safe_cell(name) for name in headings])
    for count, row in enumerate(rows):
        if count == MAX_ROWS:
            break
        cells = [row.name, row.phone, row.answer, row.extra_guests, row.waitlist_position or "", row.message]
        cells += [row.answers.get(question.id, "") for question in questions]
        cells += [row.checked_in, row.invited_via, row.first_opened_at]
        writer.writerow([safe_cell(cell) for cell in cells])
    return BYTE_ORDER_MARK + out.getvalue()
