import pytest

from chalicelib.phones import mask_phone, normalize_phone


@pytest.mark.parametrize(
    ("raw", "e164"),
    [
        ("+1 (415) 555-2671", "+14155552671"),
        ("+44 7911 123456", "+447911123456"),
        (" +4915123456789 ", "+4915123456789"),
    ],
)
def test_valid_numbers_become_e164(raw, e164):
    assert normalize_phone(raw) == e164


@pytest.mark.parametrize("raw", ["4155552671", "+1", "+999 123", "+1 415 555 267", None, 14155552671, "+" + "1" * 40])
def test_invalid_numbers_are_none(raw):
    assert normalize_phone(raw) is None


def test_masked_number_shows_only_prefix_and_last_digits():
    assert mask_phone("+14155552671") == "+14*******71"
