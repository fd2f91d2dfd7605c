"""Link codes and the invitation text that carries them (no database)."""

from __future__ import annotations

import base64

import pytest

from chalicelib.ids import MAX_ID
from chalicelib.services import invite_links
from chalicelib.services.invite_links import fits_two_segments, invitation_text
from chalicelib.services.web_rsvp import address_subject

LINK = "https://abcdefghij.execute-api.us-east-1.amazonaws.com/api/i/" + "A" * 31 + "E"
WHEN = "Jun 01, 2030 at 18:30 UTC"


def test_a_code_is_32_url_safe_characters_naming_its_event_with_136_random_bits():
    codes = {invite_links.new_code(MAX_ID) for _ in range(2000)}
    assert len(codes) == 2000
    for code in list(codes)[:50]:
        assert len(code) == 32 and code.isascii() and all(c.isalnum() or c in "-_" for c in code)
        raw = base64.urlsafe_b64decode(code)
        assert len(raw) == 24 and len(raw) - invite_links.EVENT_ID_BYTES == 17  # 136 random bits
        assert invite_links.event_id_of(code) == MAX_ID


@pytest.mark.parametrize(
    "code",
    ["", "abc", "A" * 31, "A" * 33, "A" * 31 + "=", "A" * 31 + "+", "A" * 31 + "/", "A" * 32, "\u00e9" * 32, None],
)
def test_malformed_codes_name_no_event(code):
    assert invite_links.event_id_of(code) is None


def test_a_code_naming_an_id_beyond_2_53_names_no_event():
    raw = (MAX_ID + 1).to_bytes(7, "big") + bytes(17)
    assert invite_links.event_id_of(base64.urlsafe_b64encode(raw).decode()) is None


def test_the_text_keeps_name_title_date_and_the_whole_link():
    text = invitation_text("Alice Smith", "Birthday", WHEN, LINK)
    assert text == f'Alice Smith invited you to "Birthday" on {WHEN}. Answer here: {LINK}'
    assert fits_two_segments(text)


@pytest.mark.parametrize(
    "who, title",
    [
        ("Alice " + "Longname" * 40, "Title " * 33),  # GSM-7: 306 units
        ("Zo\u00eb \U0001f389" * 30, "F\u00eate \u2615 " * 30),  # UCS-2: 134 units, the emoji counting 2
        ("\u00c5sa", "\u20ac" * 200),  # GSM-7 with extension characters counting 2
    ],
)
def test_long_names_and_titles_are_cut_until_the_text_fits_two_segments_and_the_link_stays_whole(who, title):
    text = invitation_text(who, title, WHEN, LINK)
    assert fits_two_segments(text)
    assert text.endswith(f"Answer here: {LINK}") and WHEN in text
    assert "..." in text


def test_line_breaks_and_control_characters_are_removed():
    text = invitation_text("Al\nice\x07", "Birth\r\nday\u2028party\u200b!", WHEN, LINK)
    assert text.startswith('Al ice invited you to "Birth day party !"')


def test_without_a_link_the_text_asks_for_the_app():
    assert invitation_text("Al", "Tea", WHEN, None).endswith("Get the Invites app to reply.")


def test_segment_budget_counts_like_a_phone():
    assert fits_two_segments("a" * 306) and not fits_two_segments("a" * 307)
    assert fits_two_segments("{" * 153) and not fits_two_segments("{" * 154)  # extension: two units each
    assert fits_two_segments("\u00e7" * 134) and not fits_two_segments("\u00e7" * 135)  # UCS-2
    assert fits_two_segments("\U0001f389" * 67) and not fits_two_segments("\U0001f389" * 68)  # surrogate pairs


@pytest.mark.parametrize(
    "address, subject",
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:DB8:1:2::ffff", "2001:db8:1:2::/64"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
        ("not an address", "not an address"),
        ("", "unknown"),
    ],
)
def test_addresses_are_counted_by_ipv4_address_or_ipv6_64(address, subject):
    assert address_subject(address) == subject
