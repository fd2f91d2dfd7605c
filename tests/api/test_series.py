"""Series over the API: POST /events with ``repeat``, its dates, its one text per number, its limits and costs."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from chalicelib.domain.recurrence import Repeat
from chalicelib.errors import Throttled
from chalicelib.services.hosting import events, series
from tests.utils.api import body, get, post_event, post_json, texts_to
from tests.utils.factories import make_person, phone, table_items
from tests.utils.races import race

NEW_YORK = ZoneInfo("America/New_York")
BOOK_CLUB = {"title": "Book club", "event_date": "2026-12-08T19:00:00-05:00", "time_zone": "America/New_York"}


def _numbers(first: int, count: int) -> list[str]:
    """Numbers that can be texted (the emulator has every number ending in 99 opted out)."""
    return [phone(n) for n in range(first, first + count + count // 99 + 1) if n % 100 != 99][:count]


def _series(client, owner, repeat, **fields):
    return post_event(client, owner, **{**BOOK_CLUB, "repeat": repeat, **fields})


@pytest.fixture(autouse=True)
def before_the_first_date(monkeypatch):
    """The series of these tests start on 2026-12-08; the service's clock reads 2026-12-01."""
    monkeypatch.setattr(series, "utcnow", lambda: datetime(2026, 12, 1, 12, 0, tzinfo=UTC))


def test_a_series_is_one_event_per_date_keeping_the_wall_time_across_the_spring_change(client):
    olive, gus = make_person("Olive Owner"), make_person("Gus Guest")
    response = _series(client, olive, {"freq": "weekly", "interval": 2, "count": 8}, invite_phone_numbers=[gus.phone])
    assert response.status_code == 201, response.body
    created = body(response)
    dates = created["series"]["dates"]
    assert [date["occurrence"] for date in dates] == list(range(1, 9))
    assert created["id"] == dates[0]["id"] and created["series_id"] == created["series"]["id"]
    assert created["occurrence"] == 1
    local = [datetime.fromisoformat(date["event_date"].replace("Z", "+00:00")).astimezone(NEW_YORK) for date in dates]
    assert {(moment.hour, moment.minute, moment.weekday()) for moment in local} == {(19, 0, 1)}
    assert local[-1].utcoffset() != local[0].utcoffset()  # crossed March 8, 2027
    assert len({date["id"] for date in dates}) == 8
    for n, date in enumerate(dates, start=1):
        detail = body(get(client, f"/events/{date['id']}", gus.token))
        assert (detail["series_id"], detail["occurrence"], detail["title"]) == (created["series_id"], n, "Book club")
        assert [row["user_id"] for row in detail["invitees"]] == [olive.id, gus.id]
    listed = body(get(client, "/events?per_page=100", gus.token))
    assert [event["id"] for event in listed["results"]] == [date["id"] for date in dates]


def test_each_date_has_its_own_answers(client):
    olive, gus = make_person("Olive Owner"), make_person("Gus Guest")
    dates = body(_series(client, olive, {"freq": "monthly", "count": 3}, invite_phone_numbers=[gus.phone]))["series"]
    second = dates["dates"][1]["id"]
    response = client.http.post(f"/events/{second}/accept", headers={"Authorization": f"Bearer {gus.token}"})
    assert response.status_code == 200
    answers = [body(get(client, f"/events/{date['id']}", gus.token))["i_am_attending"] for date in dates["dates"]]
    assert answers == [False, True, False]


def test_an_event_without_repeat_is_no_series(client):
    olive = make_person("Olive Owner")
    created = body(post_event(client, olive))
    assert (created["series_id"], created["occurrence"]) == (None, None) and "series" not in created


def test_every_number_gets_one_text_for_the_whole_series(client):
    olive = make_person("Olive Owner")
    stranger = phone(8101)
    response = _series(client, olive, {"freq": "weekly", "interval": 2, "until": "2027-02-28"},
                       invite_phone_numbers=[stranger])  # fmt: skip
    assert response.status_code == 201
    assert len(body(response)["series"]["dates"]) == 6
    [text] = texts_to(stranger)
    assert text.startswith('Invites: Olive Owner invited you to "Book club", every other Tuesday from ')
    assert "Dec 8 at 7:00 PM EST" in text and text.endswith("Reply STOP to opt out.")
    assert "/i/" in text


@pytest.mark.parametrize(
    ("repeat", "errors"),
    [
        ({"freq": "daily", "count": 3}, {"freq": ['"daily" is not a valid choice.']}),
        ({"freq": "weekly", "count": 27}, {"count": ["Ensure this value is less than or equal to 26."]}),
        ({"freq": "weekly", "count": 1}, {"count": ["Ensure this value is greater than or equal to 2."]}),
        ({"freq": "weekly", "interval": 5, "count": 3}, {"interval": [
            "Ensure this value is less than or equal to 4."]}),
        ({"freq": "weekly"}, {"non_field_errors": ["Give either count or until."]}),
        ({"freq": "weekly", "count": 3, "until": "2027-01-01"}, {"non_field_errors": ["Give either count or until."]}),
        ({"freq": "monthly", "until": "2027-12-09"}, {"until": [
            "Ensure the series ends within a year of its first date."]}),
        ({"freq": "weekly", "until": "2027-12-01"}, {"until": ["A series has at most 26 dates."]}),
        ({"freq": "weekly", "until": "2026-12-10"}, {"until": ["Ensure the series ends after its first date."]}),
        ({"freq": "weekly", "until": "next year"}, {"until": [
            "Date has wrong format. Use one of these formats instead: YYYY-MM-DD."]}),
        ("weekly", {"non_field_errors": ["Invalid data. Expected a dictionary, but got str."]}),
    ],
)  # fmt: skip
def test_a_repeat_that_does_not_fit_is_400_keyed_by_its_field_and_stores_nothing(client, repeat, errors):
    olive = make_person("Olive Owner")
    before = table_items()
    response = _series(client, olive, repeat, invite_phone_numbers=[phone(8201)])
    assert response.status_code == 400
    assert body(response) == {"repeat": errors}
    assert table_items() == before and texts_to(phone(8201)) == []


def test_a_series_counts_as_one_event_of_the_day_and_its_numbers_once(client, override_settings):
    override_settings(events_per_owner_per_day=2, contact_lookup_numbers_per_user_per_day=30)
    olive = make_person("Olive Owner")
    numbers = _numbers(8300, 30)
    response = _series(client, olive, {"freq": "weekly", "count": 26}, invite_phone_numbers=numbers)
    assert response.status_code == 201, response.body
    assert post_event(client, olive).status_code == 201  # the series was one event of two
    assert post_event(client, olive).status_code == 429


def test_series_past_the_owners_daily_number_are_429_and_store_nothing(client, override_settings):
    override_settings(series_per_owner_per_day=2)
    olive = make_person("Olive Owner")
    for _ in range(2):
        assert _series(client, olive, {"freq": "weekly", "count": 2}).status_code == 201
    before = table_items()
    response = _series(client, olive, {"freq": "weekly", "count": 2})
    assert response.status_code == 429 and int(response.headers["Retry-After"]) > 0
    assert table_items() == before
    assert post_event(client, olive).status_code == 201  # single events are not series


def test_parallel_series_never_pass_the_owners_daily_number(aws, override_settings):
    override_settings(series_per_owner_per_day=3)
    olive = make_person("Olive Owner")
    first = datetime(2026, 12, 8, 19, tzinfo=NEW_YORK)

    def create(n: int) -> None:
        data = events.EventInput(title=f"S{n}", event_date=first, time_zone="America/New_York")
        series.create_series(olive.user, data, Repeat("weekly", count=2))

    outcomes = race(create, 8, refused=Throttled)
    assert outcomes.count("ok") == 3
    # 3 series: 2 dates of META, the owner's invitation and the reminder's step, the series
    assert len(table_items()) == 3 * (2 * 3 + 1)


def test_a_26_date_series_with_100_numbers_makes_a_bounded_number_of_calls(client, aws, override_settings):
    override_settings(invite_sms_per_owner_per_hour=100)
    olive = make_person("Olive Owner")
    numbers = _numbers(8400, 100)
    aws.reset()
    response = _series(client, olive, {"freq": "weekly", "count": 26}, invite_phone_numbers=numbers)
    assert response.status_code == 201
    calls = aws.of("dynamodb")
    assert calls["Scan"] == 0
    # 26 dates of 102 items: 2 TransactWriteItems each; the people, counters and texts as for one event (a counter
    # is a one-item transaction, applied once; the rows' text_status one more)
    assert calls["TransactWriteItems"] <= 26 * 2 + 8, calls
    # 74 when measured: 59 TransactWriteItems, 8 BatchWriteItem (the text outbox's records of the 100 texts, before
    # and after SNS took them), 6 BatchGetItem, 1 PutItem
    assert aws.total("dynamodb") <= 80, calls
    assert [len(texts_to(number)) for number in numbers] == [1] * 100


def test_a_date_that_cannot_be_stored_undoes_the_series(client, fail_aws, monkeypatch):
    olive = make_person("Olive Owner")
    from chalicelib.store import series as series_store

    def refuse(*_args, **_kwargs):
        raise RuntimeError("the series item could not be written")

    monkeypatch.setattr(series_store, "save_new_series", refuse)
    before = table_items()
    with pytest.raises(RuntimeError):
        series.create_series(
            olive.user,
            events.EventInput(title="T", event_date=datetime(2026, 12, 8, 19, tzinfo=NEW_YORK),
                              invite_phone_numbers=[phone(8501)]),
            Repeat("weekly", count=4),
        )  # fmt: skip
    assert table_items() == before
    assert texts_to(phone(8501)) == []


@pytest.mark.parametrize("code", ["ProvisionedThroughputExceededException", "ThrottlingException"])
def test_a_throttled_write_of_a_later_date_is_503_and_leaves_no_date_and_no_text(client, monkeypatch, code):
    from botocore.client import BaseClient

    from tests.utils.aws_faults import client_error

    olive = make_person("Olive Owner")
    before = table_items()
    original, saved = BaseClient._make_api_call, []

    def third_date_fails(self, operation_name, api_params):
        items = api_params.get("TransactItems", [])
        if operation_name == "TransactWriteItems" and any("META" in json.dumps(item) for item in items):
            saved.append(1)
            if len(saved) == 3:
                raise client_error(operation_name, code)
        return original(self, operation_name, api_params)

    monkeypatch.setattr(BaseClient, "_make_api_call", third_date_fails)
    response = _series(client, olive, {"freq": "weekly", "count": 4}, invite_phone_numbers=[phone(8701)])
    assert response.status_code == 503 and int(response.headers["Retry-After"]) > 0
    assert table_items() == before
    assert texts_to(phone(8701)) == []


def test_a_series_item_that_cannot_be_written_is_503_and_leaves_no_date(client, fail_aws):
    olive = make_person("Olive Owner")
    before = table_items()
    fail_aws("dynamodb", "PutItem")
    response = _series(client, olive, {"freq": "monthly", "count": 3}, invite_phone_numbers=[phone(8702)])
    assert response.status_code == 503
    assert table_items() == before and texts_to(phone(8702)) == []


def test_the_invite_rules_of_any_event_hold_for_a_series(client, override_settings):
    from chalicelib.services.texts import stop_list

    olive = make_person("Olive Owner")
    stopped, opted_out, fresh = phone(8801), phone(8899), phone(8802)  # the emulator opts out numbers ending in 99
    stop_list.stop(stopped, stop_list.FROM_PAGE)
    response = _series(client, olive, {"freq": "weekly", "count": 3}, invite_phone_numbers=[stopped, opted_out, fresh])
    assert response.status_code == 201
    assert texts_to(stopped) == [] and texts_to(opted_out) == [] and len(texts_to(fresh)) == 1
    assert [len(body(get(client, f"/events/{date['id']}", olive.token))["invitees"])
            for date in body(response)["series"]["dates"]] == [4, 4, 4]  # invited all the same  # fmt: skip
    override_settings(invitees_per_event=2)
    before = table_items()
    too_many = _series(client, olive, {"freq": "weekly", "count": 3}, invite_phone_numbers=_numbers(8810, 3))
    assert (too_many.status_code, body(too_many)) == (
        400, {"invite_phone_numbers": ["An event can have at most 2 invitees."]})  # fmt: skip
    assert table_items() == before


def test_a_repeated_idempotency_key_answers_the_first_series_again_and_makes_no_second(client):
    olive = make_person("Olive Owner")
    number = phone(8901)
    payload = {**BOOK_CLUB, "repeat": {"freq": "weekly", "count": 3}, "invite_phone_numbers": [number]}
    headers = {"Idempotency-Key": "book-club-1"}
    first = post_json(client, "/events", payload, olive.token, headers=headers)
    again = post_json(client, "/events", payload, olive.token, headers=headers)
    assert first.status_code == again.status_code == 201
    assert body(again) == body(first)
    assert len(texts_to(number)) == 1
    listed = body(get(client, "/events?per_page=100", olive.token))
    assert len(listed["results"]) == 3
