"""Deliver one text to the service as if a person had sent it to one of its numbers (two-way SMS).

    make inbound-sms FROM=+14155550100 TEXT=STOP          # with `make run` going in another terminal
    .venv/bin/python scripts/inbound_sms.py --from +14155550100 --text HELP [--to +18885550100] [--moto-port 5000]

It builds the JSON that AWS End User Messaging SMS publishes to the inbound topic (originationNumber,
destinationNumber, messageKeyword, messageBody, inboundMessageId, previousPublishedMessageId), wraps it as
SNS hands it to a subscribed Lambda function, and calls app.py's ``handle_inbound_sms`` with it, with the
settings of `make run`'s stack. In AWS the inbound topic invokes that function; the emulator runs no Lambda
functions, so locally this script stands in for SNS. A HELP answer is printed like every local text.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

import local_stack  # noqa: E402

SERVICE_NUMBER = "+18885550100"  # a stand-in for the origination number the person wrote to


def two_way_payload(sender: str, text: str, service_number: str) -> dict:
    return {
        "originationNumber": sender,
        "destinationNumber": service_number,
        "messageKeyword": "KEYWORD_LOCAL",
        "messageBody": text,
        "inboundMessageId": str(uuid.uuid4()),
        "previousPublishedMessageId": "",
    }


def sns_lambda_event(topic_arn: str, message: str) -> dict:
    """The event SNS hands a Lambda function subscribed to ``topic_arn``."""
    return {
        "Records": [
            {
                "EventSource": "aws:sns",
                "EventVersion": "1.0",
                "EventSubscriptionArn": f"{topic_arn}:{uuid.uuid4()}",
                "Sns": {
                    "Type": "Notification",
                    "MessageId": str(uuid.uuid4()),
                    "TopicArn": topic_arn,
                    "Subject": None,
                    "Message": message,
                    "Timestamp": "1970-01-01T00:00:00.000Z",
                    "MessageAttributes": {},
                },
            }
        ]
    }


def stack_outputs(endpoint: str) -> dict[str, str]:
    cloudformation = local_stack.aws_client("cloudformation", endpoint)
    try:
        stack = cloudformation.describe_stacks(StackName=local_stack.STACK_NAME)["Stacks"][0]
    except Exception as exc:  # noqa: BLE001 - any failure means the same: no local stack to talk to
        raise SystemExit(f"no local stack at {endpoint} ({type(exc).__name__}): start `make run` first") from None
    return {output["OutputKey"]: output["OutputValue"] for output in stack.get("Outputs", [])}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="sender", required=True, help="the person's number, E.164")
    parser.add_argument("--text", required=True, help="what they texted, e.g. STOP, START, HELP")
    parser.add_argument("--to", default=SERVICE_NUMBER, help="the service's number they texted")
    parser.add_argument("--moto-port", type=int, default=int(os.environ.get("MOTO_PORT") or 5000))
    # the API's port: the links in the answers point at the running `make run` (its PUBLIC_BASE_URL)
    parser.add_argument("--api-port", type=int, default=int(os.environ.get("API_PORT") or 8000))
    args = parser.parse_args(argv)

    endpoint = f"http://{local_stack.HOST}:{args.moto_port}"
    outputs = stack_outputs(endpoint)
    os.environ.update(local_stack.app_environment(args.moto_port, outputs, args.api_port))
    from app import handle_inbound_sms

    message = json.dumps(two_way_payload(args.sender, args.text, args.to))
    action = handle_inbound_sms(sns_lambda_event(outputs.get("InboundSmsTopicArn", ""), message), None)
    print(json.dumps({"msg": "inbound sms", "from": args.sender, "text": args.text, "action": action}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
