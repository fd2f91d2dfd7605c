"""The removal text in every language of the catalogues: the longest name and title within its segments (GSM-7
at most 2, UCS-2 at most 3), in the language's own words."""

from __future__ import annotations

import json
import time

import pytest

from chalicelib.jobs import queue_handler
from chalicelib.languages.catalogues import available, words
from chalicelib.limits import INVITE_TEXTS_PER_OWNER
from chalicelib.messaging import sms_segments as sms
from chalicelib.messaging.notifications.messages import RetryLater
from chalicelib.services.guards.ratelimit import Limit
from chalicelib.services.hosting.removal_notices import GUEST_REMOVED
from chalicelib.services.texts.removal_texts import REMOVED, removal_text
from chalicelib.store import counters
from tests.services.texts.test_text_languages import _event, _longest, _owner
from tests.utils.api import texts_to
from tests.utils.aws_faults import always, on_the_wire, wire_error
from tests.utils.factories import make_person, phone
from tests.utils.notifications import drain, use_queue
from tests.utils.web import invite_by_text

CJK_NAME, CJK_TITLE = "山田花子", "庭での誕生日パーティー🎂「特別な夜」"


@pytest.mark.parametrize("language", available())
def test_the_removal_text_keeps_to_its_segments_with_the_longest_name_and_title(aws, language):
    name, title = _longest(language)
    said = words(language)

    text = removal_text(_owner(name), _event(title), said)

    assert sms.segments(text) <= (2 if sms.encoding(text) == "gsm" else 3), text
    assert name[:10].rstrip() in text and title[:20].rstrip() in text
    assert text.startswith("Invites") and text.endswith(said._("Reply STOP to opt out."))
    if language != "en":
        assert said._(REMOVED) != REMOVED  # translated, not the English words


def test_a_cjk_title_with_emoji_keeps_within_three_ucs2_segments(aws):
    text = removal_text(_owner(CJK_NAME * 30), _event(CJK_TITLE * 10), words("en"))

    assert sms.encoding(text) == "ucs2" and sms.segments(text) <= 3
    assert text.startswith(f"Invites: {CJK_NAME}") and "庭での誕生日パーティー" in text


def test_a_removal_text_whose_numbers_cap_could_not_be_counted_charges_the_owners_quota_once(
    client, override_settings
):
    owner, number = make_person("Olive Owner"), phone()
    created = invite_by_text(client, owner, number)
    user_id = next(row["user_id"] for row in created["invitees"] if row["phone_number"] == number)
    quota_key = Limit.of(INVITE_TEXTS_PER_OWNER, owner.id).key(time.time())
    charged = counters.count_of(quota_key)  # the invitation's text
    url = use_queue(override_settings)
    removed = client.http.delete(
        f"/events/{created['id']}/invitees/{user_id}?notify=true", headers={"Authorization": f"Bearer {owner.token}"}
    )
    assert removed.status_code == 204, removed.body
    [notice] = [message for message in map(json.loads, drain(url)) if message["type"] == GUEST_REMOVED]
    # the number's daily cap cannot be counted (its log's UpdateItem): nothing is sent, so the message fails
    with on_the_wire(always("dynamodb", "UpdateItem", wire_error("dynamodb", "UpdateItem", "ThrottlingException"))):
        with pytest.raises(RetryLater):
            queue_handler.process(notice)
    queue_handler.process(notice)  # the queue delivers it again
    assert [text for text in texts_to(number) if "removed you" in text] != []
    assert counters.count_of(quota_key) == charged + 1
