"""The reminder, still-coming and released texts: wording, and their segments at the longest title and place in
other scripts, with emoji and typographic punctuation, with and without the line that asks for a reply."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from chalicelib.config import get_settings
from chalicelib.invite_links import link_url, new_code
from chalicelib.messaging import sms_segments
from chalicelib.services.texts import attendance_texts

START = datetime(2030, 1, 12, 1, 30, tzinfo=UTC)  # Fri, Jan 11 at 8:30 PM EST
NOW = datetime(2030, 1, 10, 20, 0, tzinfo=UTC)  # Thu 3:00 PM EST
LONG_TITLES = {
    "latin": ("It’s “Board games” night — bring snacks… " * 6)[:200],
    "hebrew": ("ערב משחקים 🎲 " * 20)[:200],
    "arabic": ("ليلة الألعاب " * 20)[:200],
    "cjk": ("桌游之夜🎉" * 50)[:200],
}
LONG_PLACES = {
    "latin": ("Café “Nord”, 12 Long Street — back room " * 3)[:100],
    "hebrew": ("בית הקפה בצפון " * 8)[:100],
    "arabic": ("مقهى الشمال " * 10)[:100],
    "cjk": ("北京市朝阳区咖啡馆" * 12)[:100],
}


def _event(title: str, venue: str = "", address: str = "") -> SimpleNamespace:
    return SimpleNamespace(
        id=42, title=title, event_date=START, is_time_specified=True, time_zone="America/New_York",
        utc_offset_minutes=None, venue_name=venue, address=address, location=None,
    )  # fmt: skip


@pytest.fixture(params=[False, True], ids=["one-way", "two-way"])
def two_way(request, monkeypatch):
    settings = dataclasses.replace(
        get_settings(), public_base_url="https://invites.example.test", sms_two_way=request.param
    )
    monkeypatch.setattr(attendance_texts, "get_settings", lambda: settings)
    return request.param


def _link() -> str:
    return link_url(new_code(376321228510114))


def test_the_wordings(two_way):
    event = _event("Board games", venue="Cafe Nord")
    link = "https://invites.example.test/i/abc"
    ask = {True: " Reply 1 if you're going, 2 if not.", False: ""}[two_way]
    assert attendance_texts.reminder_text(event, link, NOW, with_place=True) == (
        f'Invites: Reminder: "Board games" is tomorrow at 8:30 PM EST, Cafe Nord. {link}{ask} Reply STOP to opt out.'
    )
    assert "Cafe Nord" not in attendance_texts.reminder_text(event, link, NOW, with_place=False)
    confirm = {True: " Reply 1 to confirm, 2 to free your spot.", False: ""}[two_way]
    assert attendance_texts.still_coming_text(event, link) == (
        f'Invites: Still coming to "Board games", Fri, Jan 11 at 8:30 PM EST? {link}{confirm} Reply STOP to opt out.'
    )
    back = {True: " Reply 1 to get back in line.", False: ""}[two_way]
    assert attendance_texts.released_text(event, link) == (
        'Invites: "Board games": We gave your spot to someone waiting, since we didn\'t hear back. '
        f"{link}{back} Reply STOP to opt out."
    )


def test_the_relative_day_reads_as_people_say_it(two_way):
    event = _event("Run")
    for now, said in (
        (datetime(2030, 1, 11, 15, 0, tzinfo=UTC), "is today at"),
        (datetime(2030, 1, 9, 15, 0, tzinfo=UTC), "is on Friday at"),
        (datetime(2030, 1, 4, 15, 0, tzinfo=UTC), "is on Jan 11 at"),
    ):
        assert said in attendance_texts.reminder_text(event, "", now, with_place=True)


@pytest.mark.parametrize("script", sorted(LONG_TITLES))
def test_every_text_at_the_longest_title_and_place_stays_within_its_segments(two_way, script):
    title, place = LONG_TITLES[script], LONG_PLACES[script]
    event = _event(title, venue=place, address=place * 10)
    texts = [
        attendance_texts.reminder_text(event, _link(), NOW, with_place=True),
        attendance_texts.still_coming_text(event, _link()),
        attendance_texts.released_text(event, _link()),
    ]
    for text in texts:
        alphabet = sms_segments.encoding(text)
        assert sms_segments.segments(text) <= (2 if alphabet == "gsm" else 3), text
        assert sms_segments.fold_typography(sms_segments.one_line(title))[:20] in text
        assert text.endswith(" Reply STOP to opt out.")
        if two_way:
            assert " Reply 1 " in text
    if script == "latin":  # typographic punctuation folded: the text stays in the SMS alphabet
        assert {sms_segments.encoding(text) for text in texts} == {"gsm"}
