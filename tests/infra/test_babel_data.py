"""Babel's locale data cut to the catalogue languages (scripts/babel_data.py): each still reads the same."""

from __future__ import annotations

import zipfile
from pathlib import Path

import babel

from tests.infra.locale_probe import formatted
from tests.infra.scripts import load
from tests.infra.test_package import BABEL_LOCALES

ROOT = Path(__file__).resolve().parents[2]
BABEL = Path(babel.__file__).parent


def _package_like(path: Path) -> Path:
    """A zip holding, as the deployment package does, Babel as installed, the catalogues and a module of the app."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for file in sorted(BABEL.rglob("*")):
            if file.is_file() and "__pycache__" not in file.parts:
                archive.write(file, f"babel/{file.relative_to(BABEL).as_posix()}")
        for file in sorted((ROOT / "chalicelib" / "languages" / "locales").rglob("*.mo")):
            archive.write(file, file.relative_to(ROOT).as_posix())
        archive.writestr("chalicelib/config.py", "")
    return path


def test_the_catalogue_languages_are_read_from_the_catalogues_with_english_first():
    babel_data = load("babel_data")
    assert babel_data.project_locales(ROOT) == ["ar", "de", "es", "fr", "he", "it", "pt_BR"]
    names = [f"chalicelib/languages/locales/{locale}/LC_MESSAGES/guests.mo" for locale in ("pt_BR", "he")]
    assert babel_data.catalogue_tags([*names, "chalicelib/languages/locales/fr/LC_MESSAGES/guests.po"]) == [
        "en",
        "he",
        "pt-BR",
    ]


def test_trimming_keeps_what_the_languages_need_and_each_reads_as_with_all_of_babel(tmp_path):
    babel_data = load("babel_data")
    zip_path = _package_like(tmp_path / "deployment.zip")
    before = zipfile.ZipFile(zip_path).namelist()

    dropped = babel_data.trim(zip_path)

    after = zipfile.ZipFile(zip_path).namelist()
    locale_files = {name.removeprefix("babel/locale-data/") for name in after if name.startswith("babel/locale-data/")}
    assert locale_files == {f"{locale}.dat" for locale in BABEL_LOCALES} | {"LICENSE.unicode"}
    assert dropped == len(before) - len(after) > 1000
    assert {name for name in before if not name.startswith("babel/locale-data/")} <= set(after)
    assert babel_data.trim(zip_path) == 0  # trimmed once is trimmed

    unpacked = tmp_path / "unpacked"
    zipfile.ZipFile(zip_path).extractall(unpacked, [name for name in after if name.startswith("babel/")])
    trimmed = formatted([unpacked, ROOT])
    whole = formatted([ROOT])
    assert trimmed["babel"].startswith(str(unpacked)) and not whole["babel"].startswith(str(unpacked))
    assert trimmed["languages"] == whole["languages"]
    assert set(trimmed["languages"]) == {"en", "ar", "de", "es", "fr", "he", "it", "pt-BR"}
    # what a guest reads: Hebrew's own dates and direction, Brazil's name (pt_BR over pt), Arabic's plural forms
    hebrew = trimmed["languages"]["he"]
    assert [hebrew[0], hebrew[5], hebrew[6]] == ["יום ראשון, 13 בדצמבר 2026, 6:30 IST", "עברית", True]
    assert trimmed["languages"]["pt-BR"][5] == "Português (Brasil)"
    assert trimmed["languages"]["ar"][7:10] == ["لا أحد سيحضر", "شخص واحد سيحضر", "شخصان سيحضران"]
