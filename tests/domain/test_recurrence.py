"""The dates of a series, without AWS: daylight-saving changes north and south, month ends, leap days, then
properties over any start, zone and rule."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from chalicelib.domain import recurrence
from chalicelib.domain.recurrence import MONTHLY, WEEKLY, Repeat

NEW_YORK = ZoneInfo("America/New_York")
SYDNEY = ZoneInfo("Australia/Sydney")
SAO_PAULO = ZoneInfo("America/Sao_Paulo")
LONDON = ZoneInfo("Europe/London")


def _local(moments, zone):
    return [moment.astimezone(zone) for moment in moments]


def test_weekly_at_seven_stays_seven_across_both_changes_in_new_york():
    # 2026: DST starts Mar 8, ends Nov 1
    first = datetime(2026, 2, 24, 19, 0, tzinfo=NEW_YORK)
    dates = recurrence.occurrences(first, NEW_YORK, Repeat(WEEKLY, interval=2, count=26))
    local = _local(dates, NEW_YORK)
    assert len(dates) == 26
    assert {(moment.hour, moment.minute, moment.weekday()) for moment in local} == {(19, 0, 1)}
    offsets = {moment.utcoffset() for moment in local}
    assert offsets == {timedelta(hours=-5), timedelta(hours=-4)}  # both sides of both changes
    assert local[1].date() == date(2026, 3, 10) and local[1].utcoffset() == timedelta(hours=-4)
    assert dates[0] == first.astimezone(UTC)


def test_weekly_in_sydney_crosses_the_southern_changes():
    # Sydney: daylight time ends Apr 5 2026, starts Oct 4 2026
    first = datetime(2026, 3, 1, 19, 0, tzinfo=SYDNEY)
    dates = recurrence.occurrences(first, SYDNEY, Repeat(WEEKLY, interval=2, count=26))
    local = _local(dates, SYDNEY)
    assert all((moment.hour, moment.minute) == (19, 0) for moment in local)
    assert {moment.utcoffset() for moment in local} == {timedelta(hours=11), timedelta(hours=10)}
    utc_hours = {moment.hour for moment in dates}
    assert utc_hours == {8, 9}  # the same wall time is two different UTC hours


def test_sao_paulo_history_keeps_the_wall_time_when_the_zone_still_had_summer_time():
    # Brazil's summer time: until Feb 17 2018, again from Nov 4 2018 (its last season)
    first = datetime(2018, 1, 9, 20, 30, tzinfo=SAO_PAULO)
    dates = recurrence.occurrences(first, SAO_PAULO, Repeat(MONTHLY, interval=1, count=12))
    local = _local(dates, SAO_PAULO)
    assert [(moment.day, moment.hour, moment.minute) for moment in local] == [(9, 20, 30)] * 12
    assert {moment.utcoffset() for moment in local} == {timedelta(hours=-2), timedelta(hours=-3)}


def test_monthly_on_the_31st_falls_on_each_months_last_day():
    first = datetime(2027, 1, 31, 18, 0, tzinfo=LONDON)
    dates = recurrence.occurrences(first, LONDON, Repeat(MONTHLY, count=12))
    days = [moment.date() for moment in _local(dates, LONDON)]
    assert days == [
        date(2027, 1, 31), date(2027, 2, 28), date(2027, 3, 31), date(2027, 4, 30), date(2027, 5, 31),
        date(2027, 6, 30), date(2027, 7, 31), date(2027, 8, 31), date(2027, 9, 30), date(2027, 10, 31),
        date(2027, 11, 30), date(2027, 12, 31),
    ]  # fmt: skip
    assert {moment.hour for moment in _local(dates, LONDON)} == {18}


def test_monthly_on_the_30th_takes_the_leap_day_in_february_of_a_leap_year():
    first = datetime(2027, 12, 30, 9, 0, tzinfo=UTC)
    dates = recurrence.occurrences(first, UTC, Repeat(MONTHLY, count=4))
    assert [moment.date() for moment in dates] == [date(2027, 12, 30), date(2028, 1, 30), date(2028, 2, 29),
                                                    date(2028, 3, 30)]  # fmt: skip


def test_a_leap_day_start_repeats_monthly_on_the_29th_and_on_the_28th_in_a_common_february():
    first = datetime(2028, 2, 29, 12, 0, tzinfo=UTC)
    monthly = recurrence.occurrences(first, UTC, Repeat(MONTHLY, interval=4, count=4))
    assert [moment.date() for moment in monthly] == [date(2028, 2, 29), date(2028, 6, 29), date(2028, 10, 29),
                                                      date(2029, 2, 28)]  # fmt: skip


def test_a_wall_time_the_spring_change_skips_moves_forward_by_the_gap():
    first = datetime(2026, 3, 1, 2, 30, tzinfo=NEW_YORK)
    second = recurrence.occurrences(first, NEW_YORK, Repeat(WEEKLY, count=2))[1]
    assert second.astimezone(NEW_YORK).replace(tzinfo=None) == datetime(2026, 3, 8, 3, 30)


def test_a_bare_offset_keeps_its_offset():
    zone = timezone(timedelta(hours=5, minutes=30))
    first = datetime(2026, 5, 4, 19, 0, tzinfo=zone)
    dates = recurrence.occurrences(first, zone, Repeat(WEEKLY, count=3))
    assert [moment.astimezone(zone).hour for moment in dates] == [19, 19, 19]


def test_until_is_inclusive_of_its_local_day():
    first = datetime(2026, 6, 2, 23, 0, tzinfo=SYDNEY)
    dates = recurrence.occurrences(first, SYDNEY, Repeat(WEEKLY, until=date(2026, 6, 16)))
    assert [moment.astimezone(SYDNEY).day for moment in dates] == [2, 9, 16]


def test_until_past_a_year_or_past_26_dates_or_before_a_second_date_is_a_problem():
    first = datetime(2026, 6, 2, 19, 0, tzinfo=UTC)
    assert recurrence.span_problem(Repeat(MONTHLY, until=date(2027, 6, 3)), first, UTC) == (
        "until", recurrence.UNTIL_TOO_LATE)  # fmt: skip
    assert recurrence.span_problem(Repeat(WEEKLY, until=date(2027, 1, 1)), first, UTC) == (
        "until", recurrence.TOO_MANY_DATES)  # fmt: skip
    assert recurrence.span_problem(Repeat(WEEKLY, until=date(2026, 6, 8)), first, UTC) == (
        "until", recurrence.UNTIL_TOO_EARLY)  # fmt: skip
    assert recurrence.span_problem(Repeat(MONTHLY, until=date(2027, 6, 1)), first, UTC) is None


def test_the_cadence_is_the_weekday_or_the_day_of_the_month_in_the_events_zone():
    tuesday = datetime(2026, 12, 1, 19, 0, tzinfo=UTC)
    assert recurrence.cadence(Repeat(WEEKLY, interval=2), tuesday, UTC) == recurrence.Cadence(WEEKLY, 2, 1)
    assert recurrence.cadence(Repeat(MONTHLY, interval=3), tuesday, UTC) == recurrence.Cadence(MONTHLY, 3, 1)
    late = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)  # still Monday evening, November 30th, in New York
    assert recurrence.cadence(Repeat(WEEKLY), late, NEW_YORK) == recurrence.Cadence(WEEKLY, 1, 0)
    assert recurrence.cadence(Repeat(MONTHLY), late, NEW_YORK) == recurrence.Cadence(MONTHLY, 1, 30)


def test_a_cadence_goes_through_a_message_and_nothing_else_passes_for_one():
    cadence = recurrence.Cadence(MONTHLY, 4, 31)
    assert recurrence.Cadence.from_message(cadence.as_message()) == cadence
    for carried in (None, "every Tuesday", {"freq": "daily", "interval": 1, "day": 1},
                    {"freq": WEEKLY, "interval": 5, "day": 1}, {"freq": WEEKLY, "interval": 1, "day": 7},
                    {"freq": MONTHLY, "interval": "2", "day": 3}, {"freq": MONTHLY, "interval": 1}):
        assert recurrence.Cadence.from_message(carried) is None, carried  # fmt: skip


# --------------------------------------------------------------------------- properties

ZONES = [NEW_YORK, SYDNEY, SAO_PAULO, LONDON, ZoneInfo("Asia/Jerusalem"), ZoneInfo("Pacific/Chatham"),
         ZoneInfo("America/Santiago"), ZoneInfo("Asia/Kolkata"), UTC]  # fmt: skip


def _exists(wall: datetime, zone) -> bool:
    return recurrence.placed(wall, zone).astimezone(zone).replace(tzinfo=None) == wall


@st.composite
def series(draw):
    zone = draw(st.sampled_from(ZONES))
    wall = draw(st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2098, 1, 1)))
    wall = wall.replace(second=0, microsecond=0)
    freq = draw(st.sampled_from(recurrence.FREQUENCIES))
    repeat = Repeat(freq, interval=draw(st.integers(1, 4)), count=draw(st.integers(2, 26)))
    return zone, wall, repeat


@settings(max_examples=300, deadline=None)
@given(series())
def test_every_date_keeps_the_wall_time_where_that_time_exists(case):
    zone, wall, repeat = case
    first = recurrence.placed(wall, zone)
    start = first.astimezone(zone).replace(tzinfo=None)  # a skipped first time moved forward already
    walls = recurrence.local_walls(first, zone, repeat)
    dates = recurrence.occurrences(first, zone, repeat)
    assert len(dates) == repeat.count == len(walls)
    assert dates == sorted(set(dates))  # strictly increasing, no date twice
    for local_wall, moment in zip(walls, dates, strict=True):
        assert local_wall.time() == start.time()
        if _exists(local_wall, zone):
            assert moment.astimezone(zone).replace(tzinfo=None) == local_wall
        else:  # skipped by a spring change: moved forward by less than a day, never backwards
            assert timedelta(0) < moment.astimezone(zone).replace(tzinfo=None) - local_wall < timedelta(hours=3)


@settings(max_examples=300, deadline=None)
@given(series())
def test_weekly_dates_keep_the_weekday_and_monthly_dates_the_day_or_the_months_last(case):
    zone, wall, repeat = case
    first = recurrence.placed(wall, zone)
    start = first.astimezone(zone).replace(tzinfo=None)
    walls = recurrence.local_walls(first, zone, repeat)
    if repeat.freq == WEEKLY:
        assert all((later - start).days == 7 * repeat.interval * n for n, later in enumerate(walls))
        return
    for n, later in enumerate(walls):
        month = start.month - 1 + n * repeat.interval
        year, month = start.year + month // 12, month % 12 + 1
        days_in_month = ((date(year + month // 12, month % 12 + 1, 1)) - date(year, month, 1)).days
        assert (later.year, later.month, later.day) == (year, month, min(start.day, days_in_month))
