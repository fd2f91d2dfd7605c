"""`make run`: the API on an embedded AWS emulator, built from the production template.

1. moto in server mode, in this process, on 127.0.0.1:$MOTO_PORT (default 5000), with every moto
   action run under one lock so conditional writes are as atomic as DynamoDB's;
2. the stack of ``infra/template.yaml`` created in it through moto's CloudFormation, plus what
   CloudFormation cannot express: the SNS APNS platform application;
3. ``chalice local`` (through scripts/chalice_cli.py, which answers unknown paths 404 as the deployed
   gateway does) on 127.0.0.1:$PORT (default 8000) as a child process pointed at the emulator,
   printing every SMS and push it sends, so a person can log in with the pin.

Ctrl-C (SIGINT), SIGTERM or SIGHUP stops both. Environment: PORT, MOTO_PORT; AUTORELOAD=1 restarts
the API when a file changes (off by default: without the ``watchdog`` package chalice polls every
file under the project, .venv included, each second, and restarts on any write there, test caches
too, dropping requests in flight); MOTO_LOG=1 prints every emulator request.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "infra" / "template.yaml"
HOST = "127.0.0.1"
REGION = "us-east-1"
NAME_PREFIX, STAGE = "invites", "local"
STACK_NAME = f"{NAME_PREFIX}-{STAGE}"
APNS_APP_NAME = f"{NAME_PREFIX}-{STAGE}-apns"
FCM_APP_NAME = f"{NAME_PREFIX}-{STAGE}-fcm"
FAKE_CREDENTIALS = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing"}
DEMO_PHONE = "+14155550100"

# Stack output -> the app's setting (chalicelib/config.py) it fills.
OUTPUT_SETTINGS = {
    "UsersTableName": "USERS_TABLE",
    "AuthTableName": "AUTH_TABLE",
    "EventsTableName": "EVENTS_TABLE",
    "AvatarBucketName": "AVATAR_BUCKET",
    "ApnsPlatformApplicationArn": "APNS_PLATFORM_APPLICATION_ARN",
    "FcmPlatformApplicationArn": "FCM_PLATFORM_APPLICATION_ARN",
}
# Outputs under a condition of the template (a stack made without a platform application has none).
PUSH_OUTPUTS = {"ApnsPlatformApplicationArn", "FcmPlatformApplicationArn"}

# What moto's CloudFormation cannot create, dropped from the local copy only: {resource type: property names},
# or ALL for the whole resource (then also every resource, output and condition that refers to it).
# moto 5.2.5 skips these types with a warning and then fails on any output that refers to them. Locally the
# avatars are served by the emulator itself (make_avatars_public), there are no alarms, and notifications are
# sent inline (no NOTIFICATIONS_QUEUE_URL: see app_environment), so nothing of the app misses them.
# See apply_ignored_properties for what moto accepts but does not apply.
ALL = frozenset({"*"})
UNSUPPORTED_LOCALLY: dict[str, frozenset[str]] = {
    "AWS::CloudFront::Distribution": ALL,
    "AWS::CloudFront::OriginAccessControl": ALL,
    "AWS::S3::BucketPolicy": ALL,  # CloudFront-only; locally make_avatars_public sets a public-read one
    "AWS::CloudWatch::Alarm": ALL,
    "AWS::SNS::Subscription": ALL,
    "AWS::SNS::TopicPolicy": ALL,  # moto has no CloudFormation support for it; locally nothing publishes inbound texts
    "AWS::WAFv2::WebACL": ALL,  # moto has no CloudFormation support for it
}

READY_TIMEOUT_SECONDS = 60
STOP_TIMEOUT_SECONDS = 5


class Stop(Exception):
    """Raised in the main thread by SIGINT, SIGTERM or SIGHUP."""


def _on_signal(signum, _frame):
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)  # one stop at a time; cleanup has its own timeouts
    raise Stop(signum)


def say(text: str) -> None:
    print(text, flush=True)


# --- the template -----------------------------------------------------------------------------------


def load_template(path: Path = TEMPLATE) -> dict:
    """The template as a dict; short-form tags become their long form (``!Ref X`` -> ``{"Ref": "X"}``)."""
    import yaml

    class CfnLoader(yaml.SafeLoader):
        pass

    def construct(loader, tag_suffix, node):
        if isinstance(node, yaml.ScalarNode):
            value = loader.construct_scalar(node)
        elif isinstance(node, yaml.SequenceNode):
            value = loader.construct_sequence(node, deep=True)
        else:
            value = loader.construct_mapping(node, deep=True)
        if tag_suffix in ("Ref", "Condition"):
            return {tag_suffix: value}
        if tag_suffix == "GetAtt" and isinstance(value, str):
            value = value.split(".", 1)
        return {f"Fn::{tag_suffix}": value}

    CfnLoader.add_multi_constructor("!", construct)
    return yaml.load(path.read_text(), Loader=CfnLoader)  # noqa: S506 - SafeLoader subclass


def _refers_to(value, names: set[str]) -> bool:
    """True when a template fragment refers to one of ``names`` (Ref, GetAtt, DependsOn or a ${...} of Sub)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "Ref" and inner in names:
                return True
            if key == "Fn::GetAtt" and (inner[0] if isinstance(inner, list) else str(inner).split(".")[0]) in names:
                return True
            if key == "Fn::Sub":
                text = inner[0] if isinstance(inner, list) else inner
                if any(f"${{{name}}}" in text or f"${{{name}." in text for name in names):
                    return True
            if _refers_to(inner, names):
                return True
        return False
    if isinstance(value, list):
        return any(_refers_to(inner, names) for inner in value)
    return False


def local_template_body(template: dict) -> str:
    """The production template minus what moto cannot create (UNSUPPORTED_LOCALLY)."""
    resources = template.get("Resources", {})
    dropped = {name for name, r in resources.items() if UNSUPPORTED_LOCALLY.get(r.get("Type")) == ALL}
    while True:  # whatever refers to a dropped resource goes too
        more = {
            name
            for name, resource in resources.items()
            if name not in dropped
            and (_refers_to(resource, dropped) or set(_as_list(resource.get("DependsOn"))) & dropped)
        }
        if not more:
            break
        dropped |= more
    for name in dropped:
        del resources[name]
    template["Outputs"] = {k: v for k, v in template.get("Outputs", {}).items() if not _refers_to(v, dropped)}
    for resource in resources.values():
        for name in UNSUPPORTED_LOCALLY.get(resource.get("Type"), ()):
            resource.get("Properties", {}).pop(name, None)
    return json.dumps(template)


# --- stand-ins for the deploy rehearsal ----------------------------------------------------------------

# Of what moto's CloudFormation cannot create, the deploy rehearsal (scripts/deploy.py against the emulator) creates
# these through the services' own APIs, from the template's own definitions, so the deploy's checks of the texting
# guards (alarms, the web ACL's rate rule) read them as they read AWS's.
STAND_IN_TYPES = ("AWS::CloudWatch::Alarm", "AWS::WAFv2::WebACL")


class Unresolved(Exception):
    """A template value refers to something the stand-ins cannot know."""


def _resolver(template: dict, parameters: dict[str, str], physical: dict[str, str], pseudo: dict[str, str]):
    declared = template.get("Parameters", {})
    values = {name: str(spec.get("Default", "")) for name, spec in declared.items()} | parameters

    def ref(name: str):
        if name in values:
            if declared.get(name, {}).get("Type") == "Number":
                number = float(values[name])
                return int(number) if number.is_integer() else number
            return values[name]
        if name in pseudo:
            return pseudo[name]
        if name in physical:
            return physical[name]
        raise Unresolved(name)

    def get_att(name: str, attribute: str) -> str:
        if attribute == "QueueName" and name in physical:
            return physical[name].rsplit("/", 1)[-1]  # a queue's physical id is its URL
        raise Unresolved(f"{name}.{attribute}")

    def sub(text: str) -> str:
        def one(match) -> str:
            name = match.group(1)
            return get_att(*name.split(".", 1)) if "." in name else str(ref(name))

        return re.sub(r"\$\{([^}!]+)\}", one, text)

    def resolve(value):
        if isinstance(value, dict):
            if set(value) == {"Ref"}:
                return ref(value["Ref"])
            if set(value) == {"Fn::Sub"}:
                return sub(value["Fn::Sub"] if isinstance(value["Fn::Sub"], str) else value["Fn::Sub"][0])
            if set(value) == {"Fn::GetAtt"}:
                target = value["Fn::GetAtt"]
                return get_att(*(target if isinstance(target, list) else target.split(".", 1)))
            if any(key.startswith("Fn::") for key in value):
                raise Unresolved(next(iter(value)))
            return {key: resolve(inner) for key, inner in value.items()}
        if isinstance(value, list):
            return [resolve(inner) for inner in value]
        return value

    return resolve


def create_stand_ins(session, stack_name: str, template: dict, parameters: dict[str, str]) -> dict[str, str]:
    """The template's alarms and web ACL, made with the CloudWatch and WAF APIs in the emulator (again on a
    second deploy: alarms are replaced, the web ACL updated). Returns {"ApiWebAclArn": ...} as the stack would."""
    cloudformation = session.client("cloudformation")
    resources = cloudformation.describe_stack_resources(StackName=stack_name)["StackResources"]
    physical = {r["LogicalResourceId"]: r["PhysicalResourceId"] for r in resources}
    account = session.client("sts").get_caller_identity()["Account"]
    pseudo = {"AWS::AccountId": account, "AWS::Region": session.region_name, "AWS::Partition": "aws"}
    pseudo["AWS::StackName"] = stack_name
    resolve = _resolver(template, parameters, physical, pseudo)
    outputs: dict[str, str] = {}
    for logical_id, resource in template.get("Resources", {}).items():
        if resource.get("Type") not in STAND_IN_TYPES:
            continue
        try:
            properties = resolve(resource.get("Properties", {}))
        except Unresolved as missing:
            say(f"stand-in {logical_id} skipped: the emulator cannot resolve {missing}")
            continue
        if resource["Type"] == "AWS::CloudWatch::Alarm":
            session.client("cloudwatch").put_metric_alarm(**properties)
        else:
            outputs["ApiWebAclArn"] = _put_web_acl(session.client("wafv2"), properties)
    return outputs


def _put_web_acl(wafv2, properties: dict) -> str:
    listed = wafv2.list_web_acls(Scope=properties["Scope"])["WebACLs"]
    existing = [acl for acl in listed if acl["Name"] == properties["Name"]]
    if not existing:
        return wafv2.create_web_acl(**properties)["Summary"]["ARN"]
    (summary,) = existing
    wafv2.update_web_acl(Id=summary["Id"], LockToken=summary["LockToken"], **properties)
    return summary["ARN"]


def _as_list(value) -> list:
    return value if isinstance(value, list) else [value] if value else []


# --- the emulator -----------------------------------------------------------------------------------


def serialise_moto() -> None:
    """Run every moto action under one lock, as tests/conftest.py does, and let transactions back up each
    table once."""
    from moto.core.responses import BaseResponse

    if getattr(BaseResponse.call_action, "_serialised", False):
        return
    original = BaseResponse.call_action
    lock = threading.RLock()

    def call_action(self):
        with lock:
            return original(self)

    call_action._serialised = True
    BaseResponse.call_action = call_action
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.utils.aws_env import back_up_tables_once_per_transaction, honour_client_request_tokens

    back_up_tables_once_per_transaction()  # one backup per table a transaction touches, not per item
    honour_client_request_tokens()  # a transaction retried after a lost answer is applied once, as on DynamoDB


def start_emulator(port: int):
    import logging

    from moto.server import ThreadedMotoServer

    if os.environ.get("MOTO_LOG", "") not in ("1", "true"):
        logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one line per AWS call drowns the pins
    serialise_moto()
    server = ThreadedMotoServer(ip_address=HOST, port=port, verbose=False)
    server.start()
    return server


def aws_client(service: str, endpoint: str):
    import boto3

    return boto3.session.Session().client(
        service,
        region_name=REGION,
        endpoint_url=endpoint,
        aws_access_key_id=FAKE_CREDENTIALS["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=FAKE_CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
    )


def create_stack(endpoint: str, apns_arn: str, fcm_arn: str = "") -> tuple[dict, dict]:
    """Create the template's stack in the emulator; returns (template, outputs)."""
    template = load_template()
    cloudformation = aws_client("cloudformation", endpoint)
    cloudformation.create_stack(
        StackName=STACK_NAME,
        TemplateBody=local_template_body(template),
        Parameters=[
            {"ParameterKey": "NamePrefix", "ParameterValue": NAME_PREFIX},
            {"ParameterKey": "Stage", "ParameterValue": STAGE},
            {"ParameterKey": "ApnsPlatformApplicationArn", "ParameterValue": apns_arn},
            {"ParameterKey": "FcmPlatformApplicationArn", "ParameterValue": fcm_arn},
        ],
    )
    stack = cloudformation.describe_stacks(StackName=STACK_NAME)["Stacks"][0]
    if stack["StackStatus"] != "CREATE_COMPLETE":
        raise RuntimeError(f"stack {STACK_NAME}: {stack['StackStatus']} {stack.get('StackStatusReason', '')}")
    outputs = {output["OutputKey"]: output["OutputValue"] for output in stack.get("Outputs", [])}
    physical = {
        resource["LogicalResourceId"]: resource["PhysicalResourceId"]
        for resource in cloudformation.describe_stack_resources(StackName=STACK_NAME)["StackResources"]
    }
    apply_ignored_properties(endpoint, template, physical)
    return template, outputs


def apply_ignored_properties(endpoint: str, template: dict, physical: dict[str, str]) -> None:
    """moto's CloudFormation accepts but does not apply a table's TTL and point-in-time recovery:
    set them through the API, so the local tables describe like production's."""
    dynamodb = aws_client("dynamodb", endpoint)
    for logical_id, resource in template["Resources"].items():
        if resource["Type"] != "AWS::DynamoDB::Table":
            continue
        properties, table = resource.get("Properties", {}), physical[logical_id]
        ttl = properties.get("TimeToLiveSpecification")
        if ttl and ttl.get("Enabled"):
            dynamodb.update_time_to_live(
                TableName=table, TimeToLiveSpecification={"AttributeName": ttl["AttributeName"], "Enabled": True}
            )
        pitr = properties.get("PointInTimeRecoverySpecification")
        if pitr and pitr.get("PointInTimeRecoveryEnabled"):
            dynamodb.update_continuous_backups(
                TableName=table, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True}
            )


def make_avatars_public(endpoint: str, bucket: str) -> None:
    """Production serves the private bucket through a CDN (AVATAR_BASE_URL). Locally the avatar URLs
    point at the emulator itself, which answers an unsigned GET only when the bucket policy allows it."""
    policy = {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Sid": "LocalBrowserReadsAvatars",
                "Effect": "Allow",
                "Principal": "*",
                "Action": "s3:GetObject",
                "Resource": f"arn:aws:s3:::{bucket}/*",
            }
        ],
    }
    aws_client("s3", endpoint).put_bucket_policy(Bucket=bucket, Policy=json.dumps(policy))


def create_platform_application(endpoint: str) -> str:
    """The APNS platform application (CloudFormation has no resource type for it)."""
    response = aws_client("sns", endpoint).create_platform_application(
        Name=APNS_APP_NAME, Platform="APNS", Attributes={}
    )
    return response["PlatformApplicationArn"]


def create_android_platform_application(endpoint: str) -> str:
    """The FCM platform application for Android (SNS platform GCM; CloudFormation has no resource type for it)."""
    response = aws_client("sns", endpoint).create_platform_application(
        Name=FCM_APP_NAME, Platform="GCM", Attributes={"PlatformCredential": "local-fcm-key"}
    )
    return response["PlatformApplicationArn"]


# --- the API --------------------------------------------------------------------------------------------


def app_environment(moto_port: int, outputs: dict[str, str], api_port: int | None = None) -> dict[str, str]:
    """The chalice child's environment: fake credentials, every AWS call to the emulator, and the API's
    own address as the base of its links (unless PUBLIC_BASE_URL is set)."""
    env = dict(os.environ)
    if api_port is not None and not env.get("PUBLIC_BASE_URL"):
        env["PUBLIC_BASE_URL"] = f"http://{HOST}:{api_port}"
    # No NOTIFICATIONS_QUEUE_URL: locally notifications are processed inline, in the request, because
    # nothing consumes the emulator's queue (the stack has one: its outputs NotificationsQueueUrl/Name are
    # deliberately not in OUTPUT_SETTINGS). Set it from the outputs only with a local consumer for it.
    for name in ("AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN", "AVATAR_BASE_URL"):
        env.pop(name, None)
    env.pop("NOTIFICATIONS_QUEUE_URL", None)
    no_proxy = ",".join(filter(None, [env.get("NO_PROXY") or env.get("no_proxy"), HOST, "localhost"]))
    env.update(FAKE_CREDENTIALS)
    env.update(
        {
            "AWS_DEFAULT_REGION": REGION,
            "AWS_REGION": REGION,
            "AWS_ENDPOINT_URL": f"http://{HOST}:{moto_port}",
            "AWS_CONFIG_FILE": os.devnull,  # nothing from ~/.aws may point the app elsewhere
            "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
            "AWS_EC2_METADATA_DISABLED": "true",
            "NO_PROXY": no_proxy,
            "no_proxy": no_proxy,
            "STAGE": STAGE,
            "ECHO_NOTIFICATIONS": "true",
            "SMS_TWO_WAY": "true",  # `make inbound-sms` replies to the texts the console shows
            "PYTHONUNBUFFERED": "1",
            "PYTHONDONTWRITEBYTECODE": "1",  # with AUTORELOAD, a .pyc written on a lazy import restarts it
        }
    )
    for output, setting in OUTPUT_SETTINGS.items():
        env[setting] = outputs.get(output, "") if output in PUSH_OUTPUTS else outputs[output]
    return env


def chalice_command(port: int, autoreload: bool) -> list[str]:
    # scripts/chalice_cli.py: chalice as the project runs it; a path the API lacks answers 404 as deployed
    command = [sys.executable, str(ROOT / "scripts" / "chalice_cli.py"), "local", "--host", HOST, "--port", str(port)]
    command += ["--stage", STAGE]
    if not autoreload:
        command.append("--no-autoreload")
    return command


def start_api(port: int, env: dict[str, str], autoreload: bool) -> subprocess.Popen:
    # Its own session: a terminal Ctrl-C reaches only this runner, which then stops chalice's whole
    # process group (with autoreload, chalice is a parent and a worker process).
    # No terminal on stdin: chalice's CLI imports `inquirer`, whose `blessed` otherwise probes the
    # terminal at import and, where the terminal does not answer, waits 2 x 5 s for it.
    return subprocess.Popen(
        chalice_command(port, autoreload), cwd=ROOT, env=env, stdin=subprocess.DEVNULL, start_new_session=True
    )


def stop_api(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(STOP_TIMEOUT_SECONDS)
    except ProcessLookupError:
        return
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def answers(port: int) -> bool:
    try:
        with socket.create_connection((HOST, port), timeout=0.5):
            return True
    except OSError:
        return False


def wait_until_serving(process: subprocess.Popen, port: int) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while not answers(port):
        if process.poll() is not None:
            raise RuntimeError(f"chalice local exited with status {process.returncode}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"chalice local did not answer on port {port} within {READY_TIMEOUT_SECONDS} s")
        time.sleep(0.1)


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as both servers do: TIME_WAIT is no owner
        try:
            probe.bind((HOST, port))
        except OSError:
            return False
    return True


def banner(api: str, emulator: str, outputs: dict[str, str], seconds: float) -> str:
    json_header = "-H 'Content-Type: application/json'"
    tables = ", ".join(outputs[name] for name in ("UsersTableName", "AuthTableName", "EventsTableName"))
    return f"""
================================================================================
 Invites API (local) ready in {seconds:.1f} s
   API        {api}
   Emulator   {emulator}   (moto; its state: {emulator}/moto-api/)
   Tables     {tables}
   Avatars    {emulator}/{outputs["AvatarBucketName"]}/<key>  (opens in a browser)

 Log in: ask for a pin; it is printed below as {{"msg": "sms", "to": ..., "text": "Your Invites pin is NNNNNN. ..."}}
   curl -i -X POST {api}/auth {json_header} -d '{{"phone_number": "{DEMO_PHONE}"}}'
   curl -X POST {api}/auth/verify_pin {json_header} -d '{{"phone_number": "{DEMO_PHONE}", "pin": "NNNNNN"}}'
   curl {api}/users/me -H 'Authorization: Bearer <auth_token from verify_pin>'

 Ctrl-C stops everything.
================================================================================
""".rstrip("\n")


def main() -> int:
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _on_signal)
    started = time.monotonic()
    server = process = None
    try:
        port = int(os.environ.get("PORT") or 8000)
        moto_port = int(os.environ.get("MOTO_PORT") or 5000)
        autoreload = os.environ.get("AUTORELOAD", "").lower() in ("1", "true", "yes", "on")
        if port == moto_port:
            say("local_stack: PORT and MOTO_PORT must differ")
            return 2
        busy = [str(p) for p in (moto_port, port) if not port_is_free(p)]
        if busy:
            say(f"local_stack: port {', '.join(busy)} is taken; try e.g. make run PORT=8001 MOTO_PORT=5001")
            return 2
        emulator, api = f"http://{HOST}:{moto_port}", f"http://{HOST}:{port}"
        server = start_emulator(moto_port)
        apns_arn = create_platform_application(emulator)
        _, outputs = create_stack(emulator, apns_arn, create_android_platform_application(emulator))
        make_avatars_public(emulator, outputs["AvatarBucketName"])
        process = start_api(port, app_environment(moto_port, outputs, api_port=port), autoreload)
        wait_until_serving(process, port)
        say(banner(api, emulator, outputs, time.monotonic() - started))
        # Poll, not wait(): the kernel may hand SIGTERM to one of moto's threads, and then a blocking
        # waitpid() in this thread would never return to run the handler.
        while process.poll() is None:
            time.sleep(0.2)
        status = process.returncode
        say(f"local_stack: chalice local exited with status {status}; stopping the emulator")
        return status or 1
    except Stop:
        say("\nlocal_stack: stopping")
        return 0
    except Exception as exc:  # noqa: BLE001 - one readable line, not a traceback
        say(f"local_stack: {type(exc).__name__}: {exc}")
        return 1
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
        if process is not None:
            stop_api(process)
        if server is not None:
            server.stop()


if __name__ == "__main__":
    sys.exit(main())
