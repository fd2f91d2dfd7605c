"""Answering an invitation by replying to its text, through the inbound topic's function as SNS delivers it.

# GIVEN a guest without the app who was texted an invitation (or a nudge) with two-way texting on
# WHEN they reply 1, 2, "1 +2", words of other languages, or anything else
# THEN the reply answers the invitation of the latest text that asked, under the page's rules, and one text
#      confirms it exactly as the contract words it; others get the help text once a day; a number no text
#      asked reaches no event.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from chalicelib.messaging import sms_sender
from chalicelib.services.replies import replies
from chalicelib.store import counters, text_asks
from chalicelib.store import invitations as invitation_store
from tests.utils.api import post_json, texts_to
from tests.utils.factories import make_person, phone, stored_event
from tests.utils.inbound_sms import reply
from tests.utils.web import invite_by_text

LINK = "https://invites.example.test/i/"


@pytest.fixture
def two_way(override_settings):
    override_settings(sms_two_way="true", service_name="Invites")


def invitation_of(event_id: int, number: str):
    from chalicelib.store.users import user_ids_by_phone

    return invitation_store.find_invitation(event_id, user_ids_by_phone([number])[number])


def test_an_invitation_text_asks_for_a_reply_before_the_opt_out_words(client, two_way):
    number = phone()
    invite_by_text(client, make_person("Hana Host"), number)
    (invitation,) = texts_to(number)
    assert invitation.endswith(" Reply 1 if you're going, 2 if not. Reply STOP to opt out.")


def test_without_two_way_texting_the_text_is_as_before_and_a_reply_is_ignored(client):
    number = phone()
    event = invite_by_text(client, make_person("Hana Host"), number)
    (invitation,) = texts_to(number)
    assert "Reply 1" not in invitation and invitation.endswith(f" {LINK[:-3]}") is False
    reply(number, "1")
    assert invitation_of(event["id"], number).has_accepted is None
    assert texts_to(number) == [invitation]


def test_reply_1_accepts_and_is_confirmed_with_the_event_and_a_link(client, two_way):
    number = phone()
    event = invite_by_text(client, make_person("Hana Host"), number, title="Rooftop dinner")
    reply(number, "1")
    stored = invitation_of(event["id"], number)
    assert stored.has_accepted is True and stored.extra_guests == 0
    assert stored_event(event["id"]).spots_filled == 1
    confirmation = texts_to(number)[-1]
    assert confirmation.startswith('Invites: You\'re going to "Rooftop dinner", Sat, Jun 1 at 6:30 PM UTC.')
    assert " Reply 2 if that changes. " + LINK in confirmation


def test_reply_2_declines_and_is_confirmed(client, two_way):
    number = phone()
    event = invite_by_text(client, make_person("Hana Host"), number, title="Rooftop dinner")
    reply(number, "Non.")
    assert invitation_of(event["id"], number).has_accepted is False
    assert texts_to(number)[-1] == 'Invites: You\'re not going to "Rooftop dinner". Reply 1 if that changes.'


@pytest.mark.parametrize(("body", "extra"), [("1 +2", 2), ("YES 2", 2), ("1+1", 1), ("כן", 0), ("👍", 0)])
def test_a_going_reply_brings_the_people_it_names(client, two_way, body, extra):
    number = phone()
    event = invite_by_text(client, make_person("Hana Host"), number, max_extra_guests=3)
    reply(number, body)
    stored = invitation_of(event["id"], number)
    assert stored.has_accepted is True and stored.extra_guests == extra
    assert stored_event(event["id"]).spots_filled == 1 + extra


def test_a_party_larger_than_the_event_allows_is_not_accepted(client, two_way):
    number = phone()
    event = invite_by_text(client, make_person("Hana Host"), number, title="Brunch", max_extra_guests=1)
    reply(number, "1 +4")
    assert invitation_of(event["id"], number).has_accepted is None
    assert texts_to(number)[-1].startswith('Invites: "Brunch" lets you bring 1 more at most. ' + LINK)


def test_a_full_event_with_a_waitlist_puts_the_reply_in_line(client, two_way):
    first, second = phone(), phone()
    event = invite_by_text(
        client, make_person("Hana Host"), first, second, title="Tasting", total_spots=1, waitlist=True
    )
    reply(first, "1")
    reply(second, "1")
    assert invitation_of(event["id"], second).wait_key
    assert texts_to(second)[-1] == (
        "Invites: \"Tasting\" is full: you're number 1 on the waitlist. We'll text you if a spot opens."
    )


def test_closed_replies_are_told(client, two_way):
    number = phone()
    event = invite_by_text(client, make_person("Hana Host"), number, title="Gala", replies_paused=True)
    reply(number, "yes")
    assert invitation_of(event["id"], number).has_accepted is None
    assert texts_to(number)[-1] == 'Invites: Replies to "Gala" are closed.'


def test_a_required_question_keeps_the_accept_back_and_sends_the_link(client, two_way):
    number = phone()
    questions = [{"text": "Any allergies?", "kind": "text", "required": True}]
    event = invite_by_text(client, make_person("Hana Host"), number, title="Dinner", questions=questions)
    reply(number, "1")
    assert invitation_of(event["id"], number).has_accepted is None
    assert texts_to(number)[-1].startswith('Invites: "Dinner" has questions for you: ' + LINK)


def test_anything_else_gets_the_help_text_once_a_day(client, two_way):
    number = phone()
    event = invite_by_text(client, make_person("Hana Host"), number)
    reply(number, "what time is it?")
    reply(number, "hello??")
    help_texts = [text for text in texts_to(number) if "Reply 1 or 2" in text]
    assert len(help_texts) == 1
    assert help_texts[0].startswith("Invites: Reply 1 or 2, or open your invitation: " + LINK)
    assert invitation_of(event["id"], number).has_accepted is None


def test_a_number_no_text_asked_reaches_no_event_and_gets_the_help_answer(client, two_way):
    invited, stranger = phone(), phone()
    event = invite_by_text(client, make_person("Hana Host"), invited)
    reply(stranger, "1")
    assert texts_to(stranger) == [
        "Invites: event invitations by text. Msg&data rates may apply. Reply STOP to opt out."
    ]
    assert stored_event(event["id"]).spots_filled == 0
    assert text_asks.latest(stranger, 2_000_000_000) is None


def test_a_reply_answers_the_latest_invitation_of_several_hosts(client, two_way):
    number = phone()
    older = invite_by_text(client, make_person("Ada Host"), number, title="Older party")
    newer = invite_by_text(client, make_person("Ben Host"), number, title="Newer party")
    reply(number, "1")
    assert invitation_of(newer["id"], number).has_accepted is True
    assert invitation_of(older["id"], number).has_accepted is None
    assert '"Newer party"' in texts_to(number)[-1]


def test_a_nudge_makes_its_event_the_one_a_reply_answers(client, two_way):
    number = phone()
    ada = make_person("Ada Host")
    nudged = invite_by_text(client, ada, number, title="Nudged party")
    invite_by_text(client, make_person("Ben Host"), number, title="Other party")
    assert post_json(client, f"/events/{nudged['id']}/nudge", {}, token=ada.token).status_code in (200, 202)
    assert "Reply 1 if you're going, 2 if not. Reply STOP to opt out." in texts_to(number)[-1]
    reply(number, "2")
    assert invitation_of(nudged["id"], number).has_accepted is False


def test_the_same_reply_delivered_twice_answers_and_confirms_once(client, two_way):
    number = phone()
    event = invite_by_text(client, make_person("Hana Host"), number)
    reply(number, "1", message_id="the-same-id")
    reply(number, "1", message_id="the-same-id")
    assert sum("You're going" in text for text in texts_to(number)) == 1
    assert stored_event(event["id"]).spots_filled == 1


def test_a_stopped_number_is_answered_but_not_texted(client, two_way):
    from chalicelib.services.texts import stop_list

    number = phone()
    event = invite_by_text(client, make_person("Hana Host"), number)
    stop_list.stop(number, stop_list.FROM_PAGE)
    before = texts_to(number)
    reply(number, "1")
    assert invitation_of(event["id"], number).has_accepted is True
    assert texts_to(number) == before


def test_more_than_20_replies_an_hour_are_ignored_without_a_text(client, two_way):
    number = phone()
    event = invite_by_text(client, make_person("Hana Host"), number)
    for n in range(20):
        reply(number, "1" if n % 2 == 0 else "2")
    texted = len(texts_to(number))
    reply(number, "1")
    assert invitation_of(event["id"], number).has_accepted is False  # the 20th reply, a 2, stands
    assert len(texts_to(number)) == texted


def test_text_replies_race_app_accepts_on_a_nearly_full_event_and_the_counts_stay_exact(client, two_way, monkeypatch):
    from tests.utils.races import race, read_together

    owner = make_person("Hana Host")
    numbers = [phone() for _ in range(4)]
    app_guests = [make_person(f"App {n}") for n in range(4)]
    everyone = [*numbers, *(guest.phone for guest in app_guests)]
    event = invite_by_text(client, owner, *everyone, total_spots=3)

    def act(n: int) -> None:
        if n % 2 == 0:
            reply(numbers[n // 2], "1")
        else:
            replies.rsvp(app_guests[n // 2].user, event["id"], accept=True, message="")

    read_together(monkeypatch, invitation_store, "reply_state", 8)  # every racer reads before any writes
    outcomes = race(act, 8, refused=Exception)
    assert outcomes[0::2] == ["ok"] * 4  # every text reply is handled (a full event is texted back, not raised)
    stored = stored_event(event["id"])
    invitations = invitation_store.invitations_of(event["id"])
    going = [inv for inv in invitations if inv.has_accepted is True and inv.user_id != owner.id]
    assert stored.spots_filled == 3 == len(going) == stored.accepted_count


def test_an_aws_fault_fails_the_delivery_and_the_redelivery_answers_and_confirms_once(client, two_way, fail_aws):
    # Lambda delivers an SNS message again when its function fails: nothing half-written, no text lost
    number = phone()
    event = invite_by_text(client, make_person("Hana Host"), number)
    before = texts_to(number)
    fail_aws("dynamodb", "TransactWriteItems", "ProvisionedThroughputExceededException")
    with pytest.raises(Exception, match="transaction"):
        reply(number, "1", message_id="delivered-twice")
    assert invitation_of(event["id"], number).has_accepted is None
    assert texts_to(number) == before
    fail_aws("dynamodb", "TransactWriteItems", "")  # the fault passed
    reply(number, "1", message_id="delivered-twice")
    assert invitation_of(event["id"], number).has_accepted is True
    assert sum("You're going" in text for text in texts_to(number)) == 1


def test_without_two_way_texting_no_asking_text_is_remembered(client):
    number = phone()
    invite_by_text(client, make_person("Hana Host"), number)
    assert text_asks.latest(number, 2_000_000_000) is None


def test_a_confirmation_goes_out_past_the_unasked_share_of_the_budget_and_stops_before_the_pins_share(
    client, two_way, override_settings
):
    override_settings(sms_monthly_segments=100)
    number = phone()
    invite_by_text(client, make_person("Hana Host"), number)
    key = sms_sender.budget_key(datetime.now(UTC))
    counters.add(key, 85 - counters.count_of(key))  # past the 80% texts nobody asked for may use
    reply(number, "1")
    assert "You're going" in texts_to(number)[-1]
    counters.add(key, 90 - counters.count_of(key))  # the answers' 90% spent: pins keep the rest
    reply(number, "2")
    assert "You're going" in texts_to(number)[-1]  # no text back this time
