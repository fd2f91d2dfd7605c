"""POST /events: the create representation, invitees, texts to people without an account, bad input."""

from __future__ import annotations

import pytest

from chalicelib.services.identity.users import find_user_by_phone
from tests.utils.api import body, get, login, post_event, post_json, texts_to
from tests.utils.factories import make_person, phone, table_items

DATE = "2030-06-01T18:30:00Z"


def test_create_returns_the_event_with_the_owner_first_among_invitees(client):
    # GIVEN an owner and a registered friend
    alice, bob = make_person("Alice Smith"), make_person("Bob Jones")
    # WHEN alice creates an event inviting bob
    response = post_event(
        client,
        alice,
        invite_phone_numbers=[bob.phone],
        total_spots=4,
        location={"latitude": 52.5, "longitude": 13.4},
        address="1 Park Lane",
        venue_name="The Park",
    )
    # THEN 201 with the create representation
    assert response.status_code == 201, response.body
    event = body(response)
    assert event["title"] == "Picnic"
    assert event["event_date"] == DATE
    assert event["is_time_specified"] is True
    assert event["total_spots"] == 4 and event["spots_filled"] == 0
    assert event["attendees_count"] == 1
    assert event["i_am_owner"] is True and event["i_am_attending"] is True
    assert event["my_rsvp_message"] is None
    assert event["location"] == {"latitude": 52.5, "longitude": 13.4}
    assert event["address"] == "1 Park Lane" and event["venue_name"] == "The Park"
    assert event["owner"]["id"] == alice.id and event["owner"]["phone_number"] == alice.phone
    assert event["messages"] == [] and event["polls"] == []
    assert event["created"].endswith("Z") and event["modified"].endswith("Z")
    owner, guest = event["invitees"]
    assert owner["is_owner"] is True and owner["is_attending"] == "true"
    assert owner["phone_number"] == alice.phone and owner["full_name"] == "Alice Smith"
    assert guest["is_owner"] is False and guest["is_attending"] is None
    assert guest["phone_number"] == bob.phone and guest["is_active"] is True
    assert "has_seen" not in guest and "faded_photo" not in guest
    assert "invitations" not in event


def test_unset_values_are_empty_and_midnight_means_no_time(client):
    alice = make_person("Alice")
    response = post_event(client, alice, event_date="2030-06-01T00:00:00+02:00")
    event = body(response)
    assert response.status_code == 201
    assert event["location"] == {} and event["address"] == "" and event["venue_name"] == ""
    assert event["is_time_specified"] is False
    assert event["event_date"] == "2030-05-31T22:00:00Z"
    assert event["total_spots"] == 0
    # is_time_specified as sent wins
    assert body(post_event(client, alice, event_date="2030-06-01", is_time_specified=True))["is_time_specified"] is True


def test_numbers_are_deduplicated_and_the_owner_dropped(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    numbers = [bob.phone, bob.phone.replace("+1", "+1 "), alice.phone]
    event = body(post_event(client, alice, invite_phone_numbers=numbers))
    assert [person["phone_number"] for person in event["invitees"]] == [alice.phone, bob.phone]


def test_a_number_without_account_gets_an_inactive_user_and_a_text(client):
    alice = make_person("Alice Smith")
    number = phone(9001)
    event = body(post_event(client, alice, title="Birthday", invite_phone_numbers=[number]))
    guest = event["invitees"][1]
    assert guest["is_active"] is False and guest["phone_number"] == number
    stored = find_user_by_phone(number)
    assert stored is not None and stored.is_active is False
    (text,) = texts_to(number)
    assert "Alice Smith" in text and '"Birthday"' in text and "Sat, Jun 1 at 6:30 PM UTC" in text
    # a registered invitee gets no text
    bob = make_person("Bob")
    post_event(client, alice, invite_phone_numbers=[bob.phone])
    assert texts_to(bob.phone) == []


def test_the_invitee_finds_the_invitation_after_logging_in(client):
    alice = make_person("Alice")
    number = phone(9002)
    event = body(post_event(client, alice, invite_phone_numbers=[number]))
    newcomer = login(client, number)
    assert newcomer["is_active"] is True
    assert newcomer["id"] == event["invitees"][1]["user_id"]
    listed = body(get(client, "/events", token=newcomer["auth_token"]))
    assert [item["id"] for item in listed["results"]] == [event["id"]]
    assert listed["results"][0]["i_am_owner"] is False


def test_texts_beyond_the_owners_quota_are_not_sent_but_the_invitations_are(client, override_settings):
    override_settings(invite_sms_per_owner_per_hour=3)
    alice, carol = make_person("Alice"), make_person("Carol")
    assert post_event(client, alice, invite_phone_numbers=[phone(9101), phone(9102)]).status_code == 201
    # WHEN the next event needs two texts and the hour has one left
    response = post_event(client, alice, invite_phone_numbers=[phone(9103), phone(9104)])
    # THEN the event and both invitations are made; the first number is texted, the second is not
    assert response.status_code == 201, response.body
    assert [guest["phone_number"] for guest in body(response)["invitees"][1:]] == [phone(9103), phone(9104)]
    assert len(texts_to(phone(9103))) == 1 and texts_to(phone(9104)) == []
    assert post_event(client, alice, invite_phone_numbers=[phone(9105)]).status_code == 201
    assert texts_to(phone(9105)) == []
    # another owner has their own allowance
    assert post_event(client, carol, invite_phone_numbers=[phone(9106), phone(9107)]).status_code == 201
    assert len(texts_to(phone(9106))) == 1 and len(texts_to(phone(9107))) == 1


def test_a_number_without_an_account_gets_three_invitation_texts_a_day_from_all_owners(client):
    stranger = phone(9110)
    owners = [make_person(f"Owner {n}") for n in range(5)]
    events = [
        body(post_event(client, owner, title=f"Party {n}", invite_phone_numbers=[stranger]))
        for n, owner in enumerate(owners)
    ]
    assert len(texts_to(stranger)) == 3
    # every invitation was stored all the same: the stranger finds all five on logging in
    newcomer = login(client, stranger)
    listed = body(get(client, "/events", token=newcomer["auth_token"]))
    assert sorted(item["id"] for item in listed["results"]) == sorted(event["id"] for event in events)


@pytest.mark.parametrize("number", ["+19005551234", "+18005551234", "+447640123456", "+442079460000"])
def test_invite_lists_refuse_numbers_that_cannot_take_a_text_per_item(client, number):
    alice = make_person("Alice")
    response = post_event(client, alice, invite_phone_numbers=[phone(9120), number])
    assert response.status_code == 400
    assert body(response) == {"invite_phone_numbers": {"1": ["Enter a valid mobile phone number."]}}
    assert table_items() == [] and texts_to(number) == [] and texts_to(phone(9120)) == []


BAD_INPUT = [
    ({"title": None}, "title"),
    ({"title": ""}, "title"),
    ({"title": "x" * 201}, "title"),
    ({"event_date": "next tuesday"}, "event_date"),
    ({"event_date": None}, "event_date"),
    ({"venue_name": "v" * 101}, "venue_name"),
    ({"invite_phone_numbers": ["12345"]}, "invite_phone_numbers"),
    ({"invite_phone_numbers": "+12025550100"}, "invite_phone_numbers"),
    ({"location": {"latitude": 91, "longitude": 0}}, "location"),
    ({"location": {"latitude": 0, "longitude": -180.5}}, "location"),
    ({"location": {"latitude": 10}}, "location"),
    ({"total_spots": -1}, "total_spots"),
    ({"total_spots": "many"}, "total_spots"),
    ({"is_time_specified": "yes"}, "is_time_specified"),
]


@pytest.mark.parametrize(("change", "field"), BAD_INPUT)
def test_bad_input_is_400_keyed_by_field_and_stores_nothing(client, change, field):
    alice = make_person("Alice")
    before = table_items()
    payload = {"title": "Picnic", "event_date": DATE, "invite_phone_numbers": [phone(9200)], **change}
    response = post_json(client, "/events", payload, token=alice.token)
    assert response.status_code == 400, response.body
    assert list(body(response)) == [field]
    assert table_items() == before
    assert find_user_by_phone(phone(9200)) is None and texts_to(phone(9200)) == []


def test_missing_fields_are_all_reported(client):
    alice = make_person("Alice")
    response = post_json(client, "/events", {}, token=alice.token)
    assert response.status_code == 400
    assert body(response) == {"title": ["This field is required."], "event_date": ["This field is required."]}
    assert table_items() == []


def test_phone_errors_are_keyed_by_position(client):
    alice = make_person("Alice")
    response = post_event(client, alice, invite_phone_numbers=[phone(9300), "nope"])
    assert body(response) == {"invite_phone_numbers": {"1": ["Enter a valid phone number."]}}
    assert body(post_event(client, alice, location={"latitude": 100, "longitude": 0}))["location"] == {
        "latitude": ["Ensure this value is between -90 and 90."]
    }


def test_create_needs_authentication(client):
    response = post_json(client, "/events", {"title": "x", "event_date": DATE})
    assert response.status_code == 401
    assert table_items() == []
