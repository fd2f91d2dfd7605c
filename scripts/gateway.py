"""What API Gateway answers by itself, and how hard it throttles: one definition for both deploy paths.

- ``scripts/deploy.py`` applies them to the API ``chalice deploy`` made (``apply``);
- ``chalice package`` takes them as ``--merge-template`` (``merge_template``);
- ``scripts/chalice_cli.py local`` answers unknown paths with ``NOT_FOUND_BODY`` as the deployed API does.

Gateway responses: API Gateway answers a path or method it does not have with 403 ``Missing Authentication
Token``, and, when the request has an ``Authorization`` header, with a message that repeats the header.
Every response type below has a fixed body: no ``$context.error.message``, so nothing of the request is echoed.
The API has no IAM-authorised method, so INVALID_SIGNATURE is only ever an unknown path with a header. Should
AWS file the header case under another type, DEFAULT_4XX still echoes nothing, and the deploy's smoke test
(unknown path with a Bearer header: 404 expected) fails loudly.
"""

from __future__ import annotations

import json

NOT_FOUND_BODY = json.dumps({"detail": "Not found."})


def _body(text: str) -> str:
    return json.dumps({"detail": text})


# type -> (status, body, extra headers); DEFAULT_* cover every other type (their status is the type's own).
GATEWAY_RESPONSES: dict[str, tuple[str | None, str, dict[str, str]]] = {
    "MISSING_AUTHENTICATION_TOKEN": ("404", NOT_FOUND_BODY, {}),
    "INVALID_SIGNATURE": ("404", NOT_FOUND_BODY, {}),
    "RESOURCE_NOT_FOUND": ("404", NOT_FOUND_BODY, {}),
    "THROTTLED": ("429", _body("Request was throttled. Expected available in 1 seconds."), {"Retry-After": "1"}),
    "REQUEST_TOO_LARGE": ("413", _body("Request body too large. Maximum size is 4 MB."), {}),
    "DEFAULT_4XX": (None, _body("The request was refused."), {}),
    "DEFAULT_5XX": (None, _body("Service temporarily unavailable, try again later."), {"Retry-After": "5"}),
}


def throttle_settings(stage_settings: dict) -> dict[tuple[str, str], tuple[float, int]]:
    """{(resource path, method): (rate per second, burst)} from a stage of infra/stages.json.

    ("/*", "*") is the whole stage; the two login routes get their own, tighter, limits."""
    throttle = stage_settings["throttle"]
    limits = {("/*", "*"): (float(throttle["rate"]), int(throttle["burst"]))}
    for path, limit in throttle.get("routes", {}).items():
        method, _, resource = path.partition(" ")
        limits[(resource, method)] = (float(limit["rate"]), int(limit["burst"]))
    return limits


# --- chalice package: a template merged into its SAM template -------------------------------------------


def _response_resource(kind: str) -> dict:
    status, body, headers = GATEWAY_RESPONSES[kind]
    properties = {
        "RestApiId": {"Ref": "RestAPI"},
        "ResponseType": kind,
        "ResponseTemplates": {"application/json": body},
    }
    if headers:
        properties["ResponseParameters"] = {f"gatewayresponse.header.{k}": f"'{v}'" for k, v in headers.items()}
    if status:
        properties["StatusCode"] = status
    return {"Type": "AWS::ApiGateway::GatewayResponse", "Properties": properties}


def _logical_id(kind: str) -> str:
    return "GatewayResponse" + "".join(part.capitalize() for part in kind.split("_"))


def merge_template(stage_settings: dict) -> dict:
    """Resources and properties added to ``chalice package``'s template (``--merge-template``)."""
    method_settings = [
        {
            "ResourcePath": resource,
            "HttpMethod": method,
            "ThrottlingRateLimit": rate,
            "ThrottlingBurstLimit": burst,
        }
        for (resource, method), (rate, burst) in throttle_settings(stage_settings).items()
    ]
    resources = {_logical_id(kind): _response_resource(kind) for kind in GATEWAY_RESPONSES}
    resources["RestAPI"] = {"Properties": {"MethodSettings": method_settings}}
    # chalice 1.34 names the API function's log group after a logical id it does not use (ApiHandler, not
    # APIHandler): cfn-lint E1019. Point it at the function that exists.
    resources["ApiHandlerLogGroup"] = {"Properties": {"LogGroupName": {"Fn::Sub": "/aws/lambda/${APIHandler}"}}}
    return {"Resources": resources}


# --- chalice deploy: the same through the API Gateway API ------------------------------------------------


def _escape(resource: str) -> str:
    return resource.replace("~", "~0").replace("/", "~1") if resource != "/*" else "*"


def stage_patch_operations(stage_settings: dict) -> list[dict]:
    """``update_stage`` operations that set every throttle of ``throttle_settings``."""
    operations = []
    for (resource, method), (rate, burst) in throttle_settings(stage_settings).items():
        prefix = f"/{_escape(resource)}/{method}/throttling"
        operations.append({"op": "replace", "path": f"{prefix}/rateLimit", "value": str(rate)})
        operations.append({"op": "replace", "path": f"{prefix}/burstLimit", "value": str(burst)})
    return operations


def apply(apigateway, rest_api_id: str, api_stage: str, stage_settings: dict) -> None:
    """Put the gateway responses and the throttles on a deployed API, then redeploy its stage."""
    for kind, (status, body, headers) in GATEWAY_RESPONSES.items():
        kwargs = {
            "restApiId": rest_api_id,
            "responseType": kind,
            "responseTemplates": {"application/json": body},
            "responseParameters": {f"gatewayresponse.header.{k}": f"'{v}'" for k, v in headers.items()},
        }
        if status:
            kwargs["statusCode"] = status
        apigateway.put_gateway_response(**kwargs)
    # gateway responses take effect with a deployment; method settings are the stage's own
    apigateway.create_deployment(restApiId=rest_api_id, stageName=api_stage, description="gateway responses")
    apigateway.update_stage(
        restApiId=rest_api_id, stageName=api_stage, patchOperations=stage_patch_operations(stage_settings)
    )
