"""Stored items read into model objects (chalicelib/models/base.py): the one-pass reading gives exactly what
PynamoDB's own ``_instantiate`` gives, for every model and every way an attribute can be stored or missing."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta

import pytest
from pynamodb.attributes import Attribute, AttributeContainer, MapAttribute, NumberAttribute, TTLAttribute
from pynamodb.exceptions import AttributeNullError

from chalicelib.models.auth import AuthTable
from chalicelib.models.base import TableModel
from chalicelib.models.events import EventsTable, Location
from chalicelib.models.users import UsersTable
from tests.utils.api import get, post_json
from tests.utils.factories import add_message, add_poll, make_event, make_person

TABLES = (UsersTable, AuthTable, EventsTable)


def pynamodb_reading(table: type, raw: dict):
    """What PynamoDB itself makes of ``raw`` (its ``_instantiate``, not the table's)."""
    return AttributeContainer._instantiate.__func__(table, copy.deepcopy(raw))


def _plain(value):
    if isinstance(value, MapAttribute):
        return (type(value), {name: _plain(v) for name, v in value.attribute_values.items()})
    return value


def _state(item) -> tuple:
    return type(item), {name: _plain(value) for name, value in item.attribute_values.items()}


def _every_item_kind() -> list[tuple[type, type]]:
    return [(table, kind) for table in TABLES for kind in table._get_discriminator_attribute()._class_map]


def test_every_stored_item_reads_as_pynamodb_reads_it(aws, client):
    # GIVEN items of every table as the app writes them: people, tokens, pins and counters of a login, an event
    # with a place, guests, an answer, messages and a poll
    owner, guest = make_person("Olivia Owner"), make_person("Gus Guest")
    event = make_event(owner, guest, location=Location(latitude=48.85, longitude=2.35), address="1 Rue")
    post_json(client, f"/events/{event.id}/accept", {}, guest.token)
    now = datetime.now(UTC).replace(microsecond=0)
    add_message(event.id, guest, "See you", now)
    add_poll(event.id, owner, "Cafe", now + timedelta(days=3), now)
    assert post_json(client, "/auth", {"phone_number": "+12025550177"}).status_code == 204
    stored = {table: [item.serialize() for item in table.scan()] for table in TABLES}  # test-only scans
    assert all(stored.values())
    for table, raws in stored.items():
        for raw in raws:
            # WHEN one is read into its model THEN it is what PynamoDB makes of it
            assert _state(table.from_raw_data(copy.deepcopy(raw))) == _state(pynamodb_reading(table, raw))
            # AND written again it is what PynamoDB writes of it
            item = table.from_raw_data(copy.deepcopy(raw))
            assert item.serialize() == AttributeContainer._container_serialize(item) == raw


@pytest.mark.parametrize(("table", "kind"), _every_item_kind(), ids=lambda c: c.__name__)
def test_defaults_nulls_and_missing_attributes_read_as_pynamodb_reads_them(table, kind):
    discriminator = table._get_discriminator_attribute()
    keys = {"pk": {"S": "X#1"}, "kind": {"S": discriminator.get_discriminator(kind)}}
    if "sk" in table.get_attributes():
        keys["sk"] = {"S": "Y#1"}
    nulls = {a.attr_name: {"NULL": True} for n, a in kind.get_attributes().items() if n not in ("pk", "sk", "kind")}
    for raw in (keys, {**nulls, **keys}):
        for reader in (table, kind):
            assert _state(reader.from_raw_data(copy.deepcopy(raw))) == _state(pynamodb_reading(reader, raw))


def test_an_item_of_another_kind_is_refused_as_pynamodb_refuses_it():
    from chalicelib.models.events import Event, Invitation

    raw = {"pk": {"S": "EVENT#1"}, "sk": {"S": "META"}, "kind": {"S": "event"}}
    with pytest.raises(ValueError, match="Cannot instantiate a Invitation"):
        Invitation.from_raw_data(raw)
    assert type(EventsTable.from_raw_data(raw)) is Event and issubclass(Event, TableModel)


def test_reading_an_event_sets_no_default_and_stores_values_without_the_descriptors(aws, client, monkeypatch):
    # GIVEN an event with five guests and a message
    owner = make_person("Olivia Owner")
    guests = [make_person(f"Guest {n}") for n in range(5)]
    event = make_event(owner, *guests)
    add_message(event.id, guests[0], "Hello", datetime.now(UTC).replace(microsecond=0))
    calls = {"defaults": 0, "stored": 0, "items": 0}
    set_defaults, store, instantiate = AttributeContainer._set_defaults, Attribute.__set__, TableModel._instantiate

    def counted(name, original):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return original(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(AttributeContainer, "_set_defaults", counted("defaults", set_defaults))
    monkeypatch.setattr(Attribute, "__set__", counted("stored", store))
    monkeypatch.setattr(TableModel, "_instantiate", classmethod(counted("items", instantiate.__func__)))
    # WHEN a guest reads it
    response = get(client, f"/events/{event.id}", guests[1].token)
    assert response.status_code == 200 and len(response.json_body["invitees"]) == 6
    # THEN its items (token and profile, the partition's 8, the 6 people) are read without PynamoDB setting any
    # default and with only each item's kind going through a descriptor (PynamoDB's own reading: every default
    # twice and every value through its descriptor, hundreds of calls)
    assert calls["items"] >= 15
    assert calls["defaults"] == 0
    assert calls["stored"] < 2 * calls["items"], calls


@pytest.mark.parametrize(("table", "kind"), _every_item_kind(), ids=lambda c: c.__name__)
def test_every_attribute_reads_its_value_as_pynamodbs_descriptor_reads_it(table, kind):
    # GIVEN an item of the kind with every other attribute holding a value of its own and the rest unset
    stored_kind = table._get_discriminator_attribute().get_discriminator(kind)
    item = kind.from_raw_data({"pk": {"S": "X#1"}, "kind": {"S": stored_kind}})
    attributes = sorted(kind.get_attributes().items())
    for name, _attribute in attributes[::2]:
        item.attribute_values[name] = f"value of {name}"
    for name, attribute in attributes:
        # WHEN each is read THEN the value is PynamoDB's own descriptor's, and the class still gives the attribute
        assert getattr(item, name) == Attribute.__get__(attribute, item, kind), name
        assert getattr(kind, name) is attribute
        assert isinstance(attribute, type(attribute).__mro__[1])  # still the PynamoDB attribute class it was


@pytest.mark.parametrize(("table", "kind"), _every_item_kind(), ids=lambda c: c.__name__)
def test_every_attribute_stores_its_value_as_pynamodbs_descriptor_stores_it(table, kind):
    stored_kind = {"kind": {"S": table._get_discriminator_attribute().get_discriminator(kind)}}
    for name, attribute in kind.get_attributes().items():
        pynamodb_classes = [c for c in type(attribute).__mro__ if c.__module__ == "pynamodb.attributes"]
        own_descriptor = next(c for c in pynamodb_classes if "__set__" in vars(c))
        # GIVEN two items of the kind
        ours, pynamodbs = (kind.from_raw_data({"pk": {"S": "X#1"}, **stored_kind}) for _ in range(2))
        # WHEN a value is assigned to one, and stored by the descriptor PynamoDB gives its class in the other
        value = {
            "kind": kind,
            "TTLAttribute": timedelta(hours=1),
            "Location": Location(latitude=1.5, longitude=2.5),
        }.get(name if name == "kind" else type(attribute).__mro__[1].__name__, f"value of {name}")
        setattr(ours, name, value)
        own_descriptor.__set__(attribute, pynamodbs, value)
        # THEN both hold the same value
        assert _state(ours) == _state(pynamodbs), name


def test_creating_an_event_stores_no_value_through_pynamodbs_descriptor(aws, client, monkeypatch):
    # GIVEN a host and three people to invite
    owner = make_person("Olivia Owner")
    numbers = [make_person(f"Guest {n}").phone for n in range(3)]
    stores = []
    descriptor = Attribute.__set__

    def counted(attribute, instance, value):
        if not isinstance(attribute, MapAttribute):  # a map (the place) stores as before
            stores.append(attribute.attr_name)
        return descriptor(attribute, instance, value)

    monkeypatch.setattr(Attribute, "__set__", counted)
    # WHEN the host creates an event inviting them
    body = {"title": "Dinner", "event_date": "2031-01-01T18:00:00Z", "invite_phone_numbers": numbers}
    response = post_json(client, "/events", body, owner.token)
    assert response.status_code == 201 and len(response.json_body["invitees"]) == 4
    # THEN the event, the invitations and the people are made and read with only the attributes whose descriptor
    # does more than keep the value going through PynamoDB's: each item's kind (it checks the item's class) and
    # the token's expiry (a TTL, converted)
    assert stores and set(stores) <= {"kind", "expires_at"}, stores


def _written(item, null_check: bool):
    """``(what serialising gives, the AttributeNullError's message or None)`` for ``item``."""
    try:
        return item.serialize(null_check=null_check), None
    except AttributeNullError as error:
        return None, str(error)


def _written_by_pynamodb(item, null_check: bool):
    try:
        return AttributeContainer._container_serialize(item, null_check=null_check), None
    except AttributeNullError as error:
        return None, str(error)


@pytest.mark.parametrize(("table", "kind"), _every_item_kind(), ids=lambda c: c.__name__)
def test_every_kind_writes_as_pynamodb_writes_it_with_values_missing_or_numbers_of_every_sort(table, kind):
    stored_kind = {"kind": {"S": table._get_discriminator_attribute().get_discriminator(kind)}}
    numbers = [0, 7, -3, 2**60, 1.5, 1e-7, True]
    for n in range(len(numbers)):
        # GIVEN an item with only its keys, and one whose number attributes hold whole, negative, big and
        # fractional numbers (and a bool, which JSON writes as true)
        bare = kind.from_raw_data({"pk": {"S": "X#1"}, **stored_kind})
        full = kind.from_raw_data({"pk": {"S": "X#1"}, **stored_kind})
        for name, attribute in kind.get_attributes().items():
            if isinstance(attribute, NumberAttribute) and not isinstance(attribute, TTLAttribute):
                full.attribute_values[name] = numbers[(n + len(name)) % len(numbers)]
        for item in (bare, full):
            for null_check in (True, False):
                # WHEN it is serialised THEN it is what PynamoDB makes of it, refusals included
                assert _written(item, null_check) == _written_by_pynamodb(item, null_check)
