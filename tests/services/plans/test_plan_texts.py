"""The plans' texts as a recipient meets them: the segment rules of invitation texts, other scripts, emoji and
typographic punctuation, the host's label, the whole link."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from chalicelib.messaging.sms_segments import encoding, segments
from chalicelib.services.plans.plan_texts import decided_text, plan_text

LINK = "https://invites.example.test/p/AVY6cCM3V8VaHWG84n0LFZRZpNZkLP2J"
TITLES = [
    "\u0639\u0634\u0627\u0621 \u0639\u0644\u0649 \u0627\u0644\u0633\u0637\u062d " * 6,  # Arabic
    "\u5c4b\u4e0a\u30c7\u30a3\u30ca\u30fc\U0001f389" * 10,  # Japanese and an emoji
    "Dinner at Jo\u2019s \u2014 \u201cthe usual\u201d\u2026 " * 4,  # typographic punctuation, GSM once folded
]


def _owner(name: str = "", number: str = "+14155550100"):
    return SimpleNamespace(full_name=name, phone_number=number)


@pytest.mark.parametrize("title", TITLES)
def test_the_ask_keeps_its_words_the_link_and_the_start_of_the_title(title):
    text = plan_text(_owner("Ilse Strau\u00df-Kowalczyk the Third"), SimpleNamespace(title=title), LINK)
    assert text.startswith("Invites: ") and ' is planning "' in text
    assert f'" and asks when you can make it: {LINK} Reply STOP to opt out.' in text
    folded = title.replace("\u2019", "'").replace("\u2014", "-").replace("\u201c", '"').replace("\u201d", '"')
    assert folded.replace("\u2026", "...")[:20] in text
    assert segments(text) <= (3 if encoding(text) == "ucs2" else 2)


def test_a_host_without_a_name_is_named_by_the_last_digits():
    text = plan_text(_owner(), SimpleNamespace(title="Picnic"), LINK)
    assert text.startswith('Invites: Your host (number ending 0100) is planning "Picnic"')


@pytest.mark.parametrize("title", TITLES)
def test_the_decision_names_the_date_in_the_plans_zone_and_keeps_the_link(title):
    event = SimpleNamespace(
        title=title,
        event_date=datetime(2030, 6, 6, 17, tzinfo=UTC),
        is_time_specified=True,
        time_zone="Asia/Jerusalem",
        utc_offset_minutes=0,
    )
    text = decided_text(_owner("Noa"), event, LINK)
    assert text.startswith('Invites: "') and " is on " in text and "8:00 PM IDT" in text
    assert text.endswith(f". Answer here: {LINK} Reply STOP to opt out.")
    assert segments(text) <= (3 if encoding(text) == "ucs2" else 2)
