"""Modules loaded on first use, so a cold start imports only what the route it serves needs.

``events = lazy_import("chalicelib.services.events")`` binds a stand-in whose first attribute read
imports the real module (through the regular, thread-safe import machinery); every later read is
passed to it. The route modules take their services and representations this way: importing the
app costs little beyond Chalice itself, and PynamoDB, phonenumbers and Pillow load with the first
route that uses them. (The standard library's LazyLoader is not used: on Python 3.11 two threads
reading a lazy module for the first time at once can see it half-loaded, as `chalice local` does.)
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType


class _LazyModule(ModuleType):
    def __getattr__(self, attribute: str):
        # Called only for names the stand-in lacks, i.e. every name of the real module.
        return getattr(importlib.import_module(self.__name__), attribute)


def lazy_import(name: str) -> ModuleType:
    if importlib.util.find_spec(name) is None:
        raise ModuleNotFoundError(name)
    return _LazyModule(name)
