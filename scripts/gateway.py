"""What API Gateway answers by itself, and how hard it throttles: one definition for every deploy path.

- The gateway responses are part of the API definition itself: ``scripts/chalice_cli.py`` adds
  ``swagger_gateway_responses()`` as ``x-amazon-apigateway-gateway-responses`` to every swagger document Chalice
  generates, so ``chalice deploy`` (``PutRestApi`` in overwrite mode, which deletes whatever the imported
  definition leaves out, except stages) and ``chalice package`` (the SAM ``DefinitionBody``) both carry them,
  with no moment where API Gateway's defaults answer;
- the throttles are stage settings (a stage survives an overwrite import): ``scripts/deploy.py`` sets them with
  ``apply_throttles``, ``chalice package`` takes them as ``--merge-template`` (``merge_template``);
- ``scripts/chalice_cli.py local`` answers unknown paths, and methods the API has none of (OPTIONS, TRACE,
  QUERY...), with ``NOT_FOUND_BODY`` and an ``X-Request-Id`` as the deployed API does.

Gateway responses: API Gateway answers a path or method it does not have with 403 ``Missing Authentication
Token``, and, when the request has an ``Authorization`` header, with a message that repeats the header.
Every response type below has a fixed body: no ``$context.error.message``, so nothing of the request is echoed.
The API has no IAM-authorised method, so INVALID_SIGNATURE is only ever an unknown path with a header. Should
AWS file the header case under another type, DEFAULT_4XX still echoes nothing, and the deploy's smoke test
(unknown path with a Bearer header: 404 expected) fails loudly. REQUEST_TOO_LARGE is declared too, but API
Gateway does not apply a customised 413 today (docs/operations.md, "Oversize bodies").
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


# --- the API definition: gateway responses in the swagger ----------------------------------------------


# Every answer carries X-Request-Id, the gateway's own ones too: its request id (a mapping expression, not a
# literal in quotes), which is also the requestId the function reads when the request reaches it.
REQUEST_ID_PARAMETER = {"gatewayresponse.header.X-Request-Id": "context.requestId"}


def swagger_gateway_responses() -> dict[str, dict]:
    """``x-amazon-apigateway-gateway-responses`` of the API definition (status codes are strings there)."""
    responses = {}
    for kind, (status, body, headers) in GATEWAY_RESPONSES.items():
        response: dict = {"responseTemplates": {"application/json": body}}
        literals = {f"gatewayresponse.header.{k}": f"'{v}'" for k, v in headers.items()}
        response["responseParameters"] = {**literals, **REQUEST_ID_PARAMETER}
        if status:
            response["statusCode"] = status
        responses[kind] = response
    return responses


def add_gateway_responses(swagger: dict) -> dict:
    """``swagger`` (a document Chalice generated) with the gateway responses declared in it."""
    swagger["x-amazon-apigateway-gateway-responses"] = swagger_gateway_responses()
    return swagger


# --- throttles -------------------------------------------------------------------------------------------


def _escape(resource: str) -> str:
    """A resource path as API Gateway names it inside a method-settings key: ``/auth/x`` -> ``~1auth~1x``."""
    return resource.replace("~", "~0").replace("/", "~1")


def cloudformation_resource_path(resource: str) -> str:
    """``MethodSettings.ResourcePath`` as CloudFormation wants it: ``/~1auth~1verify_pin``; the stage: ``/*``."""
    return resource if resource == "/*" else "/" + _escape(resource)


def merge_template(stage_settings: dict) -> dict:
    """Resources and properties added to ``chalice package``'s template (``--merge-template``)."""
    method_settings = [
        {
            "ResourcePath": cloudformation_resource_path(resource),
            "HttpMethod": method,
            "ThrottlingRateLimit": rate,
            "ThrottlingBurstLimit": burst,
        }
        for (resource, method), (rate, burst) in throttle_settings(stage_settings).items()
    ]
    resources: dict = {"RestAPI": {"Properties": {"MethodSettings": method_settings}}}
    # chalice 1.34 names the API function's log group after a logical id it does not use (ApiHandler, not
    # APIHandler): cfn-lint E1019. Point it at the function that exists.
    resources["ApiHandlerLogGroup"] = {"Properties": {"LogGroupName": {"Fn::Sub": "/aws/lambda/${APIHandler}"}}}
    # the infra stack's body-limit web ACL (its output ApiWebAclArn) in front of the stage, when one is passed
    resources["ApiWebAclAssociation"] = {
        "Type": "AWS::WAFv2::WebACLAssociation",
        "Condition": "HasApiWebAcl",
        "Properties": {
            "WebACLArn": {"Ref": "ApiWebAclArn"},
            "ResourceArn": {
                "Fn::Sub": "arn:${AWS::Partition}:apigateway:${AWS::Region}::/restapis/${RestAPI}/stages/"
                "${RestAPI.Stage}"
            },
        },
    }
    return {
        "Parameters": {
            "ApiWebAclArn": {
                "Type": "String",
                "Default": "",
                "Description": "Output ApiWebAclArn of the stage's infra/template.yaml stack (bodies over 4 MB: 413)",
            }
        },
        "Conditions": {"HasApiWebAcl": {"Fn::Not": [{"Fn::Equals": [{"Ref": "ApiWebAclArn"}, ""]}]}},
        "Resources": resources,
    }


def stage_patch_operations(stage_settings: dict) -> list[dict]:
    """``update_stage`` operations that set every throttle of ``throttle_settings``."""
    operations = []
    for (resource, method), (rate, burst) in throttle_settings(stage_settings).items():
        key = "*" if resource == "/*" else _escape(resource)
        prefix = f"/{key}/{method}/throttling"
        operations.append({"op": "replace", "path": f"{prefix}/rateLimit", "value": str(rate)})
        operations.append({"op": "replace", "path": f"{prefix}/burstLimit", "value": str(burst)})
    return operations


def apply_throttles(apigateway, rest_api_id: str, api_stage: str, stage_settings: dict) -> None:
    """Set the stage's throttles on a deployed API (a stage setting: takes effect without a deployment)."""
    apigateway.update_stage(
        restApiId=rest_api_id, stageName=api_stage, patchOperations=stage_patch_operations(stage_settings)
    )
