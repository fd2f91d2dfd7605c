"""Modules loaded on first use, so a cold start imports only what the route it serves needs.

``events = lazy_import("chalicelib.services.events")`` binds a module whose code runs when one of
its attributes is first read (the standard library's ``importlib.util.LazyLoader``). The route
modules take their services and representations this way: importing the app then costs little
beyond Chalice itself, and PynamoDB, phonenumbers and Pillow load with the first route that uses
them.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy_import(name: str) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module
