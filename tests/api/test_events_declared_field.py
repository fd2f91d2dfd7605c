"""A plain event field added the way docs/data-model.md says (its declaration and its model attribute, nothing
else) is taken on create and edit, checked, stored, shown, cloned and exported."""

from __future__ import annotations

import pytest
from pynamodb.attributes import UnicodeAttribute

from chalicelib.domain import event_fields
from chalicelib.models import item_access
from chalicelib.models.events import Event
from tests.utils.api import body, get, post_event, post_json
from tests.utils.exports import exported_file
from tests.utils.factories import make_person, stored_event, table_items

COSTUMES = "Costumes, \u05ea\u05d7\u05e4\u05d5\u05e9\u05d5\u05ea \U0001f3ad"  # Hebrew and an emoji
DRESS_CODE = event_fields.EventField("dress_code", "text", max_length=40, default="")


def _declare(monkeypatch, declared: event_fields.EventField) -> None:
    """``declared`` in the declaration and on the model, as an engineer adding it would write them."""
    monkeypatch.setattr(event_fields, "EVENT_FIELDS", (*event_fields.EVENT_FIELDS, declared))
    monkeypatch.setattr(event_fields, "STORED", (*event_fields.STORED, declared))
    monkeypatch.setitem(event_fields.BY_NAME, declared.name, declared)
    attribute = UnicodeAttribute(null=True)
    attribute.attr_name = declared.name
    monkeypatch.setattr(Event, declared.name, attribute, raising=False)
    monkeypatch.setitem(Event._attributes, declared.name, attribute)
    monkeypatch.setattr(item_access, "_reading_plans", {})  # the attributes read and written, planned once per model
    monkeypatch.setattr(item_access, "_writing_plans", {})


@pytest.fixture
def dress_code(monkeypatch):
    _declare(monkeypatch, DRESS_CODE)


def _patch(client, person, event_id: int, fields: dict):
    return post_json(client, f"/events/{event_id}", fields, person.token, method="PATCH")


def test_a_declared_field_is_created_edited_shown_cloned_and_exported(client, dress_code):
    alice, bob = make_person("Alice"), make_person("Bob")
    created = post_event(client, alice, dress_code="Black tie", invite_phone_numbers=[bob.phone])
    assert created.status_code == 201, created.body
    event_id = body(created)["id"]
    assert body(created)["dress_code"] == "Black tie"
    assert stored_event(event_id).dress_code == "Black tie"

    edited = _patch(client, alice, event_id, {"dress_code": COSTUMES})
    assert edited.status_code == 200, edited.body
    assert stored_event(event_id).dress_code == COSTUMES
    seen_by_guest = body(get(client, f"/events/{event_id}", bob.token))
    assert seen_by_guest["dress_code"] == COSTUMES
    assert list(seen_by_guest).index("dress_code") > list(seen_by_guest).index("polls")

    clone = post_json(client, f"/events/{event_id}/clone", {"event_date": "2031-03-07T19:00:00Z"}, alice.token)
    assert clone.status_code == 201, clone.body
    assert body(clone)["dress_code"] == COSTUMES
    assert stored_event(body(clone)["id"]).dress_code == body(clone)["dress_code"]

    assert post_json(client, "/users/me/export", {}, alice.token).status_code == 202
    exported = exported_file(client, body(get(client, "/users/me/export", alice.token))["url"])
    assert {owned["id"]: owned["dress_code"] for owned in exported["events_owned"]} == {
        event_id: COSTUMES,
        body(clone)["id"]: COSTUMES,
    }


def test_a_declared_field_not_sent_is_stored_and_shown_as_its_default(client, dress_code):
    alice = make_person("Alice")
    created = body(post_event(client, alice))
    assert created["dress_code"] == ""
    assert stored_event(created["id"]).dress_code == ""
    assert _patch(client, alice, created["id"], {"title": "Picnic again"}).status_code == 200
    assert stored_event(created["id"]).dress_code == ""


def test_a_declared_field_is_checked_by_its_declaration_and_nothing_is_written(client, dress_code):
    alice = make_person("Alice")
    refused = post_event(client, alice, dress_code="x" * 41)
    assert refused.status_code == 400
    assert body(refused) == {"dress_code": ["Ensure this field has no more than 40 characters."]}
    assert [item for item in table_items() if item["sk"]["S"] == "META"] == []

    event_id = body(post_event(client, alice, dress_code="Casual"))["id"]
    refused = _patch(client, alice, event_id, {"dress_code": 7, "title": "Renamed"})
    assert refused.status_code == 400 and set(body(refused)) == {"dress_code"}
    assert (stored_event(event_id).dress_code, stored_event(event_id).title) == ("Casual", "Picnic")


def test_a_declared_online_link_is_shown_as_the_place_is(client, monkeypatch):
    _declare(monkeypatch, event_fields.EventField("online_url", "text", max_length=500))
    alice, bob = make_person("Alice"), make_person("Bob")
    link = "https://meet.example.test/\u05e2\u05e8\u05d1"
    created = post_event(client, alice, online_url=link, place_visibility="accepted", invite_phone_numbers=[bob.phone])
    event_id = body(created)["id"]
    assert body(created)["online_url"] == link
    assert body(get(client, f"/events/{event_id}", bob.token))["online_url"] is None  # not accepted yet
    assert post_json(client, f"/events/{event_id}/accept", {}, bob.token).status_code == 200
    assert body(get(client, f"/events/{event_id}", bob.token))["online_url"] == link
