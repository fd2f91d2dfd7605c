"""Each Lambda function's deployed IAM policy, enforced on every AWS call the service makes while it runs as
that function, as AWS would enforce it.

The stack's functions and their policy files are read from one place, .chalice/config.json ("lambda_functions"
of each stage); app.py defines the handlers (tests/infra/test_iam.py checks that the two agree).

How: a botocore ``before-parameter-build`` handler on the process's one botocore session (chalicelib/aws.py:
every client of the service, PynamoDB's included, comes from it; the tests' own boto3 clients do not, so what a
test sets up is not checked). It turns each call into the IAM requests AWS authorises (action and resource ARN:
one per table of a batch, one per item of a transaction, one per object of a multi-object delete), evaluates
them against the policy of the function running (Allow/Deny, Action/NotAction and Resource/NotResource with
IAM's wildcards), and when one is not allowed raises the ClientError AWS answers (AccessDeniedException,
AccessDenied, AuthorizationError), so the service's own error handling runs as it would in AWS.

Why not moto's IAM enforcement: moto authorises most services' actions against the resource "*" only (it builds
ARNs for S3 alone), so a policy naming the wrong table, queue, parameter or topic would pass; and the service
uses one botocore session per process, whose credentials would have to change per function mid-test.

The names of the emulated account (tables "test-users", the queue "test-notifications", ...) are translated
to the deployed stage's before evaluation, so the committed policy files are evaluated as they are.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from botocore.exceptions import ClientError

from tests.utils.aws_env import ACCOUNT, APNS_APP, FCM_APP, REGION

ROOT = Path(__file__).resolve().parents[2]
CHALICE_CONFIG = ROOT / ".chalice" / "config.json"
ENFORCED_STAGE = "dev"
SMS = "*"  # the resource of a text to a phone number or of a phone-number check: no ARN, matched by "*" only

# What each service answers a caller its policy does not allow.
ACCESS_DENIED = {
    "dynamodb": ("AccessDeniedException", 400),
    "ssm": ("AccessDeniedException", 400),
    "sqs": ("AccessDenied", 403),
    "s3": ("AccessDenied", 403),
    "sns": ("AuthorizationError", 403),
}


def stage_functions(stage: str = ENFORCED_STAGE) -> dict[str, Path]:
    """Every Lambda function of the stage and its policy file: the one list the harness reads."""
    functions = json.loads(CHALICE_CONFIG.read_text())["stages"][stage]["lambda_functions"]
    return {name: ROOT / ".chalice" / entry["iam_policy_file"] for name, entry in functions.items()}


def load_policy(stage: str, function: str) -> dict:
    return json.loads(stage_functions(stage)[function].read_text())


def deployed_names(stage: str = ENFORCED_STAGE) -> dict[str, str]:
    """The emulated account's resource names -> the deployed stage's (as infra/template.yaml names them)."""
    from chalicelib.config import get_settings

    settings = get_settings()
    queue = settings.notifications_queue_url.rsplit("/", 1)[-1] if settings.notifications_queue_url else None
    names = {
        settings.users_table: f"invites-{stage}-users",
        settings.auth_table: f"invites-{stage}-auth",
        settings.events_table: f"invites-{stage}-events",
        settings.avatar_bucket: f"invites-{stage}-avatars-{ACCOUNT}",
        APNS_APP: f"invites-{stage}-apns",
        FCM_APP: f"invites-{stage}-fcm",
        settings.inbound_sms_topic_name: f"invites-{stage}-inbound-sms",
    }
    if queue:
        names[queue] = f"invites-{stage}-notifications"
    return names


# --- the policy evaluator ---------------------------------------------------------------------------------


def _pattern(text: str, case_sensitive: bool) -> re.Pattern:
    regex = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in text)
    return re.compile(f"^{regex}$", 0 if case_sensitive else re.IGNORECASE)


def _listed(value) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def _matches(statement: dict, key: str, value: str, case_sensitive: bool) -> bool:
    if key in statement:
        return any(_pattern(p, case_sensitive).match(value) for p in _listed(statement[key]))
    return not any(_pattern(p, case_sensitive).match(value) for p in _listed(statement[f"Not{key}"]))


def request_context(action: str, account: str = ACCOUNT) -> dict[str, str]:
    """The condition keys AWS sets on a request of the emulated account, as far as the policies use them."""
    context = {"aws:PrincipalAccount": ACCOUNT}
    if action.startswith("s3:"):
        context["s3:ResourceAccount"] = account  # the bucket owner's
    return context


def _variables(value: str, context: dict[str, str]) -> str:
    return re.sub(r"\$\{([^}]+)\}", lambda m: context.get(m.group(1), "\0"), value)  # unknown: never equal


CONDITION_OPERATORS = {
    "StringEquals": lambda value, wanted: value == wanted,
    "StringNotEquals": lambda value, wanted: value != wanted,
    "ArnLike": lambda value, wanted: bool(_pattern(wanted, True).match(value)),
}


def _conditions_hold(statement: dict, context: dict[str, str]) -> bool:
    for operator, tests in statement.get("Condition", {}).items():
        if operator not in CONDITION_OPERATORS:
            raise NotImplementedError(f"the evaluator has no {operator}; {statement.get('Sid')} uses it")
        for key, wanted in tests.items():
            if key not in context:  # a key the request lacks: the condition does not hold
                return False
            wanted = [_variables(w, context) for w in _listed(wanted)]
            if not any(CONDITION_OPERATORS[operator](context[key], w) for w in wanted):
                return False
    return True


def allows(policy: dict, action: str, resource: str, context: dict[str, str] | None = None) -> bool:
    """An identity policy's answer for one request: an explicit Deny wins, else an Allow is needed."""
    context = request_context(action) if context is None else context
    allowed = False
    for statement in policy["Statement"]:
        if not (_matches(statement, "Action", action, False) and _matches(statement, "Resource", resource, True)):
            continue
        if not _conditions_hold(statement, context):
            continue
        if statement["Effect"] == "Deny":
            return False
        allowed = True
    return allowed


# --- what AWS authorises for a call -----------------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    action: str
    resource: str


def _table(name: str, index: str | None = None) -> str:
    arn = f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{name}"
    return f"{arn}/index/{index}" if index else arn


TRANSACT_ITEM_ACTION = {
    "Put": "PutItem",
    "Update": "UpdateItem",
    "Delete": "DeleteItem",
    "ConditionCheck": "ConditionCheckItem",
}
BATCH_ACTION = {
    "sqs:SendMessageBatch": "sqs:SendMessage",
    "sqs:DeleteMessageBatch": "sqs:DeleteMessage",
    "sqs:ChangeMessageVisibilityBatch": "sqs:ChangeMessageVisibility",
    "sns:PublishBatch": "sns:Publish",
}


def _dynamodb(operation: str, params: dict) -> list[Request]:
    if operation in ("BatchGetItem", "BatchWriteItem"):
        return [Request(f"dynamodb:{operation}", _table(name)) for name in params["RequestItems"]]
    if operation == "TransactWriteItems":  # IAM authorises each item's own action on its table
        return [
            Request(f"dynamodb:{TRANSACT_ITEM_ACTION[kind]}", _table(item[kind]["TableName"]))
            for item in params["TransactItems"]
            for kind in item
        ]
    if operation == "TransactGetItems":
        return [Request("dynamodb:GetItem", _table(item["Get"]["TableName"])) for item in params["TransactItems"]]
    return [Request(f"dynamodb:{operation}", _table(params["TableName"], params.get("IndexName")))]


def _s3(operation: str, params: dict) -> list[Request]:
    bucket = f"arn:aws:s3:::{params['Bucket']}"
    if operation == "DeleteObjects":
        return [
            Request("s3:DeleteObjectVersion" if "VersionId" in item else "s3:DeleteObject", f"{bucket}/{item['Key']}")
            for item in params["Delete"]["Objects"]
        ]
    if operation == "ListObjectVersions":
        return [Request("s3:ListBucketVersions", bucket)]
    if operation in ("ListObjects", "ListObjectsV2"):
        return [Request("s3:ListBucket", bucket)]
    if operation == "HeadObject":
        return [Request("s3:GetObject", f"{bucket}/{params['Key']}")]
    if operation == "CreateBucket":  # botocore signs a presigned POST on this model (the service makes no bucket):
        return []  # the upload is authorised when it is made (tests/infra/test_iam.py, performed_by_aws)
    if operation == "CopyObject":  # IAM authorises reading the source and writing the copy
        source = params["CopySource"]  # "bucket/key" (URL-quoted) once botocore has built it from the dict
        if isinstance(source, dict):
            source = f"{source['Bucket']}/{source['Key']}"
        return [
            Request("s3:GetObject", f"arn:aws:s3:::{unquote(source.split('?')[0])}"),
            Request("s3:PutObject", f"{bucket}/{params['Key']}"),
        ]
    if operation == "DeleteObject" and params.get("VersionId"):
        return [Request("s3:DeleteObjectVersion", f"{bucket}/{params['Key']}")]
    if "Key" in params:
        return [Request(f"s3:{operation}", f"{bucket}/{params['Key']}")]
    raise AssertionError(f"tests/utils/iam.py has no resource for s3:{operation}; add one")


PHONE_NUMBER_OPERATIONS = ("CheckIfPhoneNumberIsOptedOut", "OptInPhoneNumber")


def _sns(operation: str, params: dict) -> list[Request]:
    action = BATCH_ACTION.get(f"sns:{operation}", f"sns:{operation}")
    resource = (
        params.get("TopicArn")
        or params.get("TargetArn")
        or params.get("EndpointArn")
        or params.get("PlatformApplicationArn")
        or params.get("SubscriptionArn")
    )
    if resource is None and (operation in PHONE_NUMBER_OPERATIONS or "PhoneNumber" in params):
        resource = SMS
    if resource is None:
        raise AssertionError(f"tests/utils/iam.py has no resource for sns:{operation}; add one")
    return [Request(action, resource)]


def _sqs(operation: str, params: dict) -> list[Request]:
    action = BATCH_ACTION.get(f"sqs:{operation}", f"sqs:{operation}")
    name = params["QueueName"] if "QueueName" in params else urlparse(params["QueueUrl"]).path.rsplit("/", 1)[-1]
    return [Request(action, f"arn:aws:sqs:{REGION}:{ACCOUNT}:{name}")]


def _ssm(operation: str, params: dict) -> list[Request]:
    names = params["Names"] if "Names" in params else [params["Name"]]
    return [
        Request(f"ssm:{operation}", f"arn:aws:ssm:{REGION}:{ACCOUNT}:parameter/{name.lstrip('/')}") for name in names
    ]


REQUESTS_OF = {"dynamodb": _dynamodb, "s3": _s3, "sns": _sns, "sqs": _sqs, "ssm": _ssm}


def requests_of(service: str, operation: str, params: dict) -> list[Request]:
    """The IAM requests AWS authorises for one API call."""
    if service not in REQUESTS_OF:
        raise AssertionError(f"tests/utils/iam.py does not know {service}:{operation}; add the service")
    return REQUESTS_OF[service](operation, params)


# --- enforcement --------------------------------------------------------------------------------------------


@dataclass
class Decision:
    function: str
    call: str  # service:Operation as the code made it
    request: Request
    allowed: bool


@dataclass
class IamEnforcer:
    """Runs code as one function of the stack at a time (``with iam.runs_as("send_notifications"): ...``),
    denying what its policy does not allow. ``decisions`` keeps every request and its answer; ``policies``
    may be replaced per function (the statement-removal test)."""

    stage: str = ENFORCED_STAGE
    function: str | None = None
    decisions: list[Decision] = field(default_factory=list)
    policies: dict[str, dict] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self):
        self.policies = {function: load_policy(self.stage, function) for function in stage_functions(self.stage)}

    @contextmanager
    def runs_as(self, function: str) -> Iterator[None]:
        """Code inside runs as ``function``: its own process (nothing cached from another function) and role."""
        from chalicelib import aws, pinkey

        assert function in self.policies, f"{function} is not a function of .chalice/config.json"
        previous = self.function
        pinkey.forget()
        aws.reset_clients()
        self.names = deployed_names(self.stage)
        self.function = function
        try:
            yield
        finally:
            self.function = previous
            pinkey.forget()
            aws.reset_clients()

    def deployed(self, text: str) -> str:
        for emulated, deployed in self.names.items():
            text = re.sub(rf"(?<![\w-]){re.escape(emulated)}(?![\w-])", deployed, text)
        return text

    def check(self, params, model, **_) -> None:
        function = self.function
        if function is None:
            return
        service = model.service_model.endpoint_prefix
        if service == "email":  # SES's endpoint prefix; its signing name is ses
            service = "ses"
        call = f"{service}:{model.name}"
        denied = None
        for request in requests_of(service, model.name, params):
            request = Request(request.action, self.deployed(request.resource))
            allowed = allows(self.policies[function], request.action, request.resource)
            with self._lock:
                self.decisions.append(Decision(function, call, request, allowed))
            if not allowed and denied is None:
                denied = request
        if denied is not None:
            code, status = ACCESS_DENIED[service]
            message = (
                f"User: arn:aws:sts::{ACCOUNT}:assumed-role/invites-{self.stage}-{function}/{function} is not "
                f"authorized to perform: {denied.action} on resource: {denied.resource}"
            )
            raise ClientError(
                {"Error": {"Code": code, "Message": message}, "ResponseMetadata": {"HTTPStatusCode": status}},
                model.name,
            )

    def denied(self) -> list[Decision]:
        return [decision for decision in self.decisions if not decision.allowed]

    def performed_by(self, function: str) -> list[Request]:
        return [decision.request for decision in self.decisions if decision.function == function]

    def install(self) -> None:
        from chalicelib import aws

        aws.session().register("before-parameter-build", self.check, unique_id="iam-enforcer")
        aws.reset_clients()  # each client copies the session's handlers when it is made

    def uninstall(self) -> None:
        from chalicelib import aws

        aws.session().unregister("before-parameter-build", unique_id="iam-enforcer")
        aws.reset_clients()


@pytest.fixture
def iam(aws, override_settings):
    """A deployed stage (pin key in SSM, the notification queue) whose functions run under their policies."""
    from chalicelib.config import get_settings
    from tests.utils.notifications import use_queue
    from tests.utils.pin_key import KEY, PARAMETER, STOP_LIST_PARAMETER, put_pin_key, put_stop_list_key

    use_queue(override_settings)
    put_pin_key(KEY)
    put_stop_list_key()
    override_settings(  # deployed stages have a text budget (the deploy refuses one without)
        stage=ENFORCED_STAGE,
        pin_key_parameter=PARAMETER,
        stop_list_key_parameter=STOP_LIST_PARAMETER,
        sms_monthly_segments=100_000,
    )
    override_settings(sms_monthly_segments=100_000)  # a deployed stage counts its texts in a monthly budget
    get_settings()  # cached now, before a test client's request patches the environment with its stage's
    enforcer = IamEnforcer()
    enforcer.install()
    yield enforcer
    enforcer.uninstall()
