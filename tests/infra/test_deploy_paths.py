"""Both deploy paths give the same stack: `make deploy` (chalice deploy, scripts/deploy.py) and the CloudFormation
pipeline (chalice package with scripts/pipeline.py's merge template, docs/deploy.md).

The functions `chalice deploy` creates are read from Chalice's own application graph (the models its deployer
turns into API calls); the pipeline's from the merge template, whose names tests/infra/test_package.py also finds
in the packaged sam.json. Against those names: every policy lets its function write its log group, every
Lambda alarm of infra/template.yaml watches a function that exists, prod cannot go without its web ACL, and
replies by text have a failure destination on both paths.
"""

from __future__ import annotations

import json
import re

import pytest
from botocore.stub import Stubber

from tests.infra.scripts import load
from tests.infra.test_template import load_template
from tests.utils.iam import allows, load_policy

STAGES = ("dev", "prod")
ACCOUNT, REGION = "210987654321", "eu-west-1"


def chalice_deploy_names(stage: str) -> dict[str, str]:
    """Function -> name, as `chalice deploy` of the stage creates it."""
    from chalice.config import Config
    from chalice.deploy import models
    from chalice.deploy.deployer import ApplicationGraphBuilder

    from app import app

    pipeline = load("pipeline")
    disk = json.loads(pipeline.CONFIG.read_text())
    config = Config.create(
        chalice_stage=stage, app_name="invites", project_dir=str(pipeline.ROOT), config_from_disk=disk, chalice_app=app
    )

    def walk(resource):
        for dependency in resource.dependencies():
            yield dependency
            yield from walk(dependency)

    graph = ApplicationGraphBuilder().build(config, stage)
    return {r.resource_name: r.function_name for r in walk(graph) if isinstance(r, models.LambdaFunction)}


def pipeline_names(stage: str) -> dict[str, str]:
    """Function -> name, as the pipeline's merge template sets it on chalice package's resources."""
    pipeline = load("pipeline")
    merged = pipeline.merge_template(stage, json.loads(pipeline.STAGES_FILE.read_text())[stage])
    return {
        function: merged["Resources"][pipeline.logical_id(function)]["Properties"]["FunctionName"]
        for function in pipeline.function_names(stage)
    }


def _resolved(value, stage: str) -> str:
    text = value["Fn::Sub"] if isinstance(value, dict) else value
    for name, replacement in {"${NamePrefix}": "invites", "${ApiName}": "invites", "${Stage}": stage}.items():
        text = text.replace(name, replacement)
    return text


@pytest.mark.parametrize("stage", STAGES)
def test_both_paths_name_the_functions_alike(stage):
    deployed = chalice_deploy_names(stage)
    assert set(deployed) == set(json.loads(load("pipeline").CONFIG.read_text())["stages"][stage]["lambda_functions"])
    assert pipeline_names(stage) == deployed
    assert deployed["api_handler"] == f"invites-{stage}"


@pytest.mark.parametrize("stage", STAGES)
def test_every_function_may_write_its_own_log_group_and_no_other(stage):
    names = chalice_deploy_names(stage)
    for function, name in names.items():
        group = f"arn:aws:logs:{REGION}:{ACCOUNT}:log-group:/aws/lambda/{name}"
        policy = load_policy(stage, function)
        assert allows(policy, "logs:CreateLogStream", group), function
        assert allows(policy, "logs:PutLogEvents", f"{group}:log-stream:2026/11/26/[$LATEST]ab"), function
        for other in set(names.values()) - {name}:
            other_group = f"arn:aws:logs:{REGION}:{ACCOUNT}:log-group:/aws/lambda/{other}"
            assert not allows(policy, "logs:PutLogEvents", f"{other_group}:log-stream:x"), (function, other)


@pytest.mark.parametrize("stage", STAGES)
def test_every_lambda_alarm_watches_a_function_that_exists_and_each_function_has_its_alarms(stage):
    names = set(chalice_deploy_names(stage).values())
    watched: dict[str, set[str]] = {}
    for logical, resource in load_template()["Resources"].items():
        if resource["Type"] != "AWS::CloudWatch::Alarm" or resource["Properties"].get("Namespace") != "AWS/Lambda":
            continue
        dimensions = {d["Name"]: d["Value"] for d in resource["Properties"]["Dimensions"]}
        function = _resolved(dimensions["FunctionName"], stage)
        assert function in names, f"{logical} watches {function}, which neither deploy path creates"
        watched.setdefault(function, set()).add(resource["Properties"]["MetricName"])
    assert watched == {name: {"Errors", "Throttles"} for name in names}


def test_the_web_acl_is_required_on_prod_on_both_paths(tmp_path):
    pipeline, deploy = load("pipeline"), load("deploy")
    stages = json.loads(pipeline.STAGES_FILE.read_text())
    prod = pipeline.merge_template("prod", stages["prod"])
    parameter = prod["Parameters"]["ApiWebAclArn"]
    assert "Default" not in parameter  # the pipeline cannot leave it out
    assert not re.match(parameter["AllowedPattern"], "")
    assert re.match(parameter["AllowedPattern"], f"arn:aws:wafv2:{REGION}:{ACCOUNT}:regional/webacl/invites-prod-api/1")
    assert "Condition" not in prod["Resources"]["ApiWebAclAssociation"]
    dev = pipeline.merge_template("dev", stages["dev"])
    assert dev["Resources"]["ApiWebAclAssociation"]["Condition"] == "HasApiWebAcl"
    with pytest.raises(deploy.Stop, match="web ACL"):
        deploy.require_web_acl("prod", {}, emulated=False)
    deploy.require_web_acl("prod", {"ApiWebAclArn": "arn:aws:wafv2:x"}, emulated=False)
    deploy.require_web_acl("dev", {}, emulated=False)


def test_replies_by_text_have_a_failure_destination_and_an_alarm_on_both_paths():
    pipeline, deploy = load("pipeline"), load("deploy")
    template = load_template()
    resources = template["Resources"]
    assert resources["InboundSmsFailuresAlarm"]["Properties"]["Dimensions"][0]["Value"] == {
        "Fn::GetAtt": ["InboundSmsFailureQueue", "QueueName"]
    }
    output = template["Outputs"]["InboundSmsFailureQueueArn"]["Value"]
    assert output == {"Fn::GetAtt": ["InboundSmsFailureQueue", "Arn"]}
    config = pipeline.merge_template("prod", json.loads(pipeline.STAGES_FILE.read_text())["prod"])["Resources"][
        "InboundSmsInvokeConfig"
    ]["Properties"]
    assert config["FunctionName"] == {"Ref": pipeline.logical_id("handle_inbound_sms")}
    assert config["DestinationConfig"]["OnFailure"]["Destination"] == {"Ref": "InboundSmsFailureQueueArn"}

    import boto3

    session = boto3.session.Session(region_name=REGION, aws_access_key_id="x", aws_secret_access_key="x")
    client = session.client("lambda")
    queue = f"arn:aws:sqs:{REGION}:{ACCOUNT}:invites-prod-inbound-sms-failures"
    with Stubber(client) as stub:
        stub.add_response(
            "put_function_event_invoke_config",
            {},
            {
                "FunctionName": "invites-prod-handle_inbound_sms",
                "MaximumRetryAttempts": 2,
                "DestinationConfig": {"OnFailure": {"Destination": queue}},
            },
        )
        session.client = lambda service: client
        deploy.set_inbound_failure_destination(session, "prod", {"InboundSmsFailureQueueArn": queue})
        stub.assert_no_pending_responses()


def _concurrency_session(unreserved: int, held: dict[str, int]):
    import boto3

    session = boto3.session.Session(region_name=REGION, aws_access_key_id="x", aws_secret_access_key="x")
    client = session.client("lambda")
    stub = Stubber(client)
    stub.add_response(
        "get_account_settings", {"AccountLimit": {"UnreservedConcurrentExecutions": unreserved}}, {}
    )
    for function in ("send_notifications", "remind_upcoming_events"):
        name = f"invites-prod-{function}"
        if function in held:
            stub.add_response(
                "get_function_concurrency", {"ReservedConcurrentExecutions": held[function]}, {"FunctionName": name}
            )
        else:
            stub.add_client_error(
                "get_function_concurrency", "ResourceNotFoundException", expected_params={"FunctionName": name}
            )
    stub.activate()
    session.client = lambda service: client
    return session


def test_the_deploy_checks_the_accounts_unreserved_concurrency_before_reserving():
    deploy = load("deploy")
    prod = {"reserved_concurrency": {"send_notifications": 20, "remind_upcoming_events": 1}}
    # a new account: concurrency quota 120 leaves 99 after reserving 21, which AWS refuses
    with pytest.raises(deploy.Stop, match="120 unreserved.*21 more"):
        deploy.check_unreserved_concurrency(_concurrency_session(120, {}), "prod", prod)
    deploy.check_unreserved_concurrency(_concurrency_session(121, {}), "prod", prod)
    # a redeploy: what the functions already hold is not asked for again
    deploy.check_unreserved_concurrency(
        _concurrency_session(100, {"send_notifications": 20, "remind_upcoming_events": 1}), "prod", prod
    )


def _prod_resources_failing_to(queue: str, function: str) -> tuple[dict, str]:
    """The prod merge template's resources and the logical id of ``function``, once the infra stack is seen to
    give the ARN of its failure queue (the resource ``queue``) as the output ``<queue>Arn``."""
    pipeline = load("pipeline")
    assert load_template()["Outputs"][f"{queue}Arn"]["Value"] == {"Fn::GetAtt": [queue, "Arn"]}
    merged = pipeline.merge_template("prod", json.loads(pipeline.STAGES_FILE.read_text())["prod"])
    return merged["Resources"], pipeline.logical_id(function)


def _stubbed_deploy(function: str, failures: str, service: str):
    """A session whose clients are stubbed for what the deploy asks when it connects the prod ``function`` to
    its source, in the order it asks: the failure destination (the queue ``invites-prod-<failures>``), the
    account, the invoke permission (granted before: fine) and the function's ARN. The test adds the calls of
    ``service``, the source's. Returns the session, the stubs by service, the function's ARN and the queue's."""
    import boto3

    session = boto3.session.Session(region_name=REGION, aws_access_key_id="x", aws_secret_access_key="x")
    clients = {name: session.client(name) for name in ("lambda", "sts", service)}
    session.client = lambda name: clients[name]
    name = f"invites-prod-{function}"
    arn = f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:{name}"
    queue = f"arn:aws:sqs:{REGION}:{ACCOUNT}:invites-prod-{failures}"
    stubs = {name: Stubber(client) for name, client in clients.items()}
    stubs["lambda"].add_response(
        "put_function_event_invoke_config",
        {},
        {"FunctionName": name, "MaximumRetryAttempts": 2, "DestinationConfig": {"OnFailure": {"Destination": queue}}},
    )
    stubs["sts"].add_response("get_caller_identity", {"Account": ACCOUNT}, {})
    stubs["lambda"].add_client_error("add_permission", "ResourceConflictException")
    stubs["lambda"].add_response("get_function", {"Configuration": {"FunctionArn": arn}}, {"FunctionName": name})
    return session, stubs, arn, queue


def _connect_as_the_deploy_does(connect, session, stubs: dict, function: str, outputs: dict) -> None:
    """Run the deploy's ``connect`` of the prod ``function`` against the stubs; every call they expect is made."""
    for stub in stubs.values():
        stub.activate()
    connect(session, load("pipeline").function_names("prod")[function], outputs)
    for stub in stubs.values():
        stub.assert_no_pending_responses()


def test_album_uploads_reach_their_function_with_a_failure_destination_on_both_paths():
    deploy, uploads = load("deploy"), load("photo_uploads")
    resources, function = _prod_resources_failing_to("PhotoUploadFailureQueue", "process_photo_upload")
    notified = resources["PhotoUploadsNotification"]["Properties"]
    assert notified["FunctionArn"] == {"Fn::GetAtt": [function, "Arn"]}
    assert (notified["Bucket"], notified["Prefix"]) == ({"Ref": "AvatarBucketName"}, "photo-uploads/")
    assert resources["PhotoUploadsInvokePermission"]["Properties"]["Principal"] == "s3.amazonaws.com"
    config = resources["PhotoUploadsInvokeConfig"]["Properties"]
    assert config["DestinationConfig"]["OnFailure"]["Destination"] == {"Ref": "PhotoUploadFailureQueueArn"}

    session, stubs, arn, queue = _stubbed_deploy("process_photo_upload", "photo-upload-failures", "s3")
    bucket = f"invites-prod-avatars-{ACCOUNT}"
    expected = uploads.notification(arn)
    assert expected["LambdaFunctionConfigurations"][0]["Filter"]["Key"]["FilterRules"] == [
        {"Name": "prefix", "Value": "photo-uploads/"}
    ]
    stubs["s3"].add_response(
        "put_bucket_notification_configuration",
        {},
        {"Bucket": bucket, "NotificationConfiguration": expected, "ExpectedBucketOwner": ACCOUNT},
    )
    outputs = {"AvatarBucketName": bucket, "PhotoUploadFailureQueueArn": queue}
    _connect_as_the_deploy_does(uploads.connect, session, stubs, "process_photo_upload", outputs)
    with open(deploy.__file__) as script:  # the deploy runs it after chalice deploy
        assert "photo_uploads.connect(" in script.read()


def test_the_pipeline_s_notifier_sets_the_notification_and_answers_cloudformation(monkeypatch):
    import sys
    import types

    uploads = load("photo_uploads")
    code = uploads.merge_resources("Fn")[1]["PhotoUploadsNotifier"]["Properties"]["Code"]["ZipFile"]
    calls, answers = [], []
    s3 = types.SimpleNamespace(put_bucket_notification_configuration=lambda **kwargs: calls.append(kwargs))
    monkeypatch.setitem(sys.modules, "boto3", types.SimpleNamespace(client=lambda service: s3))
    monkeypatch.setitem(
        sys.modules,
        "cfnresponse",
        types.SimpleNamespace(SUCCESS="SUCCESS", FAILED="FAILED", send=lambda *args: answers.append(args[2])),
    )
    namespace: dict = {}
    exec(compile(code, "index.py", "exec"), namespace)  # noqa: S102 - the template's own inline code
    props = {"Bucket": "b", "Id": "album-uploads", "Prefix": "photo-uploads/", "Events": ["s3:ObjectCreated:*"]}
    namespace["handler"]({"RequestType": "Create", "ResourceProperties": {**props, "FunctionArn": "arn:f"}}, None)
    namespace["handler"]({"RequestType": "Delete", "ResourceProperties": {**props, "FunctionArn": "arn:f"}}, None)
    assert calls[0] == {"Bucket": "b", "NotificationConfiguration": uploads.notification("arn:f")}
    assert calls[1] == {"Bucket": "b", "NotificationConfiguration": {}}
    assert answers == ["SUCCESS", "SUCCESS"]


def test_texts_delivery_logs_reach_their_function_with_a_failure_destination_on_both_paths():
    deploy, receipts = load("deploy"), load("text_receipts")
    resources, function = _prod_resources_failing_to("TextReceiptFailureQueue", "record_text_receipts")
    groups = [resources[name]["Properties"]["LogGroupName"] for name in ("TextReceiptsDelivered", "TextReceiptsFailed")]
    assert groups == [
        {"Fn::Sub": "sns/${AWS::Region}/${AWS::AccountId}/DirectPublishToPhoneNumber"},
        {"Fn::Sub": "sns/${AWS::Region}/${AWS::AccountId}/DirectPublishToPhoneNumber/Failure"},
    ]
    assert resources["TextReceiptsDelivered"]["Properties"]["DestinationArn"] == {"Fn::GetAtt": [function, "Arn"]}
    assert resources["TextReceiptsInvokePermission"]["Properties"]["Principal"] == "logs.amazonaws.com"
    config = resources["TextReceiptsInvokeConfig"]["Properties"]
    assert config["DestinationConfig"]["OnFailure"]["Destination"] == {"Ref": "TextReceiptFailureQueueArn"}

    session, stubs, arn, queue = _stubbed_deploy("record_text_receipts", "text-receipt-failures", "logs")
    base = f"sns/{REGION}/{ACCOUNT}/DirectPublishToPhoneNumber"
    for group in (base, f"{base}/Failure"):
        stubs["logs"].add_response(
            "put_subscription_filter",
            {},
            {"logGroupName": group, "filterName": "invites-text-receipts", "filterPattern": "", "destinationArn": arn},
        )
    outputs = {"TextReceiptFailureQueueArn": queue}
    _connect_as_the_deploy_does(receipts.connect, session, stubs, "record_text_receipts", outputs)
    with open(deploy.__file__) as script:  # the deploy runs it after the log groups are made and SNS logs to them
        text = script.read()
        assert text.index("keep_delivery_logs(session, stage)") < text.index("text_receipts.connect(")
