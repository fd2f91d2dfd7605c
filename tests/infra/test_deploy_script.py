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


def test_a_custom_domain_of_the_edge_optimized_api_needs_a_us_east_1_certificate(stages):
    domain = {"domain_name": "api.example.com", "certificate_arn": "arn:aws:acm:eu-west-1:1:certificate/x"}
    stages(lambda data: data["prod"]["custom_domain"].update(domain))
    with pytest.raises(deploy.Stop, match="us-east-1"):
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


def test_origination_identities_and_the_support_contact_reach_the_generated_settings(stages, tmp_path, monkeypatch):
    stage_config = load("stage_config")
    monkeypatch.setattr(stage_config, "GENERATED", tmp_path / "generated")
    pool = "arn:aws:sms-voice:us-east-1:123456789012:pool/pool-0123456789abcdef0123456789abcdef"
    change = {"sms_origination_pins": "+18885550100", "sms_origination_invites": pool}
    stages(lambda data: data["prod"].update(change, support_contact="help@invites.example"))
    outputs = {output: f"value-of-{output}" for output in stage_config.OUTPUT_SETTINGS}
    outputs.update(UsersTableName="invites-prod-users", AuthTableName="invites-prod-auth")
    outputs.update(EventsTableName="invites-prod-events", NotificationsQueueName="invites-prod-notifications")
    path = deploy.write_settings("prod", deploy.stage_settings("prod"), outputs, emulated=False)
    env = json.loads(path.read_text())["environment_variables"]
    assert env["SMS_ORIGINATION_PINS"] == "+18885550100" and env["SMS_ORIGINATION_INVITES"] == pool
    assert env["SUPPORT_CONTACT"] == "help@invites.example"
    # left out: written empty, so the app uses the account's default identity
    stages(lambda data: [data["prod"].pop(key) for key in (*change, "support_contact")])
    path = deploy.write_settings("prod", deploy.stage_settings("prod"), outputs, emulated=False)
    env = json.loads(path.read_text())["environment_variables"]
    assert [env[name] for name in ("SMS_ORIGINATION_PINS", "SMS_ORIGINATION_INVITES", "SUPPORT_CONTACT")] == [""] * 3


@pytest.mark.parametrize("value", ["4155550100", "+1 415 555 0100", "InvitesCo", "pool-xyz", "arn:aws:sns:x"])
def test_an_origination_identity_that_is_neither_a_number_nor_an_id_stops_the_deploy(stages, value):
    stages(lambda data: data["dev"].update(sms_origination_invites=value))
    with pytest.raises(deploy.Stop, match="sms_origination_invites"):
        deploy.stage_settings("dev")


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


def test_cloudformation_gets_the_throttled_paths_encoded():
    settings = json.loads(deploy.STAGES_FILE.read_text())["prod"]
    paths = {
        (s["ResourcePath"], s["HttpMethod"])
        for s in gateway.merge_template(settings)["Resources"]["RestAPI"]["Properties"]["MethodSettings"]
    }
    assert paths == {("/*", "*"), ("/~1auth", "POST"), ("/~1auth~1verify_pin", "POST")}


def _generated_swagger(generator_name: str) -> dict:
    """The swagger document a Chalice generator makes for the app, with the wrapper's hook installed."""
    from chalice.deploy import swagger

    import app

    load("chalice_cli")._install_gateway_responses()
    generator = getattr(swagger, generator_name)
    instance = generator("us-east-1", {}) if generator_name == "SwaggerGenerator" else generator()
    return instance.generate_swagger(app.app)


@pytest.mark.parametrize("generator_name", ["TemplatedSwaggerGenerator", "CFNSwaggerGenerator"])
def test_every_api_definition_chalice_generates_declares_the_gateway_responses(generator_name):
    # GIVEN the generator `chalice deploy` uses (its document goes to PutRestApi in overwrite mode) and the
    # one `chalice package` puts in the SAM DefinitionBody
    # WHEN the wrapper has installed its hook
    document = _generated_swagger(generator_name)
    # THEN the document itself carries every gateway response, so an overwrite import keeps them
    responses = document["x-amazon-apigateway-gateway-responses"]
    assert set(responses) == set(gateway.GATEWAY_RESPONSES)
    request_id = {"gatewayresponse.header.X-Request-Id": "context.requestId"}
    assert responses["MISSING_AUTHENTICATION_TOKEN"] == {
        "statusCode": "404",
        "responseTemplates": {"application/json": '{"detail": "Not found."}'},
        "responseParameters": request_id,
    }
    assert responses["THROTTLED"]["responseParameters"] == {"gatewayresponse.header.Retry-After": "'1'", **request_id}
    # every answer of the gateway's own carries the request id, as the function's answers do
    assert all(response["responseParameters"].items() >= request_id.items() for response in responses.values())
    assert "$" not in json.dumps(responses)
    assert "/events/{event_id}" in document["paths"]  # and it is still Chalice's own document


def test_the_hook_is_installed_once():
    from chalice.deploy import swagger

    chalice_cli = load("chalice_cli")
    chalice_cli._install_gateway_responses()
    installed = swagger.SwaggerGenerator.generate_swagger
    chalice_cli._install_gateway_responses()
    assert swagger.SwaggerGenerator.generate_swagger is installed


def test_reserved_concurrency_comes_from_the_stage_settings():
    chalice_cli = load("chalice_cli")
    config = json.loads((deploy.ROOT / ".chalice" / "config.json").read_text())
    stages = json.loads(deploy.STAGES_FILE.read_text())
    merged = chalice_cli.with_reserved_concurrency(config, "prod", stages["prod"])
    functions = merged["stages"]["prod"]["lambda_functions"]
    assert (
        functions["send_notifications"]["reserved_concurrency"]
        == stages["prod"]["reserved_concurrency"]["send_notifications"]
    )
    assert functions["remind_upcoming_events"]["reserved_concurrency"] == 1
    assert "reserved_concurrency" not in functions["api_handler"]  # the API keeps the account's pool
    # the policies stay as they were
    assert functions["send_notifications"]["iam_policy_file"] == "policy-prod-notifications.json"
    # an SQS-driven function needs at least 5 (AWS: fewer makes its pollers throttle)
    for stage in ("dev", "prod"):
        assert stages[stage]["reserved_concurrency"]["send_notifications"] >= 5


def test_deletion_protection_is_a_stage_switch(stages):
    parameters = {p["ParameterKey"]: p["ParameterValue"] for p in _parameters("prod")}
    assert parameters["TableDeletionProtection"] == "true"
    stages(lambda data: data["prod"].update(deletion_protection=False))
    parameters = {p["ParameterKey"]: p["ParameterValue"] for p in _parameters("prod")}
    assert parameters["TableDeletionProtection"] == "false"


def _parameters(stage: str) -> list[dict]:
    return deploy.stack_parameters(stage, deploy.stage_settings(stage), "arn:aws:sns:us-east-1:1:app/APNS/x")


SMOKE_BASE = "https://api.example.test/api"


class _Answer:
    def __init__(self, status: int, text: str = "", headers: dict | None = None):
        self.status_code, self.text, self.content = status, text, text.encode()
        self.headers = headers or {}

    def json(self):
        return json.loads(self.text)


class _FakeHttp:
    """What `requests` answers, as the deployed API would, with the faults a test switches on."""

    RequestException = OSError

    def __init__(self, echo: bool = False, no_content_type: str | None = None):
        self.echo, self.no_content_type, self.calls = echo, no_content_type, []

    def request(self, method, url, headers=None, json=None, timeout=None):
        path = url.removeprefix(SMOKE_BASE)
        self.calls.append((method, path))
        if path == "/openapi.json":
            return _Answer(200, '{"openapi": "3.0.3"}')
        if path == "/events":
            return _Answer(401, '{"detail": "x"}')
        if path == "/notifications/remove_ios_device":
            headers = {"Content-Type": self.no_content_type} if self.no_content_type else {}
            return _Answer(204, "", headers)
        body = gateway.NOT_FOUND_BODY
        return _Answer(404, body, {"x-echo": headers["Authorization"]} if self.echo else {})

    def get(self, url, **kwargs):
        return self.request("GET", url, **kwargs)

    def post(self, url, **kwargs):
        return self.request("POST", url, **kwargs)


def _smoke(monkeypatch, http, token):
    import sys

    monkeypatch.setitem(sys.modules, "requests", http)
    return deploy.smoke_test(SMOKE_BASE + "/", attempts=1, token=token)


def test_the_smoke_test_checks_a_204_and_unknown_paths_with_the_real_token(monkeypatch):
    http = _FakeHttp()
    assert _smoke(monkeypatch, http, "7.real-token") == []
    assert ("POST", "/notifications/remove_ios_device") in http.calls
    # a 204 with a Content-Type fails it
    assert _smoke(monkeypatch, _FakeHttp(no_content_type="application/json"), "7.real-token") == [
        "a 204 has Content-Type: application/json"
    ]
    # so does an unknown path that repeats the Authorization header
    problems = _smoke(monkeypatch, _FakeHttp(echo=True), "7.real-token")
    assert "GET of an unknown path repeats the Authorization header" in problems
    # without a token, no 204 is asked for
    http = _FakeHttp()
    assert _smoke(monkeypatch, http, None) == []
    assert ("POST", "/notifications/remove_ios_device") not in http.calls


def test_the_queue_pollers_stay_within_the_worker_s_reserve():
    from chalice.app import SQSEventConfig

    import app

    stages = json.loads(deploy.STAGES_FILE.read_text())
    sources = [s for s in app.app.event_sources if isinstance(s, SQSEventConfig)]
    assert [s.name for s in sources] == ["send_notifications"]
    try:
        load("chalice_cli").cap_queue_pollers(app.app, stages["prod"])
        assert sources[0].maximum_concurrency == stages["prod"]["reserved_concurrency"]["send_notifications"]
    finally:
        sources[0].maximum_concurrency = None


def test_the_pipeline_can_put_the_web_acl_in_front_of_its_stage():
    merge = gateway.merge_template(json.loads(deploy.STAGES_FILE.read_text())["prod"])
    association = merge["Resources"]["ApiWebAclAssociation"]
    assert association["Type"] == "AWS::WAFv2::WebACLAssociation"
    assert association["Properties"]["WebACLArn"] == {"Ref": "ApiWebAclArn"}
    assert association["Properties"]["ResourceArn"]["Fn::Sub"].endswith("/restapis/${RestAPI}/stages/${RestAPI.Stage}")
    # only when the pipeline passes the infra stack's ApiWebAclArn output
    assert association["Condition"] == "HasApiWebAcl" and merge["Parameters"]["ApiWebAclArn"]["Default"] == ""


# --- texting guards ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("sms_countries", ""),
        ("sms_countries", None),
        ("sms_countries", "USA"),
        ("sms_countries", "us"),
        ("sms_max_price_usd", ""),
        ("sms_max_price_usd", "0"),
        ("sms_max_price_usd", "cheap"),
        ("sms_monthly_segments", 0),
        ("sms_monthly_segments", None),
        ("sms_segment_cost_usd", -1),
        ("sms_delivery_success_sampling_percent", 5),
    ],
)
def test_a_stage_that_could_text_anywhere_at_any_price_or_without_a_budget_is_refused(stages, key, value):
    stages(lambda data: data["prod"].update({key: value}))
    with pytest.raises(deploy.Stop, match=key):
        deploy.stage_settings("prod")


@pytest.mark.parametrize("key", ["sms_countries", "sms_max_price_usd", "sms_monthly_segments", "sms_segment_cost_usd"])
def test_a_stage_without_a_texting_guard_is_refused(stages, key):
    stages(lambda data: data["dev"].pop(key))
    with pytest.raises(deploy.Stop, match=key):
        deploy.stage_settings("dev")


def test_the_texting_guards_reach_the_generated_settings(stages, tmp_path, monkeypatch):
    stage_config = load("stage_config")
    monkeypatch.setattr(stage_config, "GENERATED", tmp_path / "generated")
    outputs = {output: f"value-of-{output}" for output in stage_config.OUTPUT_SETTINGS}
    outputs.update(UsersTableName="invites-prod-users", AuthTableName="invites-prod-auth")
    outputs.update(EventsTableName="invites-prod-events", NotificationsQueueName="invites-prod-notifications")
    settings = deploy.stage_settings("prod")
    path = deploy.write_settings("prod", settings, outputs, emulated=False)
    env = json.loads(path.read_text())["environment_variables"]
    assert env["SMS_COUNTRIES"] == settings["sms_countries"] and env["SMS_COUNTRIES"]
    assert env["SMS_MAX_PRICE_USD"] == settings["sms_max_price_usd"]
    assert env["SMS_MONTHLY_SEGMENTS"] == str(settings["sms_monthly_segments"])


def test_the_spend_alarms_are_half_and_80_percent_of_the_budget_cost_and_the_rate_rule_the_stage_s(stages):
    stages(lambda data: data["prod"].update(sms_monthly_segments=250_000, sms_segment_cost_usd=0.0088))
    stages(lambda data: data["prod"].update(login_requests_per_address=40))
    parameters = {
        p["ParameterKey"]: p["ParameterValue"]
        for p in deploy.stack_parameters("prod", deploy.stage_settings("prod"), "arn:apns")
    }
    assert (parameters["SmsBudgetHalfCostUsd"], parameters["SmsBudgetHighCostUsd"]) == ("1100.00", "1760.00")
    assert parameters["LoginRequestsPerAddress"] == "40"


class _Sns:
    def __init__(self, attributes: dict):
        self.attributes = attributes

    def get_sms_attributes(self, attributes=None):
        return {"attributes": dict(self.attributes)}


class _Session:
    def __init__(self, sns_attributes: dict):
        self.sns = _Sns(sns_attributes)

    def client(self, service: str):
        assert service == "sns"
        return self.sns


@pytest.mark.parametrize("limit", [None, "1", "2200"])
def test_an_account_spend_limit_not_above_the_budget_cost_stops_the_deploy(stages, limit):
    # SNS stops every text, pins too, at its MonthlySpendLimit: it must sit above what the budget lets through
    stages(lambda data: data["prod"].update(sms_monthly_segments=250_000, sms_segment_cost_usd=0.0088))
    session = _Session({"MonthlySpendLimit": limit} if limit else {})
    with pytest.raises(deploy.Stop, match="MonthlySpendLimit"):
        deploy.check_spend_limit(session, deploy.stage_settings("prod"))
    deploy.check_spend_limit(_Session({"MonthlySpendLimit": "2750"}), deploy.stage_settings("prod"))


def _as_deployed(value, parameters: dict):
    """A template fragment with its Refs and Subs of ``parameters`` filled in."""
    if isinstance(value, dict):
        if set(value) == {"Ref"}:
            return parameters[value["Ref"]]
        if set(value) == {"Fn::Sub"}:
            text = value["Fn::Sub"]
            for name, given in parameters.items():
                text = text.replace(f"${{{name}}}", str(given))
            return text
        return {key: _as_deployed(inner, parameters) for key, inner in value.items()}
    if isinstance(value, list):
        return [_as_deployed(inner, parameters) for inner in value]
    return value


def test_the_deploy_names_each_texting_guard_that_is_not_in_place(aws, stages):
    import boto3

    session = boto3.session.Session(region_name="us-east-1")
    settings = deploy.stage_settings("prod")
    cost = deploy.budget_cost_usd(settings)
    role = "arn:aws:iam::123456789012:role/invites-prod-SmsDeliveryStatusRole"
    stage_arn = "arn:aws:apigateway:us-east-1::/restapis/abc123/stages/api"

    def problems() -> str:
        outputs = {"SmsDeliveryStatusRoleArn": role}
        return "\n".join(deploy.text_guard_problems(session, "prod", settings, outputs, stage_arn))

    # GIVEN an account where nothing was set up
    found = problems()
    for missing in ("DeliveryStatusIAMRole", "SamplingRate", "sms-spend", "sms-spend-high", "sms-success-rate"):
        assert missing in found, found
    assert "rate rule" in found
    # WHEN everything is in place, but the high spend alarm at the wrong threshold
    session.client("sns").set_sms_attributes(
        attributes={"DeliveryStatusIAMRole": role, "DeliveryStatusSuccessSamplingRate": "10"}
    )
    cloudwatch = session.client("cloudwatch")
    common = {"Namespace": "AWS/SNS", "Statistic": "Maximum", "Period": 300, "EvaluationPeriods": 1}
    spend = {**common, "MetricName": "SMSMonthToDateSpentUSD", "ComparisonOperator": "GreaterThanOrEqualToThreshold"}
    cloudwatch.put_metric_alarm(AlarmName="invites-prod-sms-spend", Threshold=round(cost * 0.5, 2), **spend)
    cloudwatch.put_metric_alarm(AlarmName="invites-prod-sms-spend-high", Threshold=cost, **spend)
    cloudwatch.put_metric_alarm(
        AlarmName="invites-prod-sms-success-rate",
        Threshold=0.9,
        **{**common, "MetricName": "SMSSuccessRate", "Statistic": "Average", "ComparisonOperator": "LessThanThreshold"},
    )
    template = load("local_stack").load_template()
    acl = template["Resources"]["ApiWebAcl"]["Properties"]
    rules = _as_deployed(acl["Rules"], {"LoginRequestsPerAddress": 100, "NamePrefix": "invites", "Stage": "prod"})
    wafv2 = session.client("wafv2")
    created = wafv2.create_web_acl(
        Name="invites-prod-api",
        Scope="REGIONAL",
        DefaultAction={"Allow": {}},
        Rules=rules,
        VisibilityConfig={"SampledRequestsEnabled": True, "CloudWatchMetricsEnabled": True, "MetricName": "api"},
    )
    wafv2.associate_web_acl(WebACLArn=created["Summary"]["ARN"], ResourceArn=stage_arn)
    # THEN only that alarm is named
    assert problems() == f"alarm invites-prod-sms-spend-high: ('SMSMonthToDateSpentUSD', {round(cost, 2)}), not " + (
        f"('SMSMonthToDateSpentUSD', {round(cost * 0.8, 2)})"
    )
