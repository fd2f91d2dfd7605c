"""The stage switch ``snapstart`` (infra/stages.json) on the CloudFormation path: the API function publishes a
version with SnapStart behind an alias, and API Gateway invokes and may invoke that alias, not $LATEST."""

from __future__ import annotations

import json

import pytest

from tests.infra.scripts import load

cli, pipeline = load("chalice_cli"), load("pipeline")


def _stages() -> dict:
    return json.loads(pipeline.STAGES_FILE.read_text())


def test_every_deployed_stage_has_the_switch_and_it_is_off_until_turned_on():
    for stage in cli.DEPLOYED_STAGES:
        assert _stages()[stage]["snapstart"] is False
        resources = pipeline.merge_template(stage, _stages()[stage])["Resources"]
        assert "SnapStart" not in resources.get("APIHandler", {}).get("Properties", {})
        assert "APIHandlerInvokePermission" not in resources


@pytest.mark.parametrize("stage", ["dev", "prod"])
def test_switched_on_the_api_function_publishes_a_snapstart_version_behind_an_alias(stage):
    resources = pipeline.merge_template(stage, {**_stages()[stage], "snapstart": True})["Resources"]
    handler = resources["APIHandler"]["Properties"]
    assert handler["SnapStart"] == {"ApplyOn": "PublishedVersions"}
    assert handler["AutoPublishAlias"] == "live"
    assert handler["FunctionName"] == f"invites-{stage}"  # the other merge settings stay
    assert resources["APIHandlerInvokePermission"]["Properties"]["FunctionName"] == {"Ref": "APIHandler.Alias"}


def test_switched_on_the_api_definition_invokes_the_alias(monkeypatch):
    from chalice.deploy import swagger

    monkeypatch.setattr(swagger.CFNSwaggerGenerator, "_uri", swagger.CFNSwaggerGenerator._uri)  # restored after
    assert "${APIHandler.Arn}" in swagger.CFNSwaggerGenerator()._uri()["Fn::Sub"]
    cli._install_snapstart_integration({"snapstart": False})
    assert "${APIHandler.Arn}" in swagger.CFNSwaggerGenerator()._uri()["Fn::Sub"]
    cli._install_snapstart_integration({"snapstart": True})
    assert "${APIHandler.Alias}/invocations" in swagger.CFNSwaggerGenerator()._uri()["Fn::Sub"]
