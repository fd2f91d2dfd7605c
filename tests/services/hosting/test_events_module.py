"""What loading the hosting service's events module costs a cold start: an edit or a create never imports the
album's code, which only a cancel of an event with photos runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_the_events_service_loads_no_album_code():
    probe = (
        "import json, sys; import chalicelib.services.hosting.events; "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('chalicelib.services.the_day', "
        "'chalicelib.store.photos')))))"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []
