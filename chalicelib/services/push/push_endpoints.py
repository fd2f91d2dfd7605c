"""SNS platform endpoints that deliver: a registration makes the device's endpoint usable again.

APNs and FCM report a token they no longer take, and SNS then disables its endpoint. When the app registers
that token again it is live again, but SNS does not enable the endpoint by itself: ``CreatePlatformEndpoint``
hands back the endpoint it already has for the token (or refuses, naming it, when the disabled endpoint's
attributes differ from the request's), still disabled. So every registration reads the endpoint's attributes
and, when it is disabled or holds another token, enables it with the registered token (AWS's guidance for
mobile token management)."""

from __future__ import annotations

import re

from botocore.exceptions import ClientError

from chalicelib import aws

# SNS's refusal of CreatePlatformEndpoint for a token an endpoint already has with other attributes.
_EXISTING_ENDPOINT = re.compile(r"Endpoint (arn:aws[\w-]*:sns:\S+) already exists with the same [Tt]oken")


def endpoint_for(application_arn: str, token: str) -> str:
    """The ARN of an enabled endpoint of ``application_arn`` for ``token``: made, or the one SNS has."""
    try:
        arn = aws.sns().create_platform_endpoint(PlatformApplicationArn=application_arn, Token=token)["EndpointArn"]
    except ClientError as error:
        existing = _existing_endpoint(error)
        if existing is None:
            raise
        arn = existing
    if not revive(arn, token):
        # deleted between SNS's answer and the read (a removal of the same token): one more try makes it anew
        arn = aws.sns().create_platform_endpoint(PlatformApplicationArn=application_arn, Token=token)["EndpointArn"]
    return arn


def revive(endpoint_arn: str, token: str) -> bool:
    """Enable ``endpoint_arn`` with ``token`` when it is disabled or holds another token.

    False when the endpoint no longer exists (the caller makes a new one)."""
    sns = aws.sns()
    try:
        attributes = sns.get_endpoint_attributes(EndpointArn=endpoint_arn)["Attributes"]
    except ClientError as error:
        if error.response.get("Error", {}).get("Code") == "NotFound":
            return False
        raise
    if attributes.get("Enabled", "").lower() != "true" or attributes.get("Token") != token:
        sns.set_endpoint_attributes(EndpointArn=endpoint_arn, Attributes={"Token": token, "Enabled": "true"})
    return True


def _existing_endpoint(error: ClientError) -> str | None:
    details = error.response.get("Error", {})
    if details.get("Code") != "InvalidParameter":
        return None
    found = _EXISTING_ENDPOINT.search(details.get("Message", ""))
    return found[1] if found else None
