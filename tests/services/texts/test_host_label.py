"""How a host is named to guests: a name, else the last four digits of their number, never the whole number."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from chalicelib.services.texts.host_label import host_label


@pytest.mark.parametrize(
    ("full_name", "number", "shown"),
    [
        ("Dana Cohen", "+14155550123", "Dana Cohen"),
        ("", "+14155550123", "Your host (number ending 0123)"),
        (None, "+442071838750", "Your host (number ending 8750)"),
        ("\u200b\u2060", "+14155550123", "Your host (number ending 0123)"),  # only invisible characters
        ("", "", "Your host"),
    ],
)
def test_a_host_is_named_or_shown_by_the_end_of_their_number(full_name, number, shown):
    assert host_label(SimpleNamespace(full_name=full_name, phone_number=number)) == shown


def test_a_host_whose_account_is_gone_is_your_host():
    assert host_label(None) == "Your host"
