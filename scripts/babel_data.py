"""Babel's locale data in the deployment package, cut to the languages the package has catalogues for.

Babel ships CLDR data for every locale (``babel/locale-data/``, about 1,080 files, 30 MB unpacked and most of
the zip's growth when it came with the guests' languages); the service reads it only for the languages of its
catalogues (``chalicelib/languages/locales/<locale>/LC_MESSAGES/guests.mo``, and English): their dates, names
and writing direction (chalicelib/languages/dates.py, choice.py). ``trim(zip)`` keeps, of ``locale-data``,
exactly the files Babel opens or finds for those languages: each language's own file and every file it
inherits from (``pt_BR`` -> ``pt`` -> ``root``), as the zip's own Babel resolves them, run here from the zip
with nothing else on its path. A language added to the catalogues keeps its data in the next package with
no edit here. tests/infra/test_package.py formats every catalogue language from the unpacked package.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

LOCALE_DATA = "babel/locale-data/"
CATALOGUES = "chalicelib/languages/locales/"
CATALOGUE_FILE = "/LC_MESSAGES/guests.mo"
ENGLISH = "en"  # the code's own words: it has no catalogue, and its names and direction come from Babel too

# Run by the zip's own Babel: every locale-data file Babel looks for and finds while it parses each language
# and loads its data (with all it inherits).
_RESOLVE = """
import json, os, sys
from babel import Locale, localedata
found = set()
resolve = localedata.resolve_locale_filename
def recording(name):
    path = resolve(name)
    if os.path.exists(path):
        found.add(os.path.basename(path))
    return path
localedata.resolve_locale_filename = recording
for tag in json.loads(sys.argv[1]):
    localedata.load(str(Locale.parse(tag, sep="-")))
print(json.dumps(sorted(found)))
"""


def catalogue_tags(names: list[str]) -> list[str]:
    """The language tags of the catalogues among a zip's ``names``, English first: ``["en", "ar", "pt-BR"]``."""
    found = {
        name[len(CATALOGUES) : -len(CATALOGUE_FILE)].replace("_", "-")
        for name in names
        if name.startswith(CATALOGUES) and name.endswith(CATALOGUE_FILE)
    }
    return [ENGLISH, *sorted(found - {ENGLISH})]


def project_locales(project_dir: str | Path) -> list[str]:
    """The catalogues' locales of a project's source tree (``["ar", "de", ..., "pt_BR"]``)."""
    locales = Path(project_dir) / CATALOGUES
    return sorted(path.parent.parent.name for path in locales.glob(f"*{CATALOGUE_FILE}"))


def needed_files(archive: zipfile.ZipFile, tags: list[str]) -> set[str]:
    """The ``locale-data`` files the zip's Babel needs for ``tags``, by its own rules of inheritance."""
    with tempfile.TemporaryDirectory() as scratch:
        archive.extractall(scratch, [name for name in archive.namelist() if name.startswith("babel/")])
        command = [sys.executable, "-S", "-c", _RESOLVE, json.dumps(tags)]
        done = subprocess.run(command, cwd=scratch, capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"Babel of the package could not load {tags}:\n{done.stderr}")
    return set(json.loads(done.stdout))


def trim(zip_path: str | Path) -> int:
    """Drop from the zip every ``locale-data`` file its catalogue languages do not need; returns how many went
    (0 for a zip without Babel, or trimmed already)."""
    zip_path = Path(zip_path)
    with zipfile.ZipFile(zip_path) as archive:
        names = archive.namelist()
        data = [name for name in names if name.startswith(LOCALE_DATA) and name.endswith(".dat")]
        if not data:
            return 0
        kept = needed_files(archive, catalogue_tags(names))
        dropped = {name for name in data if name[len(LOCALE_DATA) :] not in kept}
        if not dropped:
            return 0
        rebuilt = zip_path.with_suffix(".babel.zip")
        with zipfile.ZipFile(rebuilt, "w", zipfile.ZIP_DEFLATED) as out:
            for info in archive.infolist():
                if info.filename not in dropped:
                    out.writestr(info, archive.read(info.filename))
    shutil.move(rebuilt, zip_path)
    return len(dropped)
