"""Peak memory (RSS) of the API function's process on its heaviest path: ``python scripts/memory_peaks.py``.

Each figure is a fresh CPython process (peak RSS, ``VmHWM``, in MiB): the app imported as Lambda imports it, then a
12 MP (4000x3000) avatar processed to both sizes by the upload's own code (``process_image`` with the stage's
limits; the S3 write that follows holds only the two small outputs). The 500-number invite and a heavy user's
export and deletion need the emulator in the same process, whose own memory would swamp the figure: they are
not measured here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_CHILD = """
import json, sys
from pathlib import Path

def peak_mib():
    # VmHWM, the process's peak RSS: unlike ru_maxrss it starts afresh at exec, not at the parent's peak
    status = Path("/proc/self/status").read_text()
    return round(int(status.split("VmHWM:")[1].split()[0]) / 1024, 1)

started = peak_mib()
import app  # noqa: F401
after_import = peak_mib()
from chalicelib.config import get_settings
from chalicelib.services.images import process_image
data = Path(sys.argv[1]).read_bytes()
process_image(data, field="photo", max_bytes=len(data) + 1, max_pixels=get_settings().avatar_max_pixels)
print(json.dumps({"interpreter": started, "app_imported": after_import, "after_12mp_avatar": peak_mib()}))
"""


def memory_peaks() -> dict:
    """Peak RSS in MiB of a fresh process at each step, and the avatar's share."""
    import io
    import tempfile

    sys.path.insert(0, str(ROOT))
    from scripts.bench import photo_like
    from tests.utils.aws_env import TEST_ENVIRONMENT

    out = io.BytesIO()
    photo_like((4000, 3000)).save(out, "JPEG", quality=90)
    with tempfile.NamedTemporaryFile(suffix=".jpg") as image:
        image.write(out.getvalue())
        image.flush()
        env = {**os.environ, **TEST_ENVIRONMENT}
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, image.name], cwd=ROOT, env=env, capture_output=True, text=True, check=True
        )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    figures["avatar_image_bytes"] = len(out.getvalue())
    return figures


if __name__ == "__main__":
    print(json.dumps(memory_peaks(), indent=2))
