"""Reading a guest's reply to a text that asked: going, not going, maybe, and the people a going guest brings.

A reply is read trimmed and without regard to case, accents, punctuation, emoji skin tones or joiners, so
``Yes!``, ``sí``, ``Non.`` and 👍🏽 read as their plain words. ``1 +2``, ``1+2`` and ``YES 2`` accept with 2
extra guests. Anything else reads as nothing (None): the caller answers it with the help text. The STOP,
START and HELP words are read before this (services/texts/inbound_sms.py) and win.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from dataclasses import dataclass


class Answer(enum.Enum):
    GOING = "going"
    DECLINED = "declined"
    MAYBE = "maybe"


GOING_WORDS = frozenset({"1", "YES", "Y", "GOING", "SI", "OUI", "JA", "SIM", "כן", "نعم", "👍"})
DECLINED_WORDS = frozenset({"2", "NO", "N", "NON", "NEIN", "NAO", "לא", "لا", "👎"})
MAYBE_WORDS = frozenset({"3", "MAYBE"})
MOST_EXTRA_DIGITS = 3  # "1 +9999" is no party size anybody means: it reads as nothing
# Dropped before reading: accents and other marks (M*), punctuation (P*), emoji modifiers such as skin tones
# (Sk), and format characters such as joiners and direction marks (Cf).
_DROPPED = ("M", "P", "Sk", "Cf")
_WITH_EXTRA = re.compile(rf"^(\S+?)(?: ?\+ ?| )(\d{{1,{MOST_EXTRA_DIGITS}}})$")  # a space or a + between


@dataclass(frozen=True)
class TextReply:
    answer: Answer
    extra_guests: int | None = None  # people brought along, when the reply named a number


def plain(body: str) -> str:
    """``body`` as its words are compared: decomposed, marks, punctuation and modifiers dropped, spaces made
    single, upper case. ``+`` stays: it is a math symbol, not punctuation."""
    decomposed = unicodedata.normalize("NFKD", body)
    kept = "".join(
        " " if ch.isspace() else ch for ch in decomposed if not unicodedata.category(ch).startswith(_DROPPED)
    )
    return " ".join(kept.split()).upper()


def _answer_of(word: str) -> Answer | None:
    if word in GOING_WORDS:
        return Answer.GOING
    if word in DECLINED_WORDS:
        return Answer.DECLINED
    if word in MAYBE_WORDS:
        return Answer.MAYBE
    return None


def read_reply(body: str) -> TextReply | None:
    """What a reply answers, or None when it is none of the words."""
    words = plain(body)
    answer = _answer_of(words)
    if answer is not None:
        return TextReply(answer)
    with_extra = _WITH_EXTRA.match(words)
    if with_extra is None or _answer_of(with_extra.group(1)) is not Answer.GOING:
        return None
    return TextReply(Answer.GOING, int(with_extra.group(2)))
