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
    assert "/functions/${APIHandlerAliaslive}/invocations" in swagger.CFNSwaggerGenerator()._uri()["Fn::Sub"]


def test_the_switched_on_template_lints_clean(tmp_path, monkeypatch):
    """The API function, its API (the app's own definition with the alias integration) and the invoke
    permission, merged as ``chalice package --merge-template`` merges them, through cfn-lint's SAM transform:
    ``AutoPublishAlias``, ``SnapStart`` and ``APIHandler.Alias`` must be what CloudFormation accepts."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    from chalice.deploy import swagger

    cfn_lint = Path(sys.executable).parent / "cfn-lint"
    if not cfn_lint.exists() and shutil.which("cfn-lint") is None:
        pytest.skip("cfn-lint is not installed")
    monkeypatch.setattr(swagger.CFNSwaggerGenerator, "_uri", swagger.CFNSwaggerGenerator._uri)  # restored after
    cli._install_snapstart_integration({"snapstart": True})
    from app import app

    definition = swagger.CFNSwaggerGenerator().generate_swagger(app)
    template = {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Transform": "AWS::Serverless-2016-10-31",
        "Resources": {
            "APIHandler": {
                "Type": "AWS::Serverless::Function",
                "Properties": {
                    "Runtime": "python3.12",
                    "Handler": "app.app",
                    "CodeUri": "./deployment.zip",
                    "MemorySize": 1024,
                },
            },
            "RestAPI": {
                "Type": "AWS::Serverless::Api",
                "Properties": {"StageName": "api", "DefinitionBody": definition, "EndpointConfiguration": "EDGE"},
            },
        },
    }
    merge = pipeline.merge_template("prod", {**_stages()["prod"], "snapstart": True})["Resources"]
    template["Resources"]["APIHandler"]["Properties"].update(merge["APIHandler"]["Properties"])
    template["Resources"]["APIHandlerInvokePermission"] = {
        "Type": "AWS::Lambda::Permission",
        "Properties": {
            "Action": "lambda:InvokeFunction",
            "Principal": "apigateway.amazonaws.com",
            **merge["APIHandlerInvokePermission"]["Properties"],
        },
    }
    path = tmp_path / "sam.json"
    path.write_text(json.dumps(template))
    command = str(cfn_lint) if cfn_lint.exists() else shutil.which("cfn-lint")
    lint = subprocess.run([command, "--", str(path)], capture_output=True, text=True, timeout=300)
    assert lint.returncode == 0, lint.stdout + lint.stderr
