"""Make .venv for the Makefile (run by the interpreter it is for, once the Makefile has checked its version).

The venv is made without pip, which saves the slowest step of `python -m venv` (ensurepip installs and
compiles pip). uv is put into it by the calling interpreter's own pip, and then installs the pip wheel
that this Python bundles (the same pip `python -m venv` would give, without compiling it). When any of
that fails, or with --no-uv, the venv gets its pip from ensurepip and the Makefile installs with pip.
A venv that cannot be made is removed whole, so no half-built .venv is left behind.

    python scripts/make_venv.py .venv --uv 0.13.9
    python scripts/make_venv.py .venv --no-uv
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import venv
from pathlib import Path

QUIET = ["--quiet", "--disable-pip-version-check"]


def bundled_pip_wheel() -> Path | None:
    import ensurepip

    return next((Path(ensurepip.__file__).parent / "_bundled").glob("pip-*.whl"), None)


def add_uv(python: Path, version: str) -> bool:
    """uv into the venv, then the bundled pip through uv; False (and no uv left) when either fails."""
    uv = python.parent / "uv"
    wheel = bundled_pip_wheel()
    try:
        subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", *QUIET, f"uv=={version}"],
                       check=True, stderr=subprocess.DEVNULL)
        pip = str(wheel) if wheel else "pip"
        subprocess.run([str(uv), "pip", "install", "--python", str(python), "--quiet", pip], check=True)
    except (OSError, subprocess.CalledProcessError):
        for name in ("uv", "uvx"):
            (python.parent / name).unlink(missing_ok=True)
        return False
    return True


def make(path: Path, uv_version: str | None) -> None:
    venv.create(path, with_pip=False)
    python = path / "bin" / "python"
    if uv_version and add_uv(python, uv_version):
        return
    if uv_version:
        print("make_venv: uv could not be installed; pip installs the packages", file=sys.stderr)
    subprocess.run([str(python), "-m", "ensurepip", "--default-pip"], check=True, stdout=subprocess.DEVNULL)


def remove(path: Path) -> None:
    """A symlinked venv loses its link only, never the venv it points to."""
    if path.is_symlink():
        path.unlink()
    else:
        shutil.rmtree(path, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    choice = parser.add_mutually_exclusive_group(required=True)
    choice.add_argument("--uv", metavar="VERSION", help="install with this uv, pip as the fallback")
    choice.add_argument("--no-uv", action="store_true", help="plain pip")
    args = parser.parse_args(argv)
    remove(args.path)
    try:
        make(args.path, None if args.no_uv else args.uv)
    except (OSError, subprocess.CalledProcessError) as problem:
        remove(args.path)
        print(f"make_venv: could not make {args.path}: {problem}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
