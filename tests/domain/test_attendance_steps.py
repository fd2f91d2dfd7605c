"""When the steps before an event's start fall due: quiet hours in the event's zone, daylight saving, the
release only after the ask."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from chalicelib.domain import attendance_steps
from chalicelib.domain.attendance_steps import CONFIRM, RELEASE, REMINDER

NEW_YORK = ZoneInfo("America/New_York")


def _event(start: datetime, zone: str = "America/New_York", **settings) -> SimpleNamespace:
    fields = {"reminder_hours": None, "confirm_attendance": None, "confirm_hours": None, "release_unconfirmed": None}
    return SimpleNamespace(event_date=start, time_zone=zone, utc_offset_minutes=None, **{**fields, **settings})


def test_defaults_remind_a_day_before_and_ask_nothing():
    start = datetime(2030, 1, 12, 17, 0, tzinfo=UTC)  # Sat noon EST
    assert attendance_steps.due_times(_event(start)) == {
        REMINDER: datetime(2030, 1, 11, 17, 0, tzinfo=UTC),
        CONFIRM: None,
        RELEASE: None,
    }
    assert attendance_steps.due_times(_event(start, reminder_hours=0))[REMINDER] is None


def test_a_step_in_quiet_hours_moves_to_8_pm_the_evening_before_them():
    start = datetime(2030, 1, 12, 12, 0, tzinfo=UTC)  # Sat 7:00 AM EST
    due = attendance_steps.due_times(_event(start, reminder_hours=2, confirm_attendance=True, confirm_hours=10))
    assert due[REMINDER] == due[CONFIRM] == datetime(2030, 1, 12, 1, 0, tzinfo=UTC)  # Fri 8:00 PM EST
    late = attendance_steps.due_times(_event(datetime(2030, 1, 12, 3, 30, tzinfo=UTC), reminder_hours=1))
    assert late[REMINDER] == datetime(2030, 1, 12, 1, 0, tzinfo=UTC)  # 9:30 PM -> 8:00 PM the same evening


def test_the_release_comes_3_hours_before_and_only_after_the_ask():
    start = datetime(2030, 1, 12, 23, 0, tzinfo=UTC)
    asked = _event(start, confirm_attendance=True, release_unconfirmed=True)
    assert attendance_steps.due_times(asked)[RELEASE] == datetime(2030, 1, 12, 20, 0, tzinfo=UTC)
    too_late = _event(start, confirm_attendance=True, confirm_hours=2, release_unconfirmed=True)
    assert attendance_steps.due_times(too_late)[RELEASE] is None
    assert attendance_steps.due_times(_event(start, release_unconfirmed=True))[RELEASE] is None


@given(
    st.datetimes(min_value=datetime(2026, 1, 1), max_value=datetime(2035, 12, 31), timezones=st.just(UTC)),
    st.integers(min_value=1, max_value=168),
    st.sampled_from(["America/New_York", "Europe/Berlin", "Asia/Tokyo", "Asia/Kolkata", "Australia/Lord_Howe"]),
)
def test_a_text_step_never_falls_in_quiet_hours_nor_after_its_time(start, hours, zone):
    due = attendance_steps.due_times(_event(start, zone, reminder_hours=hours))[REMINDER]
    local = due.astimezone(ZoneInfo(zone))
    assert 8 <= local.hour < 21
    assert due <= start - timedelta(hours=hours)
