import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from chalicelib.lazy import lazy_import

PROBE = """
import sys
from concurrent.futures import ThreadPoolExecutor
from chalicelib.lazy import lazy_import
colorsys = lazy_import("colorsys")
assert "colorsys" not in sys.modules
with ThreadPoolExecutor(8) as pool:
    found = set(pool.map(lambda _: colorsys.rgb_to_hsv is not None, range(64)))
assert found == {True} and "colorsys" in sys.modules
"""


def test_the_module_loads_on_first_use_once_even_from_many_threads():
    subprocess.run([sys.executable, "-c", PROBE], check=True)


def test_reads_go_to_the_real_module_so_patches_show(monkeypatch):
    import chalicelib.timeutil as real

    lazy = lazy_import("chalicelib.timeutil")
    monkeypatch.setattr(real, "utcnow", lambda: "patched")
    assert lazy.utcnow() == "patched"
    with ThreadPoolExecutor(4) as pool:
        assert set(pool.map(lambda _: lazy.format_datetime is real.format_datetime, range(8))) == {True}


def test_an_unknown_module_fails_at_once():
    with pytest.raises(ModuleNotFoundError):
        lazy_import("chalicelib.no_such_module")
