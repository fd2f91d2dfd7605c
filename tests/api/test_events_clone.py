"""POST /events/{id}/clone: a second edition with the same fields on a new date, no replies and no messages;
with invite_same_guests the same numbers invited again under every rule of a create."""

from __future__ import annotations

import pytest

from chalicelib.domain import event_fields
from chalicelib.models.events import Invitation
from chalicelib.services.texts import stop_list
from tests.utils.api import body, get, post_event, post_json, texts_to
from tests.utils.factories import make_person, phone, put, stored_event, table_items

NEW_DATE = "2031-03-07T19:00:00+01:00"
EVERY_FIELD = {
    "title": "Board games",
    "event_date": "2030-06-01T18:30:00+02:00",
    "is_time_specified": True,
    "total_spots": 12,
    "location": {"latitude": 48.85, "longitude": 2.35},
    "address": "1 rue de Rivoli, Paris",
    "venue_name": "Café",
    "max_extra_guests": 2,
    "waitlist": True,
    "time_zone": "Europe/Paris",
    "duration_minutes": 150,
    "rsvp_deadline": "2030-05-30T18:30:00+02:00",
    "replies_paused": True,
    "join_mode": "approval",
    "guest_invites": 3,
    "guest_list": "count_only",
    "place_visibility": "accepted",
}


def _clone(client, person, event_id, payload=None, headers=None):
    payload = {"event_date": NEW_DATE} if payload is None else payload
    return post_json(client, f"/events/{event_id}/clone", payload, person.token, headers=headers)


def _created(client, owner, **fields) -> dict:
    created = post_event(client, owner, **fields)
    assert created.status_code == 201, created.body
    return body(created)


def test_the_clone_has_every_field_on_its_new_date_and_nothing_people_said(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    original = _created(client, alice, **EVERY_FIELD, invite_phone_numbers=[bob.phone])
    post_json(client, f"/conversation/events/{original['id']}/messages", {"body": "Hi"}, bob.token)

    response = _clone(client, alice, original["id"])

    assert response.status_code == 201
    clone = body(response)
    assert clone["id"] != original["id"]
    assert clone["event_date"] == "2031-03-07T18:00:00Z"
    assert clone["rsvp_deadline"] == "2031-03-05T18:00:00Z"  # two days before, as in the original
    same = {name: original[name] for name in EVERY_FIELD if name not in ("event_date", "rsvp_deadline")}
    assert {name: clone[name] for name in same} == same
    assert [invitee["user_id"] for invitee in clone["invitees"]] == [alice.id]
    assert clone["messages"] == [] and clone["polls"] == [] and clone["spots_filled"] == 0
    assert body(get(client, f"/events/{original['id']}", alice.token))["invitees"][1]["user_id"] == bob.id


def test_every_stored_field_is_carried_as_declared(client):
    alice = make_person("Alice")
    original = _created(client, alice, **EVERY_FIELD)
    clone = body(_clone(client, alice, original["id"]))
    before, after = stored_event(original["id"]), stored_event(clone["id"])
    for field in event_fields.STORED:
        assert getattr(after, field.name) == getattr(before, field.name), field.name
    assert after.utc_offset_minutes == 60  # the offset the new date was sent with


def test_with_the_same_guests_each_number_is_invited_again_without_replies(client):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    unknown = phone(8801)
    original = _created(client, alice, invite_phone_numbers=[bob.phone, carol.phone, unknown])
    post_json(client, f"/events/{original['id']}/accept", {"rsvp_message": "Yes"}, bob.token)

    response = _clone(client, alice, original["id"], {"event_date": NEW_DATE, "invite_same_guests": True})

    assert response.status_code == 201
    invitees = body(response)["invitees"]
    assert [invitee["phone_number"] for invitee in invitees] == [alice.phone, bob.phone, carol.phone, unknown]
    assert all(invitee["is_attending"] is None for invitee in invitees[1:])
    assert len(texts_to(unknown)) == 2  # no account: texted for each edition
    shown_to_bob = body(get(client, f"/events/{body(response)['id']}", bob.token))
    assert shown_to_bob["my_rsvp_message"] is None


def test_a_clone_of_a_clone_works(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    first = _created(client, alice, title="Third Thursday", invite_phone_numbers=[bob.phone])
    second = body(
        _clone(client, alice, first["id"], {"event_date": "2030-07-01T18:00:00Z", "invite_same_guests": True})
    )
    third = _clone(client, alice, second["id"], {"event_date": "2030-08-01T18:00:00Z", "invite_same_guests": True})
    assert third.status_code == 201
    assert body(third)["title"] == "Third Thursday"
    assert [invitee["user_id"] for invitee in body(third)["invitees"]] == [alice.id, bob.id]


def test_co_hosts_are_carried_when_the_same_guests_are_invited_and_not_otherwise(client):
    alice, bob, carol = make_person("Alice"), make_person("Bob"), make_person("Carol")
    first = _created(client, alice, invite_phone_numbers=[bob.phone, carol.phone])
    assert put(client, f"/events/{first['id']}/cohosts/{bob.id}", alice.token).status_code == 200
    same = body(_clone(client, alice, first["id"], {"event_date": NEW_DATE, "invite_same_guests": True}))
    assert same["cohost_ids"] == [bob.id]
    rows = {
        row["user_id"]: row["is_cohost"] for row in body(get(client, f"/events/{same['id']}", bob.token))["invitees"]
    }
    assert rows == {alice.id: False, bob.id: True, carol.id: False}
    alone = body(_clone(client, alice, first["id"], {"event_date": NEW_DATE}))
    assert alone["cohost_ids"] == [] and [row["user_id"] for row in alone["invitees"]] == [alice.id]


def test_a_stopped_number_is_not_texted_again(client):
    alice = make_person("Alice")
    gone = phone(8802)
    original = _created(client, alice, invite_phone_numbers=[gone])
    stop_list.stop(gone, "sms")
    texts = len(texts_to(gone))
    assert (
        _clone(client, alice, original["id"], {"event_date": NEW_DATE, "invite_same_guests": True}).status_code == 201
    )
    assert len(texts_to(gone)) == texts


def test_the_invitees_per_event_hold_and_nothing_is_stored(client, override_settings):
    alice = make_person("Alice")
    original = _created(client, alice, invite_phone_numbers=[phone(8810 + n) for n in range(3)])
    override_settings(invitees_per_event=2)  # lowered since the original was made
    before = table_items()
    refused = _clone(client, alice, original["id"], {"event_date": NEW_DATE, "invite_same_guests": True})
    assert (refused.status_code, body(refused)) == (
        400,
        {"invite_phone_numbers": ["An event can have at most 2 invitees."]},
    )
    assert table_items() == before


def test_the_events_an_owner_makes_a_day_hold(client, override_settings):
    override_settings(events_per_owner_per_day=1)
    alice = make_person("Alice")
    original = _created(client, alice)
    refused = _clone(client, alice, original["id"])
    assert refused.status_code == 429
    assert body(get(client, "/events", alice.token))["count"] == 1


def test_numbers_invited_before_cost_no_allowance_new_ones_do(client, override_settings):
    override_settings(contact_lookup_numbers_per_user_per_day=3)
    alice = make_person("Alice")
    original = _created(client, alice, invite_phone_numbers=[phone(8820 + n) for n in range(3)])
    assert (
        post_event(client, alice, invite_phone_numbers=[phone(8830)]).status_code == 429
    )  # the day's allowance is spent
    again = _clone(client, alice, original["id"], {"event_date": NEW_DATE, "invite_same_guests": True})
    assert again.status_code == 201  # the same three numbers: not new to the owner
    assert len(body(again)["invitees"]) == 4


def test_only_the_owner_clones(client):
    alice, bob, cohost, stranger = (make_person(name) for name in ("Alice", "Bob", "Cohost", "Stranger"))
    original = _created(client, alice, invite_phone_numbers=[bob.phone, cohost.phone])
    invitation = next(
        inv for inv in Invitation.query(f"EVENT#{original['id']}") if getattr(inv, "user_id", None) == cohost.id
    )
    invitation.update(actions=[Invitation.cohost.set(True)])
    assert _clone(client, bob, original["id"]).status_code == 403
    assert _clone(client, cohost, original["id"]).status_code == 403
    assert _clone(client, stranger, original["id"]).status_code == 404
    assert body(get(client, "/events", alice.token))["count"] == 1


@pytest.mark.parametrize(
    ("payload", "errors"),
    [
        ({}, {"event_date": ["This field is required."]}),
        (
            {"event_date": "soon"},
            {
                "event_date": [
                    "Datetime has wrong format. Use one of these formats instead: "
                    "YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."
                ]
            },
        ),
        ({"event_date": NEW_DATE, "invite_same_guests": "x"}, {"invite_same_guests": ["Must be a valid boolean."]}),
    ],
)
def test_a_wrong_body_is_400_by_field_and_makes_nothing(client, payload, errors):
    alice = make_person("Alice")
    original = _created(client, alice)
    refused = _clone(client, alice, original["id"], payload)
    assert (refused.status_code, body(refused)) == (400, errors)
    assert body(get(client, "/events", alice.token))["count"] == 1


def test_a_repeat_with_the_same_idempotency_key_makes_one_clone(client):
    alice, bob = make_person("Alice"), make_person("Bob")
    original = _created(client, alice, invite_phone_numbers=[bob.phone])
    payload = {"event_date": NEW_DATE, "invite_same_guests": True}
    first = _clone(client, alice, original["id"], payload, headers={"Idempotency-Key": "second-edition"})
    again = _clone(client, alice, original["id"], payload, headers={"Idempotency-Key": "second-edition"})
    assert first.status_code == again.status_code == 201
    assert body(again) == body(first)
    assert body(get(client, "/events", alice.token))["count"] == 2


def test_the_text_budget_holds_as_for_a_create(client, monkeypatch, override_settings):
    """As POST /events: the invitations stand when the month's budget cannot be counted, and no text goes."""
    from tests.utils.text_budget import throttle_the_budget_counter

    alice, number = make_person("Alice"), phone(8840)
    original = _created(client, alice, invite_phone_numbers=[number])  # no account: texted
    override_settings(sms_monthly_segments=100)
    throttle_the_budget_counter(monkeypatch)
    clone = _clone(client, alice, original["id"], {"event_date": NEW_DATE, "invite_same_guests": True})
    assert clone.status_code == 201 and body(clone)["invitees"][1]["phone_number"] == number
    assert len(texts_to(number)) == 1  # not counted, so not sent


def test_the_guest_list_head_answers_headers_only(client):
    alice = make_person("Alice")
    original = _created(client, alice, title="Picnic")
    answer = client.http.request(
        "HEAD", f"/events/{original['id']}/guests.csv", headers={"Authorization": f"Bearer {alice.token}"}
    )
    assert answer.status_code == 200 and answer.body == b""
    assert answer.headers["Content-Disposition"].startswith('attachment; filename="Picnic.csv"')


def test_the_cover_is_copied_so_each_edition_keeps_its_own(client):
    from chalicelib.services.media.avatars import IMAGE_CACHE_CONTROL
    from tests.utils.avatars import AVATAR_BUCKET, CDN, multipart, stored_objects
    from tests.utils.aws_env import aws_client
    from tests.utils.images import jpeg

    alice = make_person("Alice")
    original = _created(client, alice)
    payload, headers = multipart(jpeg(300, 200))
    headers["Authorization"] = f"Bearer {alice.token}"
    cover = client.http.request("PUT", f"/events/{original['id']}/cover", body=payload, headers=headers)
    first_cover = body(cover)["cover_url"]

    clone = body(_clone(client, alice, original["id"]))

    assert clone["cover_url"] is not None and clone["cover_url"] != first_cover
    assert clone["cover_url"][len(CDN) :] in stored_objects() and len(stored_objects()) == 4
    copied = aws_client("s3").get_object(Bucket=AVATAR_BUCKET, Key=clone["cover_url"][len(CDN) :])
    assert copied["ContentType"] == "image/jpeg" and copied["CacheControl"] == IMAGE_CACHE_CONTROL
    removed = client.http.request(
        "DELETE", f"/events/{original['id']}/cover", headers={"Authorization": f"Bearer {alice.token}"}
    )
    assert removed.status_code == 200
    assert stored_objects() == sorted(
        [clone["cover_url"][len(CDN) :], clone["cover_url"][len(CDN) :].replace("cover.jpg", "card.jpg")]
    )
    assert body(get(client, f"/events/{clone['id']}", alice.token))["cover_url"] == clone["cover_url"]


def test_a_cover_s3_cannot_copy_leaves_the_clone_without_one_and_no_stray_object(client, fail_aws):
    from tests.utils.avatars import multipart, stored_objects
    from tests.utils.images import jpeg

    alice = make_person("Alice")
    original = _created(client, alice)
    payload, headers = multipart(jpeg(300, 200))
    headers["Authorization"] = f"Bearer {alice.token}"
    client.http.request("PUT", f"/events/{original['id']}/cover", body=payload, headers=headers)
    fail_aws("s3", "CopyObject", "ServiceUnavailable")

    clone = _clone(client, alice, original["id"])

    assert clone.status_code == 201 and body(clone)["cover_url"] is None
    assert len(stored_objects()) == 2  # the original's


def test_a_clone_costs_a_create_and_one_read_of_the_original(client, aws):
    alice = make_person("Alice")
    guests = [make_person(f"Guest {n}") for n in range(3)]
    numbers = [guest.phone for guest in guests]
    original = _created(client, alice, invite_phone_numbers=numbers)
    aws.reset()
    assert post_event(client, alice, invite_phone_numbers=numbers).status_code == 201
    create = aws.of("dynamodb")
    aws.reset()
    assert (
        _clone(client, alice, original["id"], {"event_date": NEW_DATE, "invite_same_guests": True}).status_code == 201
    )
    # beyond a create of the same numbers: the original's partition and its people (the caller's invitation to
    # the original comes with their token)
    assert aws.of("dynamodb") - create == {"Query": 1, "BatchGetItem": 1}
    assert create - aws.of("dynamodb") == {}
