"""The table models' class building: PynamoDB's result without ``inspect.getmembers`` on every model.

PynamoDB finds a model's attributes and indexes with ``inspect.getmembers``, which lists ``dir()`` of the
class and reads every name it holds (a model has about 150, nearly all of them ``Model``'s methods), twice per
class: with about fifty model classes, most of the CPU the models cost at a cold start. While PynamoDB builds
a table model, :class:`TableModelMeta` answers ``dir()`` with only the names that hold an attribute or an index
somewhere along the class's MRO; ``getmembers`` still reads and filters them itself, so the result is the
one it gives from the full list (tests/models/test_model_meta.py compares both for every model). At any
other time ``dir()`` of a model is the ordinary one.
"""

from __future__ import annotations

import threading
from functools import cache

from pynamodb.attributes import Attribute
from pynamodb.indexes import Index
from pynamodb.models import MetaModel

_building = threading.local()


def _classes_being_built() -> dict[int, list[str] | None]:
    """The classes this thread is building, by id, with their declared members once listed."""
    classes = getattr(_building, "classes", None)
    if classes is None:
        classes = _building.classes = {}
    return classes


def declared_members(cls: type) -> list[str]:
    """The names that hold an attribute or an index in the ``__dict__`` of ``cls`` or of a class it inherits."""
    names: set[str] = set()
    for klass in cls.__mro__:
        names.update(_own_members(klass) if isinstance(klass, TableModelMeta) else _library_members(klass))
    return sorted(names)


def _own_members(klass: type) -> list[str]:
    return [name for name, value in vars(klass).items() if isinstance(value, (Attribute, Index))]


@cache
def _library_members(klass: type) -> list[str]:
    """The same for a class of PynamoDB's or Python's (``Model``, ``object``: never changed), listed once."""
    return _own_members(klass)


class TableModelMeta(MetaModel):
    """PynamoDB's model metaclass, whose class building lists only the attributes and indexes."""

    def __init__(cls, name, bases, namespace, discriminator=None) -> None:
        building = _classes_being_built()
        building[id(cls)] = None
        try:
            super().__init__(name, bases, namespace, discriminator)
        finally:
            del building[id(cls)]

    def __dir__(cls):
        building = _classes_being_built()
        if id(cls) not in building:
            return super().__dir__()
        if building[id(cls)] is None:
            building[id(cls)] = declared_members(cls)
        return list(building[id(cls)])
