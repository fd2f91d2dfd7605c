"""The removal text in every language of the catalogues: the longest name and title within its segments (GSM-7
at most 2, UCS-2 at most 3), in the language's own words."""

from __future__ import annotations

import pytest

from chalicelib.languages.catalogues import available, words
from chalicelib.messaging import sms_segments as sms
from chalicelib.services.texts.removal_texts import REMOVED, removal_text
from tests.services.texts.test_text_languages import _event, _longest, _owner

CJK_NAME, CJK_TITLE = "山田花子", "庭での誕生日パーティー🎂「特別な夜」"


@pytest.mark.parametrize("language", available())
def test_the_removal_text_keeps_to_its_segments_with_the_longest_name_and_title(aws, language):
    name, title = _longest(language)
    said = words(language)

    text = removal_text(_owner(name), _event(title), said)

    assert sms.segments(text) <= (2 if sms.encoding(text) == "gsm" else 3), text
    assert name[:10].rstrip() in text and title[:20].rstrip() in text
    assert text.startswith("Invites") and text.endswith(said._("Reply STOP to opt out."))
    if language != "en":
        assert said._(REMOVED) != REMOVED  # translated, not the English words


def test_a_cjk_title_with_emoji_keeps_within_three_ucs2_segments(aws):
    text = removal_text(_owner(CJK_NAME * 30), _event(CJK_TITLE * 10), words("en"))

    assert sms.encoding(text) == "ucs2" and sms.segments(text) <= 3
    assert text.startswith(f"Invites: {CJK_NAME}") and "庭での誕生日パーティー" in text
