"""Reading a reply to a text that asked, without AWS: every word of the contract, then properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chalicelib.domain.text_replies import Answer, TextReply, read_reply

GOING = ["1", "YES", "Y", "GOING", "SI", "SÍ", "OUI", "JA", "SIM", "כן", "نعم", "👍"]
DECLINED = ["2", "NO", "N", "NON", "NEIN", "NÃO", "לא", "لا", "👎"]
MAYBE = ["3", "MAYBE"]


@pytest.mark.parametrize("word", GOING)
def test_every_going_word_accepts(word):
    assert read_reply(word) == TextReply(Answer.GOING)


@pytest.mark.parametrize("word", DECLINED)
def test_every_declining_word_declines(word):
    assert read_reply(word) == TextReply(Answer.DECLINED)


@pytest.mark.parametrize("word", MAYBE)
def test_three_and_maybe_are_maybe(word):
    assert read_reply(word) == TextReply(Answer.MAYBE)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("  yes! ", TextReply(Answer.GOING)),
        ("Yes.", TextReply(Answer.GOING)),
        ("sí", TextReply(Answer.GOING)),
        ("Oui !", TextReply(Answer.GOING)),
        ("👍🏽", TextReply(Answer.GOING)),  # a skin tone is still a thumbs up
        ("👍\ufe0f", TextReply(Answer.GOING)),
        ("não", TextReply(Answer.DECLINED)),
        ("Nein.", TextReply(Answer.DECLINED)),
        ("\u200fלא", TextReply(Answer.DECLINED)),  # a right-to-left mark a phone put first
        ("\ufefb", TextReply(Answer.DECLINED)),  # the lam-alef ligature
        ("Maybe?", TextReply(Answer.MAYBE)),
        ("1 +2", TextReply(Answer.GOING, 2)),
        ("1+2", TextReply(Answer.GOING, 2)),
        ("YES 2", TextReply(Answer.GOING, 2)),
        ("yes + 3", TextReply(Answer.GOING, 3)),
        ("1 +0", TextReply(Answer.GOING, 0)),
    ],
)
def test_case_accents_punctuation_and_modifiers_do_not_matter(body, expected):
    assert read_reply(body) == expected


@pytest.mark.parametrize(
    "body",
    ["", " ", "12", "21", "hello", "yes please", "2 +1", "3 +1", "+2", "1 +1000", "4", "STOP", "HELP", "1 2 3"],
)
def test_anything_else_reads_as_nothing(body):
    assert read_reply(body) is None


@given(
    st.sampled_from(GOING + DECLINED + MAYBE),
    st.sampled_from(["", " ", "  ", "\n"]),
    st.sampled_from(["", ".", "!", "?!", " ."]),
)
def test_padding_and_punctuation_never_change_the_answer(word, space, punctuation):
    assert read_reply(f"{space}{word.lower()}{punctuation}{space}") == read_reply(word)


@given(st.integers(min_value=0, max_value=999), st.sampled_from(["1 +{}", "1+{}", "YES {}", "going + {}"]))
def test_any_party_size_a_person_could_mean_is_read(extra, form):
    assert read_reply(form.format(extra)) == TextReply(Answer.GOING, extra)


@given(st.text(max_size=40))
def test_any_text_reads_as_an_answer_or_nothing(body):
    reply = read_reply(body)
    assert reply is None or isinstance(reply.answer, Answer)
