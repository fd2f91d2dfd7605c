"""Invitation texts: what they say, how long they are, and who gets them under parallel invites."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest

from chalicelib.messaging import invitation_texts as event_texts
from chalicelib.models.events import Event
from chalicelib.models.users import User
from chalicelib.services import event_reads, events
from tests.utils.api import texts_to
from tests.utils.factories import future, make_person, phone

PHISHING = "Your Bank: account locked, verify at https://bank-secure.example/login?id=8812 "
GSM_TWO_SEGMENTS = 2 * 153 - 1  # septets two concatenated GSM-7 segments surely hold
UCS2_TWO_SEGMENTS = 2 * 67 - 1  # UTF-16 code units two UCS-2 segments surely hold


def _owner(full_name: str) -> User:
    return User(full_name=full_name, phone_number="+12025550111", id=1)


def _event(title: str, when: datetime | None = None) -> Event:
    return Event(title=title, event_date=when or datetime(2030, 6, 1, 18, 30, tzinfo=UTC), is_time_specified=True)


def _utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def test_a_plain_invitation_is_whole_and_names_the_service_first(aws):
    text = event_texts.invitation_text(_owner("Alice Smith"), _event("Birthday"))
    assert text == (
        'Invites invitation: Alice Smith invited you to "Birthday" on Jun 01, 2030 at 18:30 UTC. '
        "Get the Invites app to reply."
    )


def test_an_attackers_name_and_title_are_cut_to_two_segments_behind_the_services_words(aws):
    # a phishing attempt: a name that reads as a bank's warning, here with line breaks
    owner = _owner((PHISHING + "\r\nCall now\n") * 3)
    text = event_texts.invitation_text(owner, _event("Urgent:\n" + PHISHING * 4))
    assert text.startswith("Invites invitation: ")
    assert text.endswith(" Get the Invites app to reply.")
    assert text.isascii() and len(text) <= GSM_TWO_SEGMENTS  # GSM-7, every character one septet here
    assert "\n" not in text and "\r" not in text
    assert "..." in text and "Jun 01, 2030 at 18:30 UTC" in text


def test_one_character_outside_gsm_switches_to_the_smaller_ucs2_budget(aws):
    owner = _owner("Zoë 🎉 " * 30)
    text = event_texts.invitation_text(owner, _event("Fête 🎂 " * 40))
    assert text.startswith("Invites invitation: Zoë 🎉")
    assert _utf16_units(text) <= UCS2_TWO_SEGMENTS
    assert "…" in text and "Get the Invites app to reply." in text


def test_extension_characters_count_two_septets(aws):
    owner = _owner("Al")
    text = event_texts.invitation_text(owner, _event("{[|]}~^€" * 60))
    septets = sum(2 if ch in "^{}\\[~]|€" else 1 for ch in text)
    assert septets <= GSM_TWO_SEGMENTS and text.isascii() is False


def test_control_format_and_separator_characters_are_removed(aws):
    owner = _owner("Al\u202eice\u200b\tSmith\u2028")
    text = event_texts.invitation_text(owner, _event("Din\x07ner\u0085\u2029party"))
    assert 'Al ice Smith invited you to "Din ner party"' in text


def test_a_link_is_kept_whole_within_the_budget(aws):
    link = "https://invites.example/r/Ab3dEf6hIj9kLm2nOp5q"
    text = event_texts.invitation_text(_owner(PHISHING * 3), _event(PHISHING * 4), link=link)
    assert text.endswith(" " + link) and len(text) <= GSM_TWO_SEGMENTS


def _invite(owner, number: str) -> None:
    data = events.EventInput(title="Party", event_date=future(), invite_phone_numbers=[number])
    events.create_event(owner.user, data)


def test_parallel_invites_never_pass_the_owners_hourly_texts(aws, override_settings):
    override_settings(invite_sms_per_owner_per_hour=4)
    alice = make_person("Alice")
    numbers = [phone(8800 + n) for n in range(12)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda number: _invite(alice, number), numbers))
    texted = [number for number in numbers if texts_to(number)]
    assert len(texted) == 4
    assert event_reads.list_events(alice.user, per_page=100).count == 12  # every event was made


def test_parallel_invites_from_many_owners_text_a_stranger_three_times(aws):
    stranger = phone(8850)
    owners = [make_person(f"Owner {n}") for n in range(10)]
    with ThreadPoolExecutor(max_workers=10) as pool:
        list(pool.map(lambda owner: _invite(owner, stranger), owners))
    assert len(texts_to(stranger)) == 3


@pytest.mark.parametrize("countries", ["GB", "gb,fr"])
def test_numbers_outside_the_allowed_countries_are_refused_in_invite_lists(client, override_settings, countries):
    from tests.utils.api import body, post_json

    override_settings(sms_countries=countries)
    alice = make_person("Alice")
    response = post_json(
        client,
        "/events",
        {"title": "Tea", "event_date": "2030-06-01T18:30:00Z", "invite_phone_numbers": [phone(8860)]},
        token=alice.token,
    )
    assert response.status_code == 400
    assert body(response) == {"invite_phone_numbers": {"0": ["Enter a valid mobile phone number."]}}


def test_the_first_request_of_an_hour_texts_no_more_than_the_owners_quota(client, override_settings):
    # the hour's counter does not exist yet: the whole request must still fit the quota
    from tests.utils.api import post_event

    override_settings(invite_sms_per_owner_per_hour=5)
    alice = make_person("Alice")
    numbers = [phone(8870 + n) for n in range(8)]
    response = post_event(client, alice, invite_phone_numbers=numbers)
    assert response.status_code == 201
    assert sum(len(texts_to(number)) for number in numbers) == 5
    later = post_event(client, alice, invite_phone_numbers=[phone(8880)])
    assert later.status_code == 201 and texts_to(phone(8880)) == []
