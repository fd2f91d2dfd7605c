"""Typed settings, read once from the environment (see README, "Configuration")."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import FrozenInstanceError
from functools import lru_cache


class _FieldsOnFirstUse:
    """``Settings.__dataclass_fields__``, made when first asked for, so that ``dataclasses.fields``, ``replace``
    and ``asdict`` take settings as they took the dataclass (no cold start asks)."""

    def __get__(self, instance, owner):
        namespace = {name: getattr(owner, name) for name in owner.__annotations__}
        namespace["__annotations__"] = dict(owner.__annotations__)
        namespace["__module__"] = owner.__module__
        described = dataclasses.dataclass(frozen=True)(type(owner.__name__, (), namespace))
        fields = described.__dataclass_fields__
        type.__setattr__(owner, "__dataclass_fields__", fields)
        return fields


class Settings:
    """The settings: each one a class attribute holding its default, typed by its annotation; an object is
    immutable and made with keywords. (A plain class: a frozen dataclass of this many fields cost about 5 ms of
    every cold start to generate its methods.)"""

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
    fcm_platform_application_arn: str = ""  # Android push: an SNS platform application of platform GCM (FCM)
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
    # SSM SecureString of the stop list's own key (64 hex digits), never rotated (chalicelib/pinkey.py).
    stop_list_key_parameter: str = ""
    # The contract's login text promises 15 minutes ("It expires in 15 minutes"); the text is built from this.
    pin_ttl_seconds: int = 900
    pin_max_attempts: int = 5
    token_ttl_days: int = 365
    # Pins texted to one number per window (15 minutes): also the longest someone else can hold a
    # number's login back by asking for its pins.
    auth_sms_per_number: int = 5
    auth_sms_number_window_seconds: int = 900
    # Per caller address (IPv6 counted per /64) and hour: pins asked for, and verify_pin tries.
    auth_sms_per_ip_per_hour: int = 100
    auth_verify_per_ip_per_hour: int = 60
    invite_sms_per_owner_per_hour: int = 50
    # Invitation texts one number without an active user receives in 24 hours, from all owners together.
    invite_sms_per_stranger_per_day: int = 3
    # Segments an invitation text may take: GSM-7 (153 characters each), and UCS-2 (67 each) for texts that
    # need it (emoji, most non-Latin scripts). Only the kept minimum of name and title may go past them.
    invite_sms_max_segments: int = 2
    invite_sms_max_segments_ucs2: int = 3
    # Only numbers of these countries (ISO 3166 alpha-2, comma-separated, e.g. "US,CA,GB") are texted; "": all
    # (local runs and tests: a deployed stage gets its infra/stages.json list, the deploy refuses none).
    sms_countries: str = ""
    # Segments all texts together may take per calendar month (UTC); 0 or unset: no budget. Texts nobody asked
    # for (invitations, promotions) stop at 80% of it, pins and HELP answers at 100% (then POST /auth: 503).
    sms_monthly_segments: int = 0
    # The most SNS may charge for one text (AWS.SNS.SMS.MaxPrice, USD, e.g. "0.05"); "": no maximum.
    sms_max_price_usd: str = ""
    # Numbers one user may look up through from_phone_numbers in any 24 hours.
    contact_lookup_numbers_per_user_per_day: int = 2000
    # Guests one event may have in total (create and edits together).
    invitees_per_event: int = 500
    # Events one owner may create in any 24 hours.
    events_per_owner_per_day: int = 100
    # Series (POST /events with repeat) one owner may create in any 24 hours; a series counts as one event too.
    series_per_owner_per_day: int = 10
    # iOS devices per user; an 11th drops the one registered longest ago.
    devices_per_user: int = 10
    messages_per_event: int = 200
    # Any request body above this answers 413 before it is parsed (base64 in API Gateway: 4 MB -> 5.4 MB,
    # inside Lambda's 6 MB). The avatar limit is the same.
    request_max_bytes: int = 4 * 1024 * 1024
    avatar_max_bytes: int = 4 * 1024 * 1024
    avatar_max_pixels: int = 40_000_000
    # Bytes one PNG's pixel data may inflate to (rows of width x channels x bit depth): its decoding CPU
    # grows with them. 120 MB is a 40 MP 8-bit RGB image (about 0.6 s here); 16-bit RGBA allows 15 MP.
    image_raw_max_bytes: int = 120_000_000
    fb_graph_url: str = "https://graph.facebook.com/v19.0"
    fb_graph_timeout_seconds: float = 5.0
    sms_sender_id: str = ""
    # Origination identities (a phone number, its ARN, or a pool's) texts go out from, one per use case:
    # pins, and invitation texts. "": the account's default. Registered as docs/deploy.md says.
    sms_origination_pins: str = ""
    sms_origination_invites: str = ""
    # Named in the answer to a HELP reply (an address or URL where people reach the service).
    support_contact: str = ""
    # SNS topic that two-way SMS delivers replies to (infra/template.yaml); its handler is app.py's.
    inbound_sms_topic_name: str = "invites-inbound-sms"
    # Two-way texting: the stage's sending number receives replies (routed to that topic), so texts that ask end
    # with "Reply 1 if you're going, 2 if not." and a reply answers the invitation (docs/deploy.md). Off: as before.
    sms_two_way: bool = False
    # Replies by text one number may have acted on per clock hour; more are ignored, unanswered.
    text_replies_per_number_per_hour: int = 20
    service_name: str = "Invites"
    # Print every SMS and push to the console (local runs).
    echo_notifications: bool = False
    aws_endpoint_url: str = ""
    # The API's public root for absolute URLs (next/previous links, the /i/<code> links of invitation
    # texts), no trailing slash, e.g. https://api.example.com/api. Unset: links use the stage's own domain
    # from API Gateway's request context (https), else http://localhost, and texts carry no link.
    # Never taken from Host or X-Forwarded-* (docs/api.md, Links).
    public_base_url: str = ""
    # Input limits (docs/api.md, "Limits").
    multipart_max_parts: int = 8
    favorite_photo_max_pixels: int = 12_000_000
    favorite_photos_per_request: int = 20
    # Pixels all favorite photos of one request may decode to: the bound on its CPU for images (about 3 s).
    # A JPEG is decoded at a reduced scale and counts so (12 MP: 3 MP), so 20 12-MP JPEGs fit; 12-MP PNGs: 6.
    image_decode_pixels_per_request: int = 80_000_000
    earliest_year: int = 1970  # event_date, suggested_date, suggested_time: from Jan 1 of this year
    latest_year: int = 2100  # ... to Dec 31 of this one (UTC)
    max_spots: int = 100_000  # total_spots, and spot_filled in one edit
    max_spots_filled: int = 1_000_000
    time_suggestions_per_event: int = 50
    # Data exports (POST /users/me/export) one user may start in any 24 hours.
    exports_per_day: int = 3
    # The host speaking to the guests: announcements per event in any 24 hours, nudges per event in any 24 hours,
    # and change texts (date/time or place) one guest without the app gets about one event per local day.
    announcements_per_event_per_day: int = 5
    join_requests_per_event: int = 200  # pending requests to join one event by its link
    join_requests_per_number_per_day: int = 10  # events one number asks to join, in any 24 hours
    nudges_per_event_per_day: int = 1
    change_texts_per_guest_per_day: int = 3
    # The guest page (/i/<code>) of people invited by text, outside API v1.
    # Page views, calendar downloads and answers per address per hour (IPv6 counted per /64).
    web_requests_per_ip_per_hour: int = 300
    # A link answers until this many days after the event's date, then 404.
    web_link_days_after_event: int = 7
    # How long the answer form of a page stays valid (its anti-forgery token).
    web_form_ttl_seconds: int = 86400

    __dataclass_fields__ = _FieldsOnFirstUse()

    def __init__(self, **values) -> None:
        unknown = sorted(values.keys() - self.__annotations__.keys())
        if unknown:
            raise TypeError(f"Settings() got an unexpected keyword argument {unknown[0]!r}")
        vars(self).update(values)

    def __setattr__(self, name, value):
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name):
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__annotations__)

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self):
        return hash(self._values())

    def __repr__(self):
        changed = ", ".join(f"{name}={value!r}" for name, value in vars(self).items())
        return f"Settings({changed})"


def setting_types() -> dict[str, str]:
    """Each setting's name and the name of its type ("str", "int", "float" or "bool"), in declaration order."""
    return dict(Settings.__annotations__)


def _parse(kind: type, raw: str):
    if kind is bool:
        return raw.strip().lower() in {"1", "true", "yes", "on"}
    return kind(raw)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Settings from the environment: each field's upper-case name, e.g. USERS_TABLE."""
    values = {}
    types = {"str": str, "int": int, "float": float, "bool": bool}
    for name, type_name in setting_types().items():
        raw = os.environ.get(name.upper())
        if raw is not None and raw != "":
            values[name] = _parse(types[type_name], raw)
    if "aws_region" not in values and os.environ.get("AWS_DEFAULT_REGION"):
        values["aws_region"] = os.environ["AWS_DEFAULT_REGION"]
    return Settings(**values)
