"""The trimmed botocore data of the package (scripts/botocore_data.py) and its check in scripts/package_check.py."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from chalicelib import aws
from tests.infra.scripts import load

botocore_data, package_check = load("botocore_data"), load("package_check")


def _zip_of(directory: Path, path: Path) -> zipfile.ZipFile:
    with zipfile.ZipFile(path, "w") as archive:
        for file in sorted(directory.rglob("*.json")):
            archive.write(file, file.relative_to(directory.parent).as_posix())
    return zipfile.ZipFile(path)


def test_only_the_functions_services_are_carried_and_the_endpoints_keep_every_region(tmp_path):
    import botocore

    built = tmp_path / botocore_data.DIRECTORY
    botocore_data.build(built)
    assert sorted(p.name for p in built.iterdir() if p.is_dir()) == sorted(aws.CLIENT_LIMITS)
    trimmed = json.loads((built / "endpoints.json").read_text())
    full = json.loads((Path(botocore.__file__).parent / "data" / "endpoints.json").read_text())
    assert [p["regions"] for p in trimmed["partitions"]] == [p["regions"] for p in full["partitions"]]
    for kept, whole in zip(trimmed["partitions"], full["partitions"], strict=True):
        assert kept["services"] == {
            name: whole["services"][name] for name in aws.CLIENT_LIMITS if name in whole["services"]
        }
    assert (built / "endpoints.json").stat().st_size < 100_000  # botocore's own is about 1.2 MB


def test_the_package_check_refuses_missing_data_and_rules_an_older_botocore_cannot_run(tmp_path):
    built = tmp_path / botocore_data.DIRECTORY
    botocore_data.build(built)
    assert package_check.botocore_data_problems(_zip_of(built, tmp_path / "whole.zip")) == []

    rules = next((built / "dynamodb").glob("*/endpoint-rule-set-1.json"))
    data = json.loads(rules.read_text())
    data["rules"].insert(0, {"conditions": [{"fn": "coalesce", "argv": []}], "type": "error", "error": "x"})
    rules.write_text(json.dumps(data))
    next((built / "sqs").glob("*/service-2.json")).unlink()
    problems = package_check.botocore_data_problems(_zip_of(built, tmp_path / "broken.zip"))
    assert len(problems) == 2, problems
    assert "calls ['coalesce']" in problems[0] and "no service-2 of sqs" in problems[1]
