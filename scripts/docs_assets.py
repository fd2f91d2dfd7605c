"""Put the Swagger UI files that GET /docs serves into chalicelib/static/swagger-ui/.

The files are vendored, unchanged and with their licence files, in third_party/swagger-ui/ (the
swagger-ui-dist package of the npm registry); every make target copies them from there after checking
them against SHA256SUMS, so nothing is downloaded and no Node is needed. The copy under chalicelib/ is
git-ignored: it exists because the Lambda package ships chalicelib/ and app.py only.

    python scripts/docs_assets.py                   # check and copy (what make runs)
    python scripts/docs_assets.py --update 5.36.0   # a maintainer's upgrade: npm pack, then rewrite third_party/
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

PACKAGE = "swagger-ui-dist"
FILES = ("swagger-ui-bundle.js", "swagger-ui.css", "LICENSE", "NOTICE", "swagger-ui-bundle.js.LICENSE.txt")
ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "third_party" / "swagger-ui"
TARGET = ROOT / "chalicelib" / "static" / "swagger-ui"


class Broken(Exception):
    """The vendored files are missing or differ from SHA256SUMS."""


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def expected_sums() -> dict[str, str]:
    sums = {}
    for line in (SOURCE / "SHA256SUMS").read_text().splitlines():
        digest, name = line.split()
        sums[name] = digest
    return sums


def check_source() -> None:
    sums = expected_sums()
    if sorted(sums) != sorted(FILES):
        raise Broken(f"{SOURCE / 'SHA256SUMS'} must list exactly {', '.join(sorted(FILES))}")
    for name, digest in sums.items():
        path = SOURCE / name
        if not path.is_file():
            raise Broken(f"{path} is missing")
        if sha256(path) != digest:
            raise Broken(f"{path} differs from SHA256SUMS")


def up_to_date() -> bool:
    stamp = TARGET / "VERSION"
    return (
        stamp.is_file()
        and stamp.read_text() == (SOURCE / "VERSION").read_text()
        and all((TARGET / name).is_file() and sha256(TARGET / name) == sha256(SOURCE / name) for name in FILES)
    )


def copy() -> None:
    check_source()
    if up_to_date():
        (TARGET / "VERSION").touch()  # newer than its sources, for make
        return
    TARGET.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        shutil.copyfile(SOURCE / name, TARGET / name)
    shutil.copyfile(SOURCE / "VERSION", TARGET / "VERSION")  # last: it marks a complete copy


def update(version: str) -> None:
    """Replace the vendored files by those of another release (needs npm; `npm pack` checks the tarball's hash)."""
    npm = shutil.which("npm")
    if npm is None:
        raise Broken("--update needs npm (Node.js); running the service never does")
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(
            [npm, "pack", f"{PACKAGE}@{version}", "--pack-destination", work, "--silent"],
            check=True,
            stdout=subprocess.DEVNULL,
            cwd=work,
        )
        [tarball] = Path(work).glob("*.tgz")
        with tarfile.open(tarball) as archive:
            for name in FILES:
                (SOURCE / name).write_bytes(archive.extractfile(f"package/{name}").read())
    (SOURCE / "SHA256SUMS").write_text("".join(f"{sha256(SOURCE / name)}  {name}\n" for name in sorted(FILES)))
    (SOURCE / "VERSION").write_text(f"{PACKAGE} {version} from the npm registry, files unchanged: {', '.join(FILES)}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", metavar="VERSION", help=f"vendor another release of {PACKAGE} (needs npm)")
    args = parser.parse_args(argv)
    try:
        if args.update:
            update(args.update)
        copy()
    except Broken as problem:
        print(f"docs_assets: {problem}", file=sys.stderr)
        return 1
    version = (SOURCE / "VERSION").read_text().split(" from ")[0]
    print(f"docs_assets: {version} in {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
