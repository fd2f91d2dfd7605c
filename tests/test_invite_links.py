"""Link codes (no database)."""

from __future__ import annotations

import base64

import pytest

from chalicelib import invite_links
from chalicelib.ids import MAX_ID


def test_a_code_is_32_url_safe_characters_naming_its_event_with_136_random_bits():
    codes = {invite_links.new_code(MAX_ID) for _ in range(2000)}
    assert len(codes) == 2000
    for code in list(codes)[:50]:
        assert len(code) == 32 and code.isascii() and all(c.isalnum() or c in "-_" for c in code)
        raw = base64.urlsafe_b64decode(code)
        assert len(raw) == 24 and len(raw) - invite_links.EVENT_ID_BYTES == 17  # 136 random bits
        assert invite_links.event_id_of(code) == MAX_ID


@pytest.mark.parametrize(
    "code",
    ["", "abc", "A" * 31, "A" * 33, "A" * 31 + "=", "A" * 31 + "+", "A" * 31 + "/", "A" * 32, "\u00e9" * 32, None],
)
def test_malformed_codes_name_no_event(code):
    assert invite_links.event_id_of(code) is None


def test_a_code_naming_an_id_beyond_2_53_names_no_event():
    raw = (MAX_ID + 1).to_bytes(7, "big") + bytes(17)
    assert invite_links.event_id_of(base64.urlsafe_b64encode(raw).decode()) is None
