"""api.request: path ids parsed strictly (anything else is a 404)."""

from __future__ import annotations

import pytest

from chalicelib.api.request import parse_id
from chalicelib.errors import NotFound
from chalicelib.ids import MAX_ID


@pytest.mark.parametrize("raw", ["", "0", "abc", "-1", "1e3", "١٢", str(MAX_ID + 1), "1" * 17, None])
def test_parse_id_rejects_what_is_not_an_id(raw):
    with pytest.raises(NotFound):
        parse_id(raw)


def test_parse_id_accepts_53_bit_ids():
    assert parse_id("42") == 42 and parse_id(str(MAX_ID)) == MAX_ID
