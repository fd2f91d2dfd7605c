"""The catalogue of rate limits: the code builds its limits from it, and the docs are generated from it."""

from __future__ import annotations

import re
from pathlib import Path

from chalicelib import limits
from chalicelib.config import setting_types

ROOT = Path(__file__).resolve().parent.parent


def test_docs_rate_limits_is_the_catalogue_as_generated():
    written = (ROOT / "docs" / "rate-limits.md").read_text()
    assert written == limits.markdown(), "run: python -m chalicelib.limits > docs/rate-limits.md"


def test_every_limit_is_sized_by_a_setting_documented_in_configuration():
    configuration = (ROOT / "docs" / "configuration.md").read_text()
    fields = setting_types()
    for limit in limits.CATALOGUE:
        for setting in filter(None, [limit.setting, limit.window_setting]):
            assert setting in fields, limit.name
            assert f"`{setting.upper()}`" in configuration, setting


def test_limit_names_are_distinct_and_the_docs_have_every_one():
    names = [limit.name for limit in limits.CATALOGUE]
    assert len(set(names)) == len(names) == 14
    generated = (ROOT / "docs" / "rate-limits.md").read_text()
    assert all(f"| `{name}` |" in generated for name in names)


def test_no_limit_is_built_outside_the_catalogue():
    # a limit is Limit.of(<catalogue entry>, subject) or RollingLimit.of(...), never a free-form name
    inline = re.compile(r"\b(?:Rolling)?Limit\(\s*[\"']")
    for path in (ROOT / "chalicelib").rglob("*.py"):
        assert not inline.search(path.read_text()), path
