"""Table models built without ``inspect.getmembers`` over every name: the same attributes and indexes."""

from __future__ import annotations

from inspect import getmembers

import pynamodb.attributes
import pynamodb.models
import pytest
from pynamodb.attributes import Attribute, UnicodeAttribute
from pynamodb.indexes import Index

from chalicelib.models.auth import AuthTable
from chalicelib.models.base import TableModel
from chalicelib.models.events import EventsTable
from chalicelib.models.model_meta import declared_members
from chalicelib.models.users import UsersTable


def _every_model() -> list[type]:
    assert {AuthTable, EventsTable, UsersTable} <= set(TableModel.__subclasses__())
    found, waiting = [], [TableModel]
    while waiting:
        model = waiting.pop()
        found.append(model)
        waiting.extend(model.__subclasses__())
    return found


@pytest.mark.parametrize("model", _every_model(), ids=lambda model: model.__name__)
def test_every_model_has_the_attributes_and_indexes_pynamodb_finds(model):
    attributes = getmembers(model, lambda member: isinstance(member, Attribute))
    assert list(model._attributes.items()) == attributes
    assert model._dynamo_to_python_attrs == {
        attribute.attr_name: name for name, attribute in attributes if attribute.attr_name != name
    }
    indexes = getmembers(model, lambda member: isinstance(member, Index))
    assert model._indexes == {index.Meta.index_name: index for _, index in indexes}
    assert all(index._model is model for index in model._indexes.values())
    assert declared_members(model) == sorted(name for name, _ in attributes + indexes)


def test_a_model_is_built_from_its_declared_members_and_lists_every_name_afterwards(monkeypatch):
    listed = []

    def listing_getmembers(cls, predicate=None):
        listed.append(len(dir(cls)))
        return getmembers(cls, predicate)

    monkeypatch.setattr(pynamodb.attributes, "getmembers", listing_getmembers)
    monkeypatch.setattr(pynamodb.models, "getmembers", listing_getmembers)

    class Probe(TableModel):
        Meta = EventsTable.Meta
        pk = UnicodeAttribute(hash_key=True)
        sk = UnicodeAttribute(range_key=True)
        extra = UnicodeAttribute(null=True, attr_name="x")
        by_user = EventsTable.by_user.__class__()

    declared = len(declared_members(Probe))
    assert listed == [declared, declared]
    assert declared == 4
    assert Probe._dynamo_to_python_attrs == {"x": "extra"}
    assert (Probe._hash_keyname, Probe._range_keyname) == ("pk", "sk")
    assert list(Probe._indexes.values())[0]._model is Probe
    assert {"get", "query", "save", "extra"} <= set(dir(Probe)) and len(dir(Probe)) > 80
