"""The merge template of the CloudFormation pipeline (docs/deploy.md, "A CloudFormation pipeline instead"):
what makes the stack of ``chalice package`` the one ``make deploy`` makes.

    .venv/bin/python scripts/pipeline.py --stage prod > build/merge.json

On top of scripts/gateway.py's throttles and web ACL association:
- every function gets the name ``chalice deploy`` gives it (``invites-<stage>`` for the API,
  ``invites-<stage>-<function>`` for the others): the names the policies' log statements and the alarms of
  infra/template.yaml are written for; without them CloudFormation makes up names, and the functions could not
  write their logs while their alarms watched nothing;
- on prod the web ACL (the infra stack's ApiWebAclArn output) is required, not optional;
- replies by text, which SNS hands to Lambda asynchronously, go to the infra stack's failure queue
  (InboundSmsFailureQueueArn) when every attempt failed, instead of being dropped;
- album uploads reach process_photo_upload: the bucket's notification (a custom resource), S3's permission to
  invoke it and its failure queue (PhotoUploadFailureQueueArn; scripts/photo_uploads.py);
- texts' delivery-status logs reach record_text_receipts: a subscription filter on each of SNS's two log groups,
  CloudWatch Logs' permission to invoke it and its failure queue (TextReceiptFailureQueueArn;
  scripts/text_receipts.py);
- with the stage's ``snapstart`` on (infra/stages.json), the API function publishes a version on each deploy
  behind the alias ``live`` with SnapStart on published versions, and API Gateway invokes that alias
  (scripts/chalice_cli.py points the integration at it; this template gives the alias the invoke permission).
  ``chalice deploy`` has no SnapStart: the switch exists on this path only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import async_invocation  # noqa: E402
import gateway  # noqa: E402
import photo_uploads  # noqa: E402
import stage_config  # noqa: E402
import text_receipts  # noqa: E402

APP_NAME = "invites"
CONFIG = ROOT / ".chalice" / "config.json"
STAGES_FILE = ROOT / "infra" / "stages.json"
STAGES_REQUIRING_WEB_ACL = ("prod",)
INBOUND_FUNCTION = "handle_inbound_sms"
WEB_ACL_ARN = r"^arn:aws[a-z-]*:wafv2:[a-z0-9-]+:[0-9]{12}:regional/webacl/.+$"


def function_names(stage: str) -> dict[str, str]:
    """Each function of .chalice/config.json's stage -> its name in AWS, as ``chalice deploy`` names it."""
    functions = json.loads(CONFIG.read_text())["stages"][stage]["lambda_functions"]
    return {fn: f"{APP_NAME}-{stage}" if fn == "api_handler" else f"{APP_NAME}-{stage}-{fn}" for fn in functions}


def logical_id(function: str) -> str:
    """The resource name ``chalice package`` gives a function in its SAM template."""
    if function == "api_handler":
        return "APIHandler"
    from chalice.utils import to_cfn_resource_name

    return to_cfn_resource_name(function)


def merge_template(stage: str, stage_settings: dict) -> dict:
    merged = gateway.merge_template(stage_settings)
    resources, parameters = merged["Resources"], merged["Parameters"]
    for function, name in function_names(stage).items():
        resources.setdefault(logical_id(function), {}).setdefault("Properties", {})["FunctionName"] = name
    if stage in STAGES_REQUIRING_WEB_ACL:
        acl = parameters["ApiWebAclArn"]
        acl.pop("Default", None)
        acl["AllowedPattern"] = WEB_ACL_ARN
        acl["Description"] += "; required on this stage"
        condition = resources["ApiWebAclAssociation"].pop("Condition", None)
        merged.get("Conditions", {}).pop(condition, None)
    parameters["InboundSmsFailureQueueArn"] = async_invocation.queue_parameter("InboundSmsFailureQueueArn")
    resources["InboundSmsInvokeConfig"] = async_invocation.invoke_config(
        logical_id(INBOUND_FUNCTION), "InboundSmsFailureQueueArn"
    )
    album_parameters, album_resources = photo_uploads.merge_resources(logical_id(photo_uploads.FUNCTION))
    parameters.update(album_parameters)
    resources.update(album_resources)
    receipt_parameters, receipt_resources = text_receipts.merge_resources(logical_id(text_receipts.FUNCTION))
    parameters.update(receipt_parameters)
    resources.update(receipt_resources)
    if stage_settings.get("snapstart"):
        with_snapstart(resources)
    return merged


SNAPSTART_ALIAS = "live"


def with_snapstart(resources: dict) -> None:
    """SnapStart on the API function: it applies to published versions only, so SAM publishes one per deploy
    (AutoPublishAlias) and API Gateway must be allowed to invoke that alias, not $LATEST."""
    handler = resources.setdefault(logical_id("api_handler"), {}).setdefault("Properties", {})
    handler["AutoPublishAlias"] = SNAPSTART_ALIAS
    handler["SnapStart"] = {"ApplyOn": "PublishedVersions"}
    permission = resources.setdefault("APIHandlerInvokePermission", {}).setdefault("Properties", {})
    permission["FunctionName"] = {"Ref": "APIHandler.Alias"}


def main(argv: list[str] | None = None) -> int:
    parser = stage_config.stage_arguments(__doc__)
    args = parser.parse_args(argv)
    stages = json.loads(STAGES_FILE.read_text())
    print(json.dumps(merge_template(args.stage, stages[args.stage]), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
