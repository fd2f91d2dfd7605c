"""A push's body as a sentence of the catalogues, so each device reads it in the language it registered.

The sentence is written in English where the push is made (marked ``N_`` for the catalogues) with ``{name}``
placeholders; a value is a string (a name, a title) or a function of the language (a date in its own forms).
English is the sentence itself, so a device that registered no language gets exactly the body it always got.
For iOS the payload also names the sentence for the app's own strings, as Apple documents (``loc-key``, with
``loc-args`` in the order of the placeholders): the app's ``Localizable.strings`` holds the key with ``%1$@``,
``%2$@``, ... where the English has the placeholders. No catalogue is read here: this module loads wherever a
push is made, the rendering in a language is the push delivery's (services/push/push_delivery.py).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

ENGLISH = "en"
Value = str | Callable[[str], str]  # a string, or the string in a language (its tag)


@dataclass(frozen=True)
class PushWords:
    key: str  # the iOS loc-key: ``push.<what>``
    message: str  # the English sentence, the catalogues' msgid
    values: Mapping[str, Value] = field(default_factory=dict)

    def placeholders(self) -> list[str]:
        """The sentence's ``{placeholders}``, in order, each once: the order of ``loc-args``."""
        found = [name for _, name, _, _ in string.Formatter().parse(self.message) if name]
        return list(dict.fromkeys(found))

    def values_in(self, language: str) -> dict[str, str]:
        return {name: value(language) if callable(value) else value for name, value in self.values.items()}

    def english(self) -> str:
        return self.message.format(**self.values_in(ENGLISH))

    def args_in(self, language: str) -> list[str]:
        values = self.values_in(language)
        return [str(values[name]) for name in self.placeholders()]
