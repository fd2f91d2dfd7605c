from datetime import UTC, datetime

import pytest

from chalicelib.timeutil import format_datetime, parse_datetime

UTC_NOON = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    "text",
    [
        "2026-12-01T12:00:00Z",
        "2026-12-01T12:00:00.000Z",
        "2026-12-01T14:00:00+02:00",
        "2026-12-01T12:00:00",
        "2026-12-01T07:00:00-05:00",
        "2026-12-01T12:00:00.000000+00:00",
    ],
)
def test_any_iso_8601_form_is_read_as_utc(text):
    assert parse_datetime(text) == UTC_NOON


def test_unix_seconds_only_where_allowed():
    assert parse_datetime(UTC_NOON.timestamp(), allow_unix=True) == UTC_NOON
    assert parse_datetime(str(int(UTC_NOON.timestamp())), allow_unix=True) == UTC_NOON
    assert parse_datetime("1796140800.5", allow_unix=True) is not None
    assert parse_datetime(1796140800) is None


@pytest.mark.parametrize("value", ["tomorrow", "", "2026-13-01T00:00:00Z", None, True, [], "1e400"])
def test_not_a_date_is_none(value):
    assert parse_datetime(value, allow_unix=True) is None


def test_output_is_utc_with_z():
    assert format_datetime(parse_datetime("2026-12-01T14:00:00.123+02:00")) == "2026-12-01T12:00:00Z"
