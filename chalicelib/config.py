"""Typed settings, read once from the environment (see README, "Configuration")."""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from functools import lru_cache


@dataclass(frozen=True)
class Settings:
    # "local" (make run) and "test" allow the development pin key; anything else, unset included, is deployed.
    stage: str = ""
    aws_region: str = "us-east-1"
    users_table: str = "invites-users"
    auth_table: str = "invites-auth"
    events_table: str = "invites-events"
    avatar_bucket: str = "invites-avatars"
    # Public base of avatar URLs (a CDN in production); "" means the S3 endpoint itself.
    avatar_base_url: str = ""
    apns_platform_application_arn: str = ""
    # SQS queue of notification fan-out. Unset: each notification is processed in the request's own
    # process right away (tests, `make run`).
    notifications_queue_url: str = ""
    # Name of that queue, read when the app is packaged/deployed (the SQS handler's event source).
    notifications_queue_name: str = "invites-notifications"
    # How long a worker holds a push claim before another delivery may take it over: longer than
    # the handler's Lambda timeout, shorter than the queue's visibility timeout.
    notification_lease_seconds: int = 75
    # Upcoming-event reminders go to events starting within this many hours.
    reminder_hours_ahead: int = 24
    # Server key for pin HMACs in local runs and tests only (chalicelib/pinkey.py).
    pin_secret: str = "local-development-pin-secret"
    # SSM SecureString holding that key in deployed stages, read once per cold start.
    pin_key_parameter: str = ""
    pin_ttl_seconds: int = 600
    pin_max_attempts: int = 5
    token_ttl_days: int = 365
    auth_sms_per_number_per_hour: int = 5
    auth_sms_per_ip_per_hour: int = 100
    invite_sms_per_owner_per_hour: int = 50
    contact_lookups_per_user_per_hour: int = 60
    messages_per_event: int = 200
    # Any request body above this answers 413 before it is parsed (base64 in API Gateway: 4 MB -> 5.4 MB,
    # inside Lambda's 6 MB). The avatar limit is the same.
    request_max_bytes: int = 4 * 1024 * 1024
    avatar_max_bytes: int = 4 * 1024 * 1024
    avatar_max_pixels: int = 40_000_000
    fb_graph_url: str = "https://graph.facebook.com/v19.0"
    fb_graph_timeout_seconds: float = 5.0
    sms_sender_id: str = ""
    service_name: str = "Invites"
    # Print every SMS and push to the console (local runs).
    echo_notifications: bool = False
    aws_endpoint_url: str = ""


def _parse(kind: type, raw: str):
    if kind is bool:
        return raw.strip().lower() in {"1", "true", "yes", "on"}
    return kind(raw)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Settings from the environment: each field's upper-case name, e.g. USERS_TABLE."""
    values = {}
    types = {"str": str, "int": int, "float": float, "bool": bool}
    for field in fields(Settings):
        raw = os.environ.get(field.name.upper())
        if raw is not None and raw != "":
            values[field.name] = _parse(types[field.type], raw)
    if "aws_region" not in values and os.environ.get("AWS_DEFAULT_REGION"):
        values["aws_region"] = os.environ["AWS_DEFAULT_REGION"]
    return Settings(**values)
