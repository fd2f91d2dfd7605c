"""The botocore data the deployment package carries: ``python scripts/botocore_data.py TARGET`` writes it.

A cold start's first client spends tens of milliseconds reading botocore's data files from the runtime's copy:
``endpoints.json`` (about 1.2 MB, every service of every partition), the service's model (gzip-compressed JSON
whose documentation strings are four fifths of it), its endpoint rules, and a scan of every service directory
(about 450) to check that the service exists. The package therefore carries, under ``botocore_data/`` at the
zip's root, a copy of that data for the services the functions use (``chalicelib.aws.CLIENT_LIMITS``) only:

- ``endpoints.json`` with every partition and region but only those services;
- for each service, its latest API version's ``service-2`` (documentation strings dropped: botocore reads them
  only to write docstrings), its ``endpoint-rule-set-1`` and any ``service-2.sdk-extras``, as plain JSON;
- ``partitions.json``, ``_retry.json`` and ``sdk-default-configuration.json`` as they are.

``chalicelib/aws.py`` puts that directory ahead of botocore's own (the runtime's copy stays the fallback for
anything absent, and a newer API version there still wins). The data is taken from the botocore of the
environment that packages; the runtime's botocore may be older (``infra/sdk-floor.txt``), so the package
check (scripts/package_check.py) refuses endpoint rules that call a function outside the rule library every
botocore since the floor has (``RULE_FUNCTIONS``).
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DIRECTORY = "botocore_data"  # at the package's root, beside chalicelib/
ROOT_FILES = ("endpoints", "partitions", "_retry", "sdk-default-configuration")
SERVICE_FILES = ("service-2", "service-2.sdk-extras", "endpoint-rule-set-1")
# The endpoint rules' standard library of the floor's botocore (1.38, botocore/endpoint_provider.py).
RULE_FUNCTIONS = frozenset(
    {
        "isSet",
        "not",
        "getAttr",
        "aws.partition",
        "aws.parseArn",
        "isValidHostLabel",
        "stringEquals",
        "booleanEquals",
        "uriEncode",
        "parseURL",
        "substring",
        "aws.isVirtualHostableS3Bucket",
    }
)
# Keys botocore reads only for docstrings and help texts.
DOCUMENTATION_KEYS = frozenset({"documentation", "documentationUrl"})


def packaged_services() -> tuple[str, ...]:
    from chalicelib.aws import CLIENT_LIMITS

    return tuple(sorted(CLIENT_LIMITS))


def _read(path_without_extension: Path):
    for suffix, opener in ((".json", open), (".json.gz", gzip.open)):
        path = path_without_extension.with_name(path_without_extension.name + suffix)
        if path.is_file():
            with opener(path, "rb") as source:
                return json.loads(source.read().decode("utf-8"))
    return None


def _documentation_dropped(value):
    if isinstance(value, dict):
        return {key: _documentation_dropped(item) for key, item in value.items() if key not in DOCUMENTATION_KEYS}
    if isinstance(value, list):
        return [_documentation_dropped(item) for item in value]
    return value


def _without_documentation(model: dict) -> dict:
    """The service model without its documentation, dropped only where the model's grammar puts it (a shape's
    member may itself be named ``documentation``)."""

    def shape(definition: dict) -> dict:
        trimmed = {key: value for key, value in definition.items() if key not in DOCUMENTATION_KEYS}
        if isinstance(trimmed.get("members"), dict):
            trimmed["members"] = {name: _documentation_dropped(m) for name, m in trimmed["members"].items()}
        for key in ("member", "key", "value"):
            if isinstance(trimmed.get(key), dict):
                trimmed[key] = _documentation_dropped(trimmed[key])
        return trimmed

    trimmed = {key: value for key, value in model.items() if key not in DOCUMENTATION_KEYS}
    trimmed["operations"] = {name: _documentation_dropped(op) for name, op in model.get("operations", {}).items()}
    trimmed["shapes"] = {name: shape(definition) for name, definition in model.get("shapes", {}).items()}
    return trimmed


def _write(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")


def build(target: Path, services: tuple[str, ...] | None = None) -> list[Path]:
    """Write the trimmed data under ``target`` (the ``botocore_data`` directory); returns the files written."""
    import botocore

    source = Path(botocore.__file__).resolve().parent / "data"
    services = services or packaged_services()
    written = []
    for name in ROOT_FILES:
        data = _read(source / name)
        if name == "endpoints":
            data = {
                **data,
                "partitions": [
                    {**partition, "services": {s: v for s, v in partition["services"].items() if s in services}}
                    for partition in data["partitions"]
                ],
            }
        written.append(target / f"{name}.json")
        _write(written[-1], data)
    for service in services:
        version = max(d.name for d in (source / service).iterdir() if d.is_dir() and _read(d / "service-2") is not None)
        for name in SERVICE_FILES:
            data = _read(source / service / version / name)
            if data is None:
                continue
            if name == "service-2":
                data = _without_documentation(data)
            written.append(target / service / version / f"{name}.json")
            _write(written[-1], data)
    return written


def rule_functions(rules) -> set[str]:
    """Every function an endpoint rule set calls."""
    found = set()
    if isinstance(rules, dict):
        if isinstance(rules.get("fn"), str):
            found.add(rules["fn"])
        for value in rules.values():
            found |= rule_functions(value)
    elif isinstance(rules, list):
        for value in rules:
            found |= rule_functions(value)
    return found


if __name__ == "__main__":
    for path in build(Path(sys.argv[1]) / DIRECTORY):
        print(path)
