"""Invitation texts: what they say, how long they are, and who gets them under parallel invites."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chalicelib import localtime
from chalicelib.messaging import sms_segments as sms
from chalicelib.models.events import Event
from chalicelib.models.users import User
from chalicelib.services.hosting import events
from chalicelib.services.participants import event_reads
from chalicelib.services.texts import invitation_texts as event_texts
from tests.utils.api import texts_to
from tests.utils.factories import future, make_person, phone

PHISHING = "Your Bank: account locked, verify at https://bank-secure.example/login?id=8812 "
GSM_TWO_SEGMENTS = 2 * 153 - 1  # septets two concatenated GSM-7 segments surely hold
UCS2_TWO_SEGMENTS = 2 * 67 - 1  # UTF-16 code units two UCS-2 segments surely hold
UCS2_THREE_SEGMENTS = 3 * 67 - 2
STOP = "Reply STOP to opt out."
LOCAL_LINK = "http://127.0.0.1:8000/i/" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
DEPLOYED_LINK = "https://xxxx.execute-api.us-east-1.amazonaws.com/api/i/" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"


def _owner(full_name: str) -> User:
    return User(full_name=full_name, phone_number="+12025550111", id=1)


def _event(title: str, when: datetime | None = None) -> Event:
    return Event(title=title, event_date=when or datetime(2030, 6, 1, 18, 30, tzinfo=UTC), is_time_specified=True)


def _utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def test_a_plain_invitation_names_the_sender_first_and_ends_with_the_opt_out_words(aws):
    text = event_texts.invitation_text(_owner("Alice Smith"), _event("Birthday"))
    assert text == (
        'Invites: Alice Smith invited you to "Birthday", Sat, Jun 1 at 6:30 PM UTC. '
        "Get the Invites app to reply. Reply STOP to opt out."
    )


def test_an_attackers_name_and_title_are_cut_to_two_segments_behind_the_services_words(aws):
    # a phishing attempt: a name that reads as a bank's warning, here with line breaks
    owner = _owner((PHISHING + "\r\nCall now\n") * 3)
    text = event_texts.invitation_text(owner, _event("Urgent:\n" + PHISHING * 4))
    assert text.startswith("Invites: ")
    assert text.endswith(" Get the Invites app to reply. Reply STOP to opt out.")
    assert text.isascii() and len(text) <= GSM_TWO_SEGMENTS  # GSM-7, every character one septet here
    assert "\n" not in text and "\r" not in text
    assert "..." in text and "Sat, Jun 1 at 6:30 PM UTC" in text


def test_one_character_outside_gsm_allows_three_ucs2_segments(aws):
    owner = _owner("Zoë 🎉 " * 30)
    text = event_texts.invitation_text(owner, _event("Fête 🎂 " * 40))
    assert text.startswith("Invites: Zoë 🎉")
    assert UCS2_TWO_SEGMENTS < _utf16_units(text) <= UCS2_THREE_SEGMENTS
    assert "…" in text and text.endswith("Get the Invites app to reply. Reply STOP to opt out.")


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
    assert text.endswith(f" {link} {STOP}") and len(text) <= GSM_TWO_SEGMENTS


@pytest.mark.parametrize(
    ("name", "title", "link", "shown", "encoding"),
    [
        ("Sam Lee", "Sam\u2019s 30th birthday dinner", LOCAL_LINK, "Sam's 30th birthday dinner", "gsm"),
        ("Ann", "Picnic 🧺 in Dolores Park", LOCAL_LINK, "Picnic 🧺 in Dolores Park", "ucs2"),
        ("Zoë", "Café crème at Zoë\u2019s", LOCAL_LINK, "Café crème at Zoë's", "ucs2"),
        ("José", "Fiesta 🎉", DEPLOYED_LINK, "Fiesta 🎉", "ucs2"),
    ],
)
def test_everyday_names_and_titles_are_sent_whole(aws, name, title, link, shown, encoding):
    # issue reproductions: each of these sent `invited you to ""` with no name
    text = event_texts.invitation_text(_owner(name), _event(title, datetime(2026, 12, 13, 4, 30, tzinfo=UTC)), link)
    when = "Sun, Dec 13 at 4:30 AM UTC"
    assert text == f'Invites: {name} invited you to "{shown}", {when}. {link} {STOP}'
    assert sms.encoding(text) == encoding
    assert sms.segments(text) <= (2 if encoding == "gsm" else 3)


def test_typographic_punctuation_keeps_a_text_in_gsm(aws):
    title = "\u201cA\u00a0night\u201d \u2013 Ann\u2019s\u2026 \u2014 \u2018late\u2019"
    text = event_texts.invitation_text(_owner("Ann\u2019e"), _event(title))
    assert "Ann'e invited you to" in text and '""A night" - Ann\'s... - \'late\'"' in text
    assert sms.encoding(text) == "gsm"


def test_with_long_words_the_name_is_cut_first_and_both_keep_their_minimum(aws):
    name, title = "Катерина Александровна Иванова-Петрова", "Большой праздник в честь дня рождения бабушки"
    text = event_texts.invitation_text(_owner(name), _event(title), DEPLOYED_LINK)
    assert sms.segments(text) <= 3
    assert text.startswith(f"Invites: {name[:10]}") and f'invited you to "{title[:20]}' in text
    assert text.index("…") < text.index("invited you to")  # the name was cut


def test_only_the_minimums_in_emoji_with_the_deployed_link_go_past_three_segments(aws):
    # 10 + 20 characters outside the BMP take 60 UTF-16 units: with the deployed link's 168 units of the
    # service's own words, no three segments (199 units) hold them, so the text takes a fourth
    text = event_texts.invitation_text(_owner("🎉" * 30), _event("🎂" * 40), DEPLOYED_LINK)
    assert text == f'Invites: {"🎉" * 10}… invited you to "{"🎂" * 20}…", Jun 1 at 6:30 PM UTC. {DEPLOYED_LINK} {STOP}'
    assert sms.segments(text) == 4


def test_a_title_or_name_of_only_invisible_characters_is_never_an_empty_pair_of_quotes(aws):
    text = event_texts.invitation_text(_owner("\u200b\u200e"), _event("\u200b\u2060\u00a0"))
    assert text.startswith('Invites: Your host (number ending 0111) invited you to "(no title)", ')


def _normalised(words: str) -> str:
    return sms.fold_typography(sms.one_line(words))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    name=st.text(min_size=1, max_size=300),
    title=st.text(min_size=1, max_size=300),
    link_length=st.integers(min_value=0, max_value=len(DEPLOYED_LINK)),
    timed=st.booleans(),
)
def test_any_name_and_title_keep_their_minimums_within_the_segment_limit(name, title, link_length, timed):
    link = DEPLOYED_LINK[-link_length:] if link_length else ""
    event = Event(title=title, event_date=datetime(2030, 9, 25, 19, 30, tzinfo=UTC), is_time_specified=timed)
    text = event_texts.invitation_text(_owner(name), event, link)
    name, title = _normalised(name) or "Your host (number ending 0111)", _normalised(title) or "(no title)"
    kept_name, kept_title = name[:10].rstrip(), title[:20].rstrip()
    assert kept_name and kept_title  # never an empty name or title
    assert text.startswith(f"Invites: {kept_name}")
    assert f' invited you to "{kept_title}' in text
    assert text.endswith(f"{link or 'Get the Invites app to reply.'} {STOP}")
    limit = 2 if sms.encoding(text) == "gsm" else 3
    if sms.segments(text) > limit:
        # only the two minimums themselves may need more (long words outside the BMP, a long link)
        least = _shortest_form(name, title, link, event)
        assert text == least and sms.segments(least) > limit


def _shortest_form(name: str, title: str, link: str, event: Event) -> str:
    def shortest(words: str, keep: int) -> str:
        return words if len(words) <= keep else words[:keep].rstrip() + "…"

    reply = link or "Get the Invites app to reply."
    when = localtime.short_when(event, weekday=False)
    return f'Invites: {shortest(name, 10)} invited you to "{shortest(title, 20)}", {when}. {reply} {STOP}'


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


def test_a_promotion_text_keeps_its_link_whole_within_two_segments(aws):
    link = "https://invites.example.test/i/" + "A" * 32
    text = event_texts.promotion_text(_owner("Alice Smith " * 20), _event("Board games " * 30), link)
    assert text.startswith('Invites: a spot opened at "Board games') and "You're in!" in text
    assert text.endswith(f"{link} Reply STOP to opt out.")
    assert sms.segments(text) <= 2


def test_a_nameless_host_is_named_alike_in_the_invitation_promotion_and_drop_texts(aws):
    owner, event, link = _owner(""), _event("Picnic"), "http://x.test/i/abc"
    label = "Your host (number ending 0111)"
    assert event_texts.invitation_text(owner, event, link).startswith(f"Invites: {label} invited you to")
    assert f'"Picnic" by {label}, ' in event_texts.promotion_text(owner, event, link)
    assert f'"Picnic" by {label}, ' in event_texts.dropped_text(owner, event, link)
    for text in (event_texts.invitation_text(owner, event, link), event_texts.promotion_text(owner, event, link)):
        assert "+12025550111" not in text and "2025550111" not in text
