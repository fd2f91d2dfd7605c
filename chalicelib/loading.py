"""Handlers named by where they live and loaded once, on first use.

Every route (chalicelib/api/routes.py) and every event source (chalicelib/wiring.py) names its handler as
``"package.module:function"``; the module is imported the first time the handler is called. A cold start
therefore imports only the plumbing and the one handler module its first request needs, while each handler
module imports what it uses at its top, where readers and the import contracts see it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Any


@cache
def load_handler(target: str) -> Callable[..., Any]:
    """The function ``target`` names (``"chalicelib.api.events:event_detail"``), its module imported once."""
    module_name, separator, function_name = target.partition(":")
    if not separator or not function_name:
        raise ValueError(f"a handler is named as 'module:function', not {target!r}")
    handler = getattr(importlib.import_module(module_name), function_name, None)
    if not callable(handler):
        raise LookupError(f"{module_name} has no function {function_name}")
    return handler
