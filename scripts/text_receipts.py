"""Texts' delivery receipts reach record_text_receipts on both deploy paths (docs/deploy.md): SNS logs each text's
fate to its two log groups (``sns/<region>/<account>/DirectPublishToPhoneNumber`` and ``.../Failure``, with the
infra stack's SmsDeliveryStatusRole, set in the account's SMS attributes by scripts/deploy.py), a subscription
filter on each hands the log events to the function, CloudWatch Logs may invoke it (a resource policy bound to the
account's log groups), and an invocation that fails after Lambda's retries goes to the infra stack's
TextReceiptFailureQueue. The log groups are SNS's and the function is Chalice's, so neither CloudFormation stack
declares the filters alone: ``make deploy`` sets them with the API (:func:`connect`), the pipeline in its merge
template (:func:`merge_resources`)."""

from __future__ import annotations

import async_invocation

FUNCTION = "record_text_receipts"
FILTER_NAME = "invites-text-receipts"
FILTER_PATTERN = ""  # every record: SUCCESS in the first group, FAILURE in the second
PERMISSION_ID = "sms-delivery-logs"


def log_groups(region: str, account: str) -> list[str]:
    """SNS's log groups of texts delivered and failed."""
    base = f"sns/{region}/{account}/DirectPublishToPhoneNumber"
    return [base, f"{base}/Failure"]


def connect(session, function_name: str, outputs: dict[str, str]) -> None:
    """``make deploy`` (after the log groups exist: deploy.keep_delivery_logs): the failure destination,
    CloudWatch Logs' right to invoke the function, then a subscription filter on each log group."""
    region = session.region_name
    account, function_arn = async_invocation.grant(
        session,
        function_name,
        outputs["TextReceiptFailureQueueArn"],
        PERMISSION_ID,
        "logs.amazonaws.com",
        lambda account: f"arn:aws:logs:{region}:{account}:log-group:sns/{region}/{account}/DirectPublishToPhoneNumber*",
    )
    logs = session.client("logs")
    for group in log_groups(region, account):
        logs.put_subscription_filter(
            logGroupName=group, filterName=FILTER_NAME, filterPattern=FILTER_PATTERN, destinationArn=function_arn
        )


def merge_resources(function_logical_id: str) -> tuple[dict, dict]:
    """(parameters, resources) of the pipeline's merge template for the delivery receipts. The log groups must
    exist first (docs/deploy.md: the pipeline's one-time steps)."""
    parameters = {"TextReceiptFailureQueueArn": async_invocation.queue_parameter("TextReceiptFailureQueueArn")}
    base = "sns/${AWS::Region}/${AWS::AccountId}/DirectPublishToPhoneNumber"
    groups_arn = "arn:${AWS::Partition}:logs:${AWS::Region}:${AWS::AccountId}:log-group:" + base + "*"
    resources = {
        "TextReceiptsInvokeConfig": async_invocation.invoke_config(function_logical_id, "TextReceiptFailureQueueArn"),
        "TextReceiptsInvokePermission": async_invocation.invoke_permission(
            function_logical_id, "logs.amazonaws.com", {"Fn::Sub": groups_arn}
        ),
    }
    for logical, group in (("TextReceiptsDelivered", base), ("TextReceiptsFailed", f"{base}/Failure")):
        resources[logical] = {
            "Type": "AWS::Logs::SubscriptionFilter",
            "DependsOn": ["TextReceiptsInvokePermission"],
            "Properties": {
                "LogGroupName": {"Fn::Sub": group},
                "FilterName": FILTER_NAME,
                "FilterPattern": FILTER_PATTERN,
                "DestinationArn": {"Fn::GetAtt": [function_logical_id, "Arn"]},
            },
        }
    return parameters, resources
