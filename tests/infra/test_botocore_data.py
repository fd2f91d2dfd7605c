"""The trimmed botocore data of the package (scripts/botocore_data.py) and its check in scripts/package_check.py."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from chalicelib import aws
from tests.infra.scripts import ROOT, load

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


# Run by the floor's botocore: the packaged data (made from this environment's newer botocore) against the
# floor's own data, client by client and region by region.
_FLOOR_READS = """
import json, sys
import botocore
from botocore.session import get_session
from botocore.stub import Stubber
from chalicelib import aws
packaged = get_session()
packaged.register_component("data_loader", aws.packaged_first_loader(sys.argv[1]))
own, seen = get_session(), []
keys = {"aws_access_key_id": "a", "aws_secret_access_key": "b"}
for region in ("us-east-1", "eu-west-1", "ap-southeast-2"):
    for service in sorted(aws.CLIENT_LIMITS):
        a = packaged.create_client(service, region_name=region, config=aws.client_config(service), **keys)
        b = own.create_client(service, region_name=region, config=aws.client_config(service), **keys)
        seen.append([service, region, a.meta.endpoint_url, b.meta.endpoint_url])
urls = [
    session.create_client("s3", region_name="eu-west-1", config=aws.client_config("s3"), **keys)
    .generate_presigned_url("get_object", Params={"Bucket": "b", "Key": "k"}).split("?")[0]
    for session in (packaged, own)
]
dynamodb = packaged.create_client("dynamodb", region_name="us-east-1", config=aws.client_config("dynamodb"), **keys)
with Stubber(dynamodb) as stub:
    stub.add_response("query", {"Items": [], "Count": 0, "ScannedCount": 0})
    dynamodb.query(TableName="t", KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "x"}})
print(json.dumps({"botocore": botocore.__version__, "endpoints": seen, "presigned": urls}))
"""


def test_the_floors_botocore_reads_data_packaged_from_a_newer_one(tmp_path):
    import subprocess
    import sys

    import botocore

    floor = load("sdk_floor")
    if floor.installed().get("botocore") != floor.pins()["botocore"]:
        pytest.skip("the floor's botocore is not in build/sdk-floor (scripts/sdk_floor.py installs it)")
    if botocore.__version__ == floor.pins()["botocore"]:
        pytest.skip("this run is on the floor's botocore itself: the data is the floor's own")
    built = tmp_path / botocore_data.DIRECTORY
    botocore_data.build(built)  # from this environment's botocore
    env = {"PYTHONPATH": f"{floor.TARGET}:{ROOT}", "PATH": "/usr/bin:/bin", "AWS_DEFAULT_REGION": "us-east-1"}
    done = subprocess.run(
        [sys.executable, "-c", _FLOOR_READS, str(built)], env=env, capture_output=True, text=True, check=True
    )
    report = json.loads(done.stdout)
    assert report["botocore"] == floor.pins()["botocore"] != botocore.__version__
    for service, region, packaged, own in report["endpoints"]:
        assert packaged == own, (service, region)
    packaged_url, own_url = report["presigned"]
    assert packaged_url == own_url and "b" in packaged_url


def test_the_packager_replaces_the_data_of_a_cached_zip_and_keeps_the_rest(tmp_path):
    chalice_cli = load("chalice_cli")
    zip_path = tmp_path / "deployment.zip"
    with zipfile.ZipFile(zip_path, "w") as archive:
        archive.writestr("app.py", "APP = 1\n")
        archive.writestr(f"{botocore_data.DIRECTORY}/endpoints.json", '{"stale": true}')
        archive.writestr(f"{botocore_data.DIRECTORY}/ec2/2016-11-15/service-2.json", "{}")
    written = chalice_cli.add_botocore_data(zip_path)
    with zipfile.ZipFile(zip_path) as archive:
        names = archive.namelist()
        assert archive.read("app.py") == b"APP = 1\n"
        assert "stale" not in json.loads(archive.read(f"{botocore_data.DIRECTORY}/endpoints.json"))
        assert not any("/ec2/" in name for name in names)
        assert len([n for n in names if n.startswith(f"{botocore_data.DIRECTORY}/")]) == written
        assert package_check.botocore_data_problems(archive) == []
