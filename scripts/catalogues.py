"""The guests' catalogues (chalicelib/languages/locales): gather the messages, add a language, compile.

Every message is written in English in the code, wrapped in ``words._`` or ``words._n``; this script reads
them (Babel's extractor) and keeps each language's ``guests.po`` in step, then compiles its ``guests.mo``.
The compiled files are committed, as ``chalicelib/openapi.json`` is: both deploy paths and ``make run`` use
the code as it is, with no build step to forget, and ``tests/languages/test_catalogues.py`` fails when a
``.mo`` is not the compiled ``.po`` or when a catalogue misses, leaves fuzzy or leaves untranslated a message.

    .venv/bin/python scripts/catalogues.py update      # new messages into every .po (empty), then compile
    .venv/bin/python scripts/catalogues.py add ko      # a new language: its .po with every message, to translate
    .venv/bin/python scripts/catalogues.py compile     # every .mo from its .po
"""

from __future__ import annotations

import io
import string
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "chalicelib"
LOCALES = SOURCES / "languages" / "locales"
DOMAIN = "guests"
KEYWORDS = {"_": None, "_n": (1, 2), "N_": None, "html": None, "_p": ((1, "c"), 2)}
PROJECT = "invites guest pages and texts"


def template() -> Catalog:
    """Every message of the code, with where it is used and the comment above it for translators."""
    catalog = Catalog(project=PROJECT, fuzzy=False)
    found = extract_from_dir(
        str(SOURCES), method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=("Translators:",)
    )
    for filename, lineno, message, comments, context in found:
        catalog.add(message, None, [(f"chalicelib/{filename}", lineno)], auto_comments=comments, context=context)
    return catalog


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a message (``{{`` is no field)."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def problems(catalog: Catalog, messages: Catalog) -> list[str]:
    """What keeps ``catalog`` from being complete for the code's ``messages``: a message missing, fuzzy or
    untranslated, one the code no longer has, or a translation whose ``{placeholders}`` differ from the English
    (a plural form may leave out ``{count}`` where its language names the number in words, "one", "two")."""
    found = []
    for message in messages:
        if not message.id:
            continue
        entry = catalog.get(message.id, message.context)
        if entry is None:
            found.append(f"missing: {message.id!r}")
            continue
        if entry.fuzzy:
            found.append(f"fuzzy: {message.id!r}")
        forms = [entry.string] if isinstance(entry.string, str) else list(entry.string)
        if not all(forms):
            found.append(f"untranslated: {message.id!r}")
            continue
        english = [message.id] if isinstance(message.id, str) else list(message.id)
        wanted = set().union(*(placeholders(text) for text in english))
        given = [placeholders(text) for text in forms]
        if len(english) == 1 and any(fields != wanted for fields in given):
            found.append(f"placeholders differ: {message.id!r}")
        elif len(english) > 1 and (set().union(*given) != wanted or any(not fields <= wanted for fields in given)):
            found.append(f"placeholders differ: {message.id!r}")
    code = {message.id if isinstance(message.id, str) else message.id[0] for message in messages if message.id}
    for entry in catalog:
        key = entry.id if isinstance(entry.id, str) else entry.id[0]
        if entry.id and key not in code:
            found.append(f"not in the code: {entry.id!r}")
    return found


def po_paths() -> list[Path]:
    return sorted(LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def read(path: Path) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=path.parent.parent.name)


def po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=120, omit_header=False, sort_output=False, ignore_obsolete=True)
    return out.getvalue()


def mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def compile_all() -> None:
    for path in po_paths():
        path.with_suffix(".mo").write_bytes(mo_bytes(read(path)))


def update() -> None:
    messages = template()
    for path in po_paths():
        catalog = read(path)
        catalog.update(messages, no_fuzzy_matching=True)
        path.write_bytes(po_bytes(catalog))
    compile_all()


def add(locale: str) -> None:
    path = LOCALES / locale / "LC_MESSAGES" / f"{DOMAIN}.po"
    if path.exists():
        raise SystemExit(f"{path} exists")
    catalog = Catalog(locale=locale, project=PROJECT, fuzzy=False)
    catalog.update(template(), no_fuzzy_matching=True)
    path.parent.mkdir(parents=True)
    path.write_bytes(po_bytes(catalog))


def main(argv: list[str]) -> int:
    if argv[:1] == ["update"]:
        update()
    elif argv[:1] == ["compile"]:
        compile_all()
    elif argv[:1] == ["add"] and len(argv) == 2:
        add(argv[1])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
