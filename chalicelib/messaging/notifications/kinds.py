"""The kinds of message the queue carries: each declared in the module that handles it, beside its handler.

Adding a kind is one file, the module whose code handles it::

    GUEST_ARRIVED = queue_kind("guest_arrived")

    @handles(GUEST_ARRIVED)
    def _guest_arrived(message: dict) -> Outcome: ...

A module that sends the kind imports that constant when its layer may import the handler's module; one below it
(most senders: a guest's answer sends the pushes the notifications package handles) names the kind at its top,
``GUEST_ARRIVED = kind_named("guest_arrived")``, and the worker checks the name when it registers the kinds. A
kind's value is the message's ``"type"`` on the wire (and, for a notification, the push type): queued messages
carry it across deploys, so a name once used stays.

The worker (chalicelib/jobs/queue_handler.py) imports every module of the services at its own import, which
declares every kind and records every name sent, then calls :func:`check_complete`: a name declared by two
modules, a kind without its handler, or a name sent that no module declares stops it there, before any
message is handled. A sender's ``kind_named`` only records the name: it loads no handler's module.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass

from chalicelib.messaging.notifications.messages import Outcome

Handler = Callable[[dict], Outcome]

# A literal word of lowercase letters, digits and underscores: it travels as JSON and as a push's type.
_KIND_NAME = re.compile(r"[a-z][a-z0-9_]{0,47}")


class QueueKind(str):
    """A kind of queue message; it is the message's ``"type"`` (a plain string to JSON and comparisons)."""

    __slots__ = ()


@dataclass
class _Declaration:
    module: str
    handler: Handler | None = None


_declared: dict[str, _Declaration] = {}
_sent_by: dict[str, set[str]] = {}


def queue_kind(name: str) -> QueueKind:
    """Declare the kind ``name``, handled in the calling module (which registers it with :func:`handles`).
    Raises ValueError when another module declared it already."""
    module = _calling_module()
    _check_name(name)
    declared = _declared.setdefault(name, _Declaration(module))
    if declared.module != module:
        raise ValueError(f"queue kind {name!r} is declared in {declared.module} already, not again in {module}")
    return QueueKind(name)


def kind_named(name: str) -> QueueKind:
    """The kind ``name``, for a module that sends it and may not import the module that handles it. The name is
    recorded with the calling module, and :func:`check_complete` refuses it while no module declares it."""
    _check_name(name)
    _sent_by.setdefault(name, set()).add(_calling_module())
    return QueueKind(name)


def handles(kind: QueueKind) -> Callable[[Handler], Handler]:
    """Register the decorated function as the handler of ``kind``, in the module that declares the kind."""

    def register(handler: Handler) -> Handler:
        declared = _declared.get(kind)
        if declared is None:
            raise ValueError(f"{kind} is not declared: queue_kind({str(kind)!r}) in its handler's module")
        if handler.__module__ != declared.module:
            raise ValueError(f"{kind} is handled in {declared.module}, not {handler.__module__}")
        if declared.handler not in (None, handler):
            raise ValueError(f"{kind} has a handler already")
        declared.handler = handler
        return handler

    return register


def kind_of(message_type: object) -> QueueKind | None:
    """The declared kind of a message's ``"type"``; None for a type no module declares."""
    if isinstance(message_type, str) and message_type in _declared:
        return QueueKind(message_type)
    return None


def registered_handler(kind: QueueKind) -> Handler | None:
    """The handler registered for ``kind``; None while its module is not imported."""
    declared = _declared.get(kind)
    return declared.handler if declared else None


def declared_kinds() -> dict[QueueKind, str]:
    """Every kind declared so far, with the module that handles it."""
    return {QueueKind(name): declared.module for name, declared in sorted(_declared.items())}


def check_complete() -> None:
    """Raise LookupError, naming each, when a declared kind has no handler or a name sent is declared nowhere."""
    problems = [f"{name} has no handler in {d.module}" for name, d in sorted(_declared.items()) if d.handler is None]
    problems += [
        f"{name}, sent by {', '.join(sorted(modules))}, is declared by no module"
        for name, modules in sorted(_sent_by.items())
        if name not in _declared
    ]
    if problems:
        raise LookupError("queue kinds: " + "; ".join(problems))


def _check_name(name: object) -> None:
    if not isinstance(name, str) or not _KIND_NAME.fullmatch(name):
        raise ValueError(f"a queue kind is named by a word of a-z, 0-9 and _, not {name!r}")


def _calling_module() -> str:
    """The module whose top-level code called the public function that calls this."""
    return sys._getframe(2).f_globals.get("__name__", "?")
