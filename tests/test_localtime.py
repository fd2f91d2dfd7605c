"""How a stored UTC date reads in an event's own zone."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from chalicelib import localtime
from chalicelib.models.events import Event

ROOT = Path(__file__).resolve().parent.parent


def _event(when: datetime, *, zone: str | None = None, offset: int | None = None, timed: bool = True) -> Event:
    return Event(event_date=when, is_time_specified=timed, time_zone=zone, utc_offset_minutes=offset)


@pytest.mark.parametrize(
    ("zone", "offset", "short", "long"),
    [
        ("America/Los_Angeles", None, "Sat, Dec 12 at 8:30 PM PST", "Saturday, December 12, 2026 at 8:30 PM PST"),
        ("Europe/Berlin", -480, "Sun, Dec 13 at 5:30 AM CET", "Sunday, December 13, 2026 at 5:30 AM CET"),
        ("Asia/Kathmandu", None, "Sun, Dec 13 at 10:15 AM UTC+5:45", "Sunday, December 13, 2026 at 10:15 AM UTC+5:45"),
        (None, -480, "Sat, Dec 12 at 8:30 PM UTC-8", "Saturday, December 12, 2026 at 8:30 PM UTC-8"),
        (None, None, "Sun, Dec 13 at 4:30 AM UTC", "Sunday, December 13, 2026 at 4:30 AM UTC"),
        ("UTC", None, "Sun, Dec 13 at 4:30 AM UTC", "Sunday, December 13, 2026 at 4:30 AM UTC"),
    ],
)
def test_a_timed_event_reads_in_its_zone_else_its_offset(zone, offset, short, long):
    event = _event(datetime(2026, 12, 13, 4, 30, tzinfo=UTC), zone=zone, offset=offset)
    assert localtime.short_when(event) == short and localtime.long_when(event) == long


def test_noon_and_midnight_on_a_twelve_hour_clock():
    assert localtime.clock(datetime(2026, 1, 1, 0, 5)) == "12:05 AM"
    assert localtime.clock(datetime(2026, 1, 1, 12, 0)) == "12:00 PM"


def test_a_day_event_keeps_the_day_it_was_sent_with_whatever_the_zone():
    event = _event(datetime(2026, 12, 12, 8, 0, tzinfo=UTC), zone="Pacific/Kiritimati", offset=-480, timed=False)
    assert localtime.short_when(event) == "Sat, Dec 12" and localtime.long_when(event) == "Saturday, December 12, 2026"


@pytest.mark.parametrize(
    "name",
    ["", "Nowhere/City", "../etc/passwd", "/etc/localtime", "Europe/", "x" * 65, "Etc/..", "localtime", "posixrules",
     "posix/Europe/Paris", "right/UTC", "zone.tab", "europe/paris"],
)  # fmt: skip
def test_names_that_are_no_zone(name):
    assert localtime.zone(name) is None


@pytest.mark.parametrize("name", ["America/Los_Angeles", "UTC", "Etc/GMT+5", "US/Pacific", "Asia/Kolkata"])
def test_names_of_the_tz_database_are_zones(name):
    assert localtime.zone(name).key == name


def test_zones_resolve_from_the_tzdata_package_without_a_system_database():
    # what a Lambda image without /usr/share/zoneinfo does: only the tzdata package of requirements.txt
    code = (
        "import zoneinfo; from chalicelib import localtime; assert zoneinfo.TZPATH == (), zoneinfo.TZPATH; "
        "z = localtime.zone('America/Los_Angeles'); print(z.__class__.__name__, z.key)"
    )
    env = {**os.environ, "PYTHONTZPATH": "", "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["ZoneInfo", "America/Los_Angeles"]
