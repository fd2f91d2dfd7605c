"""A series' texts in each guest's language: the repeat inside the invitation and the cancellation is said in the
guest's words, and a cancellation queued before with the old English words still texts them."""

from __future__ import annotations

from chalicelib.domain.recurrence import Repeat
from chalicelib.jobs import queue_handler
from chalicelib.services.hosting import events, series
from tests.services.hosting.test_series_texts import WHEN, ZONE
from tests.utils.api import texts_to
from tests.utils.factories import make_person

SPAIN, ISRAEL, EGYPT = "+34612000101", "+972501230101", "+201001230101"


def _every_other_friday(owner, *guests):
    data = events.EventInput(
        title="Board games", event_date=WHEN, is_time_specified=True, time_zone=ZONE,
        invite_phone_numbers=[guest.phone for guest in guests],
    )  # fmt: skip
    return [view.event for view in series.create_series(owner.user, data, Repeat("weekly", interval=2, count=4))]


def test_the_invitation_and_the_cancellation_say_the_repeat_in_each_guests_language(client):
    alice = make_person("Alice")
    english, spanish = make_person("", active=False), make_person("", SPAIN, active=False)
    hebrew, arabic = make_person("", ISRAEL, active=False), make_person("", EGYPT, active=False)
    dates = _every_other_friday(alice, english, spanish, hebrew, arabic)
    [invited] = texts_to(english.phone)
    assert ", every other Friday from Fri, Jan 11 at 8:30 PM EST." in invited
    assert "cada dos semanas, el viernes desde el vie, 11 ene" in texts_to(spanish.phone)[0]
    assert "כל שבועיים ביום שישי החל מ־" in texts_to(hebrew.phone)[0]
    assert "كل أسبوعين يوم الجمعة ابتداءً من" in texts_to(arabic.phone)[0]
    response = client.http.request("DELETE", f"/series/{dates[0].series_id}",
                                   headers={"Authorization": f"Bearer {alice.token}"})  # fmt: skip
    assert response.status_code == 204
    assert texts_to(english.phone)[-1] == (
        'Invites: Alice cancelled "Board games" (every other Friday from Fri, Jan 11 at 8:30 PM EST). '
        "Reply STOP to opt out."
    )
    assert "(cada dos semanas, el viernes desde el vie, 11 ene" in texts_to(spanish.phone)[-1]
    assert "(כל שבועיים ביום שישי החל מ־" in texts_to(hebrew.phone)[-1]
    assert "(كل أسبوعين يوم الجمعة ابتداءً من" in texts_to(arabic.phone)[-1]
    for person in (english, spanish, hebrew, arabic):
        assert len(texts_to(person.phone)) == 2  # one invitation, one cancellation


def test_a_cancellation_queued_with_the_old_english_words_still_texts_them(client):
    alice, spanish = make_person("Alice"), make_person("", SPAIN, active=False)
    dates = _every_other_friday(alice, spanish)
    events.cancel_event(alice.user, dates[0].id, tell=False)  # cancelled; its message was queued before
    old = {"type": "event_cancelled", "id": 1, "event_id": dates[0].id, "actor_id": alice.id,
           "series_words": "every other Friday"}  # fmt: skip
    assert queue_handler.process(old).sent == 1
    cancelled = texts_to(spanish.phone)[-1]
    assert "cancel" in cancelled and "(every other Friday desde el vie, 11 ene" in cancelled
