"""How table models read, keep and write their values: PynamoDB's results without its generic path's calls.

PynamoDB's attribute descriptor asks whether the object is a map and resolves the stored name on every read
and assignment, its reading of an item walks every attribute of the model through its methods, and its
serialisation reads each value through the descriptor and encodes numbers as JSON: most of what a warm
request spends outside botocore. chalicelib/models/base.py (``TableModel``) uses what is here;
tests/models/test_base.py holds every result equal to PynamoDB's own for every model.
"""

from __future__ import annotations

import json

from pynamodb.attributes import (
    Attribute,
    BooleanAttribute,
    ListAttribute,
    MapAttribute,
    NumberAttribute,
    UTCDateTimeAttribute,
)
from pynamodb.exceptions import AttributeNullError
from pynamodb.models import Model


def quick_get(attribute: Attribute, instance, owner=None):
    """PynamoDB's ``Attribute.__get__`` for an attribute of a table model: on the class, the attribute (for
    conditions and updates); on a model object, its value or None. (A model object is never a map, and it keeps
    its values under the attributes' Python names.)"""
    if instance is None:
        return attribute
    return instance.attribute_values.get(attribute.python_name)


def quick_set(attribute: Attribute, instance, value) -> None:
    """PynamoDB's ``Attribute.__set__`` for an attribute of a table model: the value kept under its Python name."""
    instance.attribute_values[attribute.python_name] = value


def use_quick_access(model: type[Model]) -> None:
    """Each attribute ``model`` declares reads with :func:`quick_get`, and stores with :func:`quick_set` unless
    its class stores in a way of its own (the kind, a TTL); an attribute class with its own ``__get__`` (a map,
    a version) keeps its descriptor."""
    for name, attribute in vars(model).items():
        if isinstance(attribute, Attribute) and type(attribute).__get__ is Attribute.__get__:
            attribute.python_name = name
            attribute.__class__ = _quick_access(type(attribute))


_quick_classes: dict[type, type] = {}


def _quick_access(attribute_class: type) -> type:
    """``attribute_class`` with the quick descriptor (one subclass per attribute class, made once)."""
    quick = _quick_classes.get(attribute_class)
    if quick is None:
        descriptor = {"__get__": quick_get}
        if attribute_class.__set__ is Attribute.__set__:
            descriptor["__set__"] = quick_set
        quick = type(attribute_class.__name__, (attribute_class,), descriptor)
        _quick_classes[attribute_class] = quick
    return quick


def only_stores(attribute: Attribute) -> bool:
    """Whether assigning the attribute only keeps the value (its descriptor checks and converts nothing)."""
    return type(attribute).__set__ in (Attribute.__set__, quick_set)


# --------------------------------------------------------------------------- reading stored items

_reading_plans: dict[type, tuple] = {}


def reading_plan(model: type[Model]) -> tuple[dict[str, tuple], tuple]:
    """How ``model`` reads a stored item: by stored name, each attribute's (name, stored type, how its stored
    value is decoded (None: as it is), attribute, whether it only stores); then (name, default, whether it only
    stores) of each attribute with a default."""
    plan = _reading_plans.get(model)
    if plan is None:
        attributes = model.get_attributes().items()
        plan = _reading_plans[model] = (
            {
                attribute.attr_name: (
                    name,
                    attribute.attr_type,
                    _decoder(attribute),
                    attribute,
                    only_stores(attribute),
                )
                for name, attribute in attributes
            },
            tuple(
                (name, attribute.default, only_stores(attribute))
                for name, attribute in attributes
                if attribute.default is not None
            ),
        )
    return plan


def _decoder(attribute: Attribute):
    """What the attribute's ``deserialize`` does, without its method calls for the common types (None: nothing)."""
    deserialize = type(attribute).deserialize
    if deserialize is Attribute.deserialize:
        return None
    if deserialize is BooleanAttribute.deserialize:
        return bool
    if deserialize is NumberAttribute.deserialize:
        return _stored_number
    if deserialize is UTCDateTimeAttribute.deserialize:
        return UTCDateTimeAttribute._fast_parse_utc_date_string
    return attribute.deserialize


def _stored_number(text: str):
    """A stored number as NumberAttribute reads it (``json.loads``), whole numbers without the JSON parser."""
    if text.isdigit() and text.isascii() and (text[0] != "0" or len(text) == 1):
        return int(text)
    return json.loads(text)


# --------------------------------------------------------------------------- writing items

_writing_plans: dict[type, tuple] = {}


def serialized(item: Model, null_check: bool) -> dict | None:
    """``item`` in botocore's form as PynamoDB's ``_container_serialize`` makes it, or None when one of its
    values needs PynamoDB's own path (a map or a list, or an attribute with a descriptor of its own)."""
    values = item.attribute_values
    plan, own_path = _writing_plan(type(item))
    if any(values.get(name) is not None for name in own_path):
        return None
    stored = {}
    for name, stored_name, stored_type, encode, nullable in plan:
        value = values.get(name)
        if value is not None and encode is not None:
            value = encode(value)
        if value is None:
            if null_check and not nullable:
                raise AttributeNullError(name)
            continue
        stored[stored_name] = {stored_type: value}
    return stored


def _writing_plan(model: type[Model]) -> tuple[tuple, tuple]:
    """(name, stored name, stored type, encoder (None: as it is), whether it may be null) of each attribute of
    ``model``, in its order, as PynamoDB writes them; then the names of those whose values PynamoDB writes
    itself (maps, lists, own descriptors: in the plan only for the null check of an absent one)."""
    plan = _writing_plans.get(model)
    if plan is None:
        entries, own_path = [], []
        for name, attribute in model.get_attributes().items():
            if isinstance(attribute, (MapAttribute, ListAttribute)) or type(attribute).__get__ is not quick_get:
                own_path.append(name)
            entries.append((name, attribute.attr_name, attribute.attr_type, _encoder(attribute), attribute.null))
        plan = _writing_plans[model] = (tuple(entries), tuple(own_path))
    return plan


def _encoder(attribute: Attribute):
    """What the attribute's ``serialize`` does to a value that is not None, without its method calls for the
    common types (None: nothing)."""
    serialize = type(attribute).serialize
    if serialize is Attribute.serialize:
        return None
    if serialize is BooleanAttribute.serialize:
        return bool
    if serialize is NumberAttribute.serialize:
        return _number_text
    return attribute.serialize


def _number_text(value) -> str:
    """A number as NumberAttribute writes it (``json.dumps``), whole numbers without the JSON encoder."""
    return str(value) if type(value) is int else json.dumps(value)
