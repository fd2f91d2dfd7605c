"""Fetch the Swagger UI files that GET /docs serves, from the npm registry, into chalicelib/static/swagger-ui/.

Run by the Makefile's install step (so `make run`, `make test` and `chalice package` all find them); the
files are not kept in the repository. ``npm pack`` checks the registry's integrity hash of the tarball.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

PACKAGE = "swagger-ui-dist"
VERSION = "5.35.0"
FILES = ("swagger-ui-bundle.js", "swagger-ui.css", "LICENSE", "NOTICE", "swagger-ui-bundle.js.LICENSE.txt")
TARGET = Path(__file__).resolve().parent.parent / "chalicelib" / "static" / "swagger-ui"


def installed() -> bool:
    stamp = TARGET / "VERSION"
    return (
        stamp.exists()
        and stamp.read_text().startswith(f"{PACKAGE} {VERSION}")
        and all((TARGET / name).exists() for name in FILES)
    )


def fetch() -> None:
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("docs_assets: npm is needed to fetch swagger-ui-dist (install Node.js)")
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(
            [npm, "pack", f"{PACKAGE}@{VERSION}", "--pack-destination", work, "--silent"],
            check=True,
            stdout=subprocess.DEVNULL,
            cwd=work,
        )
        [tarball] = Path(work).glob("*.tgz")
        TARGET.mkdir(parents=True, exist_ok=True)
        with tarfile.open(tarball) as archive:
            for name in FILES:
                source = archive.extractfile(f"package/{name}")
                (TARGET / name).write_bytes(source.read())
    (TARGET / "VERSION").write_text(f"{PACKAGE} {VERSION} from the npm registry, files unchanged: {', '.join(FILES)}\n")


if __name__ == "__main__":
    if installed():
        (TARGET / "VERSION").touch()  # up to date for make
    else:
        fetch()
    print(f"docs_assets: {PACKAGE} {VERSION} in {TARGET.relative_to(TARGET.parents[2])}")
