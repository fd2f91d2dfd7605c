"""Build ``chalicelib/openapi.json``, the copy of ``openapi.yaml`` the Lambda bundle serves.

The YAML at the repository root is the source; the JSON is checked in so the bundle needs no YAML
parser (PyYAML is a dev dependency only). ``tests/contract`` fails when the two differ.

    .venv/bin/python scripts/build_openapi.py           # rewrite chalicelib/openapi.json
    .venv/bin/python scripts/build_openapi.py --check   # exit 1 when it is out of date

The docs page's Swagger UI files (chalicelib/static/swagger-ui/) are copied from third_party/swagger-ui/ by
scripts/docs_assets.py, which every make target runs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "openapi.yaml"
TARGET = ROOT / "chalicelib" / "openapi.json"


def load_source(path: Path = SOURCE) -> dict:
    import yaml

    return yaml.safe_load(path.read_text(encoding="utf-8"))


def render(document: dict) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    text = render(load_source())
    if "--check" in argv:
        if not TARGET.exists() or TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET.relative_to(ROOT)} is out of date: run scripts/build_openapi.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)} ({len(text.encode()):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
