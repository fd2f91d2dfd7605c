"""Album uploads reach process_photo_upload on both deploy paths (docs/deploy.md): S3's ObjectCreated events of
the avatar bucket's ``photo-uploads/`` prefix invoke the function, S3 may invoke it (a resource policy bound to
the bucket and the account), and a failed invocation goes to the infra stack's PhotoUploadFailureQueue after
Lambda's retries. The bucket lives in the infra stack and the function in Chalice's, so neither CloudFormation
stack can declare the notification on its own: ``make deploy`` sets it with the API (:func:`connect`), the
pipeline with a small custom resource in its merge template (:func:`merge_resources`).
"""

from __future__ import annotations

import async_invocation

FUNCTION = "process_photo_upload"
PREFIX = "photo-uploads/"
EVENTS = ["s3:ObjectCreated:*"]
NOTIFICATION_ID = "album-uploads"


def notification(function_arn: str) -> dict:
    """The bucket's notification configuration: album uploads to the function, nothing else."""
    return {
        "LambdaFunctionConfigurations": [
            {
                "Id": NOTIFICATION_ID,
                "LambdaFunctionArn": function_arn,
                "Events": EVENTS,
                "Filter": {"Key": {"FilterRules": [{"Name": "prefix", "Value": PREFIX}]}},
            }
        ]
    }


def connect(session, function_name: str, outputs: dict[str, str]) -> None:
    """``make deploy``: the failure destination, S3's right to invoke the function, then the notification (S3
    checks that right when the notification is set)."""
    bucket = outputs["AvatarBucketName"]
    account, function_arn = async_invocation.grant(
        session,
        function_name,
        outputs["PhotoUploadFailureQueueArn"],
        NOTIFICATION_ID,
        "s3.amazonaws.com",
        lambda _account: f"arn:aws:s3:::{bucket}",
    )
    session.client("s3").put_bucket_notification_configuration(
        Bucket=bucket, NotificationConfiguration=notification(function_arn), ExpectedBucketOwner=account
    )


# The custom resource's code (inline, so the pipeline needs no artifact of its own): it sets the notification on
# create and update and removes it on delete, answering CloudFormation through cfnresponse either way.
_SET_NOTIFICATION = """
import boto3, cfnresponse

def handler(event, context):
    props = event["ResourceProperties"]
    config = {}
    if event["RequestType"] != "Delete":
        config = {"LambdaFunctionConfigurations": [{
            "Id": props["Id"], "LambdaFunctionArn": props["FunctionArn"], "Events": props["Events"],
            "Filter": {"Key": {"FilterRules": [{"Name": "prefix", "Value": props["Prefix"]}]}}}]}
    try:
        boto3.client("s3").put_bucket_notification_configuration(
            Bucket=props["Bucket"], NotificationConfiguration=config)
        cfnresponse.send(event, context, cfnresponse.SUCCESS, {}, props["Bucket"] + "/" + props["Prefix"])
    except Exception as error:
        cfnresponse.send(event, context, cfnresponse.FAILED, {"Error": str(error)[:200]})
""".strip()


def merge_resources(function_logical_id: str) -> tuple[dict, dict]:
    """(parameters, resources) of the pipeline's merge template for the album's uploads."""
    parameters = {
        "AvatarBucketName": {
            "Type": "String",
            "AllowedPattern": r"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$",
            "Description": "Output AvatarBucketName of the stage's infra/template.yaml stack",
        },
        "PhotoUploadFailureQueueArn": async_invocation.queue_parameter("PhotoUploadFailureQueueArn"),
    }
    bucket_arn = {"Fn::Sub": "arn:${AWS::Partition}:s3:::${AvatarBucketName}"}
    resources = {
        "PhotoUploadsInvokeConfig": async_invocation.invoke_config(function_logical_id, "PhotoUploadFailureQueueArn"),
        "PhotoUploadsInvokePermission": async_invocation.invoke_permission(
            function_logical_id, "s3.amazonaws.com", bucket_arn
        ),
        "PhotoUploadsNotifierRole": {
            "Type": "AWS::IAM::Role",
            "Properties": {
                "AssumeRolePolicyDocument": {
                    "Version": "2012-10-17",
                    "Statement": [
                        {
                            "Effect": "Allow",
                            "Principal": {"Service": "lambda.amazonaws.com"},
                            "Action": "sts:AssumeRole",
                        }
                    ],
                },
                "Policies": [
                    {
                        "PolicyName": "bucket-notification",
                        "PolicyDocument": {
                            "Version": "2012-10-17",
                            "Statement": [
                                {"Effect": "Allow", "Action": "s3:PutBucketNotification", "Resource": bucket_arn},
                                {
                                    "Effect": "Allow",
                                    "Action": ["logs:CreateLogGroup", "logs:CreateLogStream", "logs:PutLogEvents"],
                                    "Resource": "*",
                                },
                            ],
                        },
                    }
                ],
            },
        },
        "PhotoUploadsNotifier": {
            "Type": "AWS::Lambda::Function",
            "Properties": {
                "Runtime": "python3.12",
                "Handler": "index.handler",
                "Timeout": 30,
                "Role": {"Fn::GetAtt": ["PhotoUploadsNotifierRole", "Arn"]},
                "Code": {"ZipFile": _SET_NOTIFICATION},
            },
        },
        "PhotoUploadsNotification": {
            "Type": "Custom::BucketNotification",
            "DependsOn": ["PhotoUploadsInvokePermission"],
            "Properties": {
                "ServiceToken": {"Fn::GetAtt": ["PhotoUploadsNotifier", "Arn"]},
                "Bucket": {"Ref": "AvatarBucketName"},
                "Id": NOTIFICATION_ID,
                "Prefix": PREFIX,
                "Events": EVENTS,
                "FunctionArn": {"Fn::GetAtt": [function_logical_id, "Arn"]},
            },
        },
    }
    return parameters, resources
