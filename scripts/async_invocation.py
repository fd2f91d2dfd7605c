"""What a function that another service invokes asynchronously (S3, CloudWatch Logs) needs in the pipeline's
merge template: Lambda's retries and the failure queue the infra stack made for it (its ARN a stack output,
passed in as a parameter), and the invoking service's right to call it, bound to the source and the account."""

from __future__ import annotations

ASYNC_RETRY_ATTEMPTS = 2  # Lambda's own retries before the failure destination (0-2)
QUEUE_ARN_PATTERN = r"^arn:aws[a-z-]*:sqs:[a-z0-9-]+:[0-9]{12}:.+$"


def queue_parameter(output: str) -> dict:
    """The template parameter of a failure queue's ARN, the infra stack's output ``output``."""
    return {
        "Type": "String",
        "AllowedPattern": QUEUE_ARN_PATTERN,
        "Description": f"Output {output} of the stage's infra/template.yaml stack",
    }


def invoke_config(function_logical_id: str, queue_parameter_name: str) -> dict:
    """Lambda's retries of the function's asynchronous invocations, then the failure queue."""
    return {
        "Type": "AWS::Lambda::EventInvokeConfig",
        "Properties": {
            "FunctionName": {"Ref": function_logical_id},
            "Qualifier": "$LATEST",
            "MaximumRetryAttempts": ASYNC_RETRY_ATTEMPTS,
            "DestinationConfig": {"OnFailure": {"Destination": {"Ref": queue_parameter_name}}},
        },
    }


def invoke_permission(function_logical_id: str, principal: str, source_arn: dict) -> dict:
    """``principal`` (``s3.amazonaws.com``, ``logs.amazonaws.com``) may invoke the function from ``source_arn``
    of this account only."""
    return {
        "Type": "AWS::Lambda::Permission",
        "Properties": {
            "FunctionName": {"Ref": function_logical_id},
            "Action": "lambda:InvokeFunction",
            "Principal": principal,
            "SourceArn": source_arn,
            "SourceAccount": {"Ref": "AWS::AccountId"},
        },
    }


def grant(session, function_name: str, queue_arn: str, statement_id: str, principal: str, source_arn) -> tuple:
    """``make deploy``'s part of the same: Lambda's retries and the failure queue, then ``principal``'s right to
    invoke the function from ``source_arn(account)`` (kept when an earlier deploy granted it). Returns
    (account, the function's ARN)."""
    from botocore.exceptions import ClientError

    lambda_client = session.client("lambda")
    lambda_client.put_function_event_invoke_config(
        FunctionName=function_name,
        MaximumRetryAttempts=ASYNC_RETRY_ATTEMPTS,
        DestinationConfig={"OnFailure": {"Destination": queue_arn}},
    )
    account = session.client("sts").get_caller_identity()["Account"]
    try:
        lambda_client.add_permission(
            FunctionName=function_name,
            StatementId=statement_id,
            Action="lambda:InvokeFunction",
            Principal=principal,
            SourceArn=source_arn(account),
            SourceAccount=account,
        )
    except ClientError as error:
        if error.response["Error"]["Code"] != "ResourceConflictException":  # granted by an earlier deploy
            raise
    return account, lambda_client.get_function(FunctionName=function_name)["Configuration"]["FunctionArn"]
