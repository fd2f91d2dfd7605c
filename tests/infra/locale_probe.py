"""What every catalogue language reads like, formatted by whichever Babel and chalicelib a Python finds first.

``formatted(path)`` runs the probe in a child Python with ``path`` ahead of everything else (``isolated``: with
nothing else, as Lambda has only the package) and returns, per language, its dates as a page and a text write
them, its own name, its writing direction and a sentence about a count in each plural form, with the Babel
the child loaded. tests/infra/test_babel_data.py and test_package.py compare a trimmed Babel with the full one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

_PROBE = """
import json
from datetime import UTC, datetime
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import babel
from chalicelib.languages import catalogues, choice, dates

start = datetime(2026, 12, 13, 4, 30, tzinfo=UTC)
timed = SimpleNamespace(event_date=start, is_time_specified=True, time_zone="Asia/Jerusalem", utc_offset_minutes=None)
whole_day = SimpleNamespace(event_date=start, is_time_specified=False, time_zone=None, utc_offset_minutes=-480)
read = {}
for tag in catalogues.available():
    said = catalogues.words(tag)
    read[tag] = [
        dates.long_when(timed, tag),
        dates.short_when(timed, tag),
        dates.long_when(whole_day, tag),
        dates.short_when(whole_day, tag, weekday=False),
        dates.posted(start, ZoneInfo("America/Sao_Paulo"), tag),
        choice.own_name(tag),
        choice.right_to_left(tag),
        *[said._n("{count} person going", "{count} people going", n) for n in (0, 1, 2, 3, 11, 100, 101)],
    ]
print(json.dumps({"babel": babel.__file__, "languages": read}))
"""


def formatted(first: list[Path], *, isolated: bool = False) -> dict:
    """The probe's answer from a Python whose path starts with ``first`` (with ``isolated``, holds only it)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(path) for path in first)}
    command = [sys.executable, *(["-S"] if isolated else []), "-c", _PROBE]
    done = subprocess.run(command, env=env, cwd=first[0], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
