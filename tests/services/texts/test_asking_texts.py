"""Texts that ask (the invitation, the nudge) with two-way texting on: how to answer by reply, within today's
segment limits at the longest name and title, in the SMS alphabet and in UCS-2 (Hebrew, Arabic, emoji)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chalicelib.messaging import sms_segments as sms
from chalicelib.models.events import Event
from chalicelib.models.users import User
from chalicelib.services.conversation.host_messages import nudge_text
from chalicelib.services.texts.invitation_texts import invitation_text

ASKING_END = "Reply 1 if you're going, 2 if not. Reply STOP to opt out."
# A stage's link on its own domain (PUBLIC_BASE_URL, docs/deploy.md): the longest the limits are sized for.
LINK = "https://invites.example.test/i/" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
LONGEST = 300  # characters past any name or title the API stores
NAMES_AND_TITLES = [
    pytest.param(
        "Alexandra Montgomery-Wellington " * 10, "Summer garden party at the lake house " * 8, "gsm", id="latin"
    ),
    pytest.param("Jean-Pierre “JP” O’Brien – " * 12, "L’été – “la soirée” au jardin… " * 10, "gsm", id="typographic"),
    pytest.param("שרה כהן-לוי " * 25, "מסיבת יום הולדת בגינה " * 14, "ucs2", id="hebrew"),
    pytest.param("فاطمة الزهراء " * 20, "حفلة عيد ميلاد في الحديقة " * 12, "ucs2", id="arabic"),
    pytest.param("Zoë 🎉 " * 50, "Fête 🎂 " * 40, "ucs2", id="emoji"),
    pytest.param("王小明 " * 75, "生日聚会在花园里 " * 30, "ucs2", id="cjk"),
]
LIMIT = {"gsm": 2, "ucs2": 3}


@pytest.fixture
def two_way(override_settings):
    override_settings(sms_two_way="true", service_name="Invites")


def _owner(full_name: str) -> User:
    return User(full_name=full_name, phone_number="+12025550111", id=1)


def _event(title: str) -> Event:
    return Event(title=title, event_date=datetime(2030, 6, 1, 18, 30, tzinfo=UTC), is_time_specified=True)


def test_an_invitation_asks_after_its_link_and_before_the_opt_out_words(aws, two_way):
    text = invitation_text(_owner("Alice Smith"), _event("Birthday"), LINK)
    assert text == (f'Invites: Alice Smith invited you to "Birthday", Sat, Jun 1 at 6:30 PM UTC. {LINK} {ASKING_END}')


def test_a_nudge_asks_the_same_way(aws, two_way):
    text = nudge_text("Alice Smith", _event("Birthday"), LINK)
    assert text == (
        f'Invites: Alice Smith is waiting for your answer to "Birthday", Sat, Jun 1 at 6:30 PM UTC. {LINK} {ASKING_END}'
    )


def test_without_two_way_texting_neither_asks(aws):
    assert "Reply 1" not in invitation_text(_owner("Alice Smith"), _event("Birthday"), LINK)
    assert "Reply 1" not in nudge_text("Alice Smith", _event("Birthday"), LINK)


@pytest.mark.parametrize(("name", "title", "alphabet"), NAMES_AND_TITLES)
def test_at_the_longest_name_and_title_the_reply_words_stay_and_the_segments_hold(aws, two_way, name, title, alphabet):
    for text in (invitation_text(_owner(name), _event(title), LINK), nudge_text(name, _event(title), LINK)):
        assert text.endswith(f"{LINK} {ASKING_END}")
        assert sms.encoding(text) == alphabet
        assert sms.segments(text) <= LIMIT[alphabet], text
        folded = sms.fold_typography(name)
        assert folded[:10].rstrip() in text and sms.fold_typography(title)[:20].rstrip() in text  # never lost


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    name=st.text(st.characters(max_codepoint=0xFFFF, exclude_categories=["Cs"]), min_size=1, max_size=LONGEST),
    title=st.text(st.characters(max_codepoint=0xFFFF, exclude_categories=["Cs"]), min_size=1, max_size=LONGEST),
)
def test_any_name_and_title_in_the_basic_plane_keep_the_limits_with_the_reply_words(aws, two_way, name, title):
    for text in (invitation_text(_owner(name), _event(title), LINK), nudge_text(name, _event(title), LINK)):
        assert text.endswith(f"{LINK} {ASKING_END}")
        assert sms.segments(text) <= LIMIT[sms.encoding(text)], text
