"""scripts/deploy.py's own rules, without AWS: stage settings it refuses, and the throttles it sets."""

from __future__ import annotations

import json

import pytest

from tests.infra.scripts import load

deploy, gateway = load("deploy"), load("gateway")


@pytest.fixture
def stages(tmp_path, monkeypatch):
    """A copy of infra/stages.json that a test may change."""
    path = tmp_path / "stages.json"
    data = json.loads(deploy.STAGES_FILE.read_text())
    monkeypatch.setattr(deploy, "STAGES_FILE", path)
    monkeypatch.setattr(deploy, "ROOT", tmp_path)

    def write(change):
        change(data)
        path.write_text(json.dumps(data))

    write(lambda _: None)
    return write


def test_the_committed_stages_are_deployable(stages):
    for stage in ("dev", "prod"):
        assert deploy.stage_settings(stage)["throttle"]["rate"] > 0


def test_a_placeholder_stops_the_deploy(stages):
    stages(lambda data: data["prod"].update(alarm_email="<oncall address>"))
    with pytest.raises(deploy.Stop, match="alarm_email"):
        deploy.stage_settings("prod")


def test_a_custom_domain_needs_its_certificate(stages):
    stages(lambda data: data["prod"]["custom_domain"].update(domain_name="api.example.com"))
    with pytest.raises(deploy.Stop, match="certificate_arn"):
        deploy.stage_settings("prod")


def test_a_custom_domain_goes_to_the_generated_settings_only(stages, tmp_path, monkeypatch):
    stage_config = load("stage_config")
    monkeypatch.setattr(stage_config, "GENERATED", tmp_path / "generated")
    domain = {"domain_name": "api.example.com", "certificate_arn": "arn:aws:acm:us-east-1:1:certificate/x"}
    stages(lambda data: data["prod"]["custom_domain"].update(domain))
    outputs = {output: f"value-of-{output}" for output in stage_config.OUTPUT_SETTINGS}
    outputs.update(UsersTableName="invites-prod-users", AuthTableName="invites-prod-auth")
    outputs.update(EventsTableName="invites-prod-events", NotificationsQueueName="invites-prod-notifications")
    path = deploy.write_settings("prod", deploy.stage_settings("prod"), outputs, emulated=False)
    assert json.loads(path.read_text())["api_gateway_custom_domain"] == domain


def test_throttles_cover_the_stage_and_both_login_routes():
    settings = json.loads(deploy.STAGES_FILE.read_text())["prod"]
    paths = {op["path"]: op["value"] for op in gateway.stage_patch_operations(settings)}
    assert paths["/*/*/throttling/rateLimit"] == str(float(settings["throttle"]["rate"]))
    assert "/~1auth/POST/throttling/burstLimit" in paths
    assert "/~1auth~1verify_pin/POST/throttling/rateLimit" in paths
    for stage in ("dev", "prod"):
        throttle = json.loads(deploy.STAGES_FILE.read_text())[stage]["throttle"]
        assert all(route["rate"] < throttle["rate"] for route in throttle["routes"].values())


def test_gateway_responses_echo_nothing_of_the_request():
    for kind, (_status, body, headers) in gateway.GATEWAY_RESPONSES.items():
        assert "$" not in body and not any("$" in value for value in headers.values()), kind
        assert set(json.loads(body)) == {"detail"}, kind
    assert gateway.GATEWAY_RESPONSES["MISSING_AUTHENTICATION_TOKEN"][:2] == ("404", '{"detail": "Not found."}')
