"""Push devices: POST /notifications/add_ios_device and /notifications/remove_ios_device; the Android pair
add_android_device and remove_android_device (an FCM registration token)."""

from __future__ import annotations

import re

from chalicelib.api.request import RequestContext
from chalicelib.api.responses import NO_CONTENT
from chalicelib.services.push import devices
from chalicelib.validation import Fields

_DEVICE_TOKEN = re.compile(r"^[0-9a-fA-F]{64}$")
# An FCM registration token: URL-safe base64 and ':' (about 160 characters today; Google sets no fixed length).
_FCM_TOKEN = re.compile(r"^[A-Za-z0-9_:-]{20,4096}$")


def _device_token(ctx: RequestContext) -> str:
    fields = Fields(ctx.json_object())
    token = fields.string("token", required=True)
    if token is not None and not _DEVICE_TOKEN.match(token):
        fields.error("token", "Enter a valid iOS device token: 64 hexadecimal characters.")
    fields.raise_if_errors()
    return token.lower()


def add_ios_device(ctx: RequestContext):
    devices.add_device(ctx.user, _device_token(ctx))
    return NO_CONTENT


def remove_ios_device(ctx: RequestContext):
    devices.remove_device(ctx.user, _device_token(ctx))
    return NO_CONTENT


def _android_token(ctx: RequestContext) -> str:
    fields = Fields(ctx.json_object())
    token = fields.string("device_token", required=True, max_length=4096)
    if token is not None and not _FCM_TOKEN.match(token):
        fields.error("device_token", "Enter a valid Android (FCM) registration token.")
    fields.raise_if_errors()
    return token


def add_android_device(ctx: RequestContext):
    devices.add_device(ctx.user, _android_token(ctx), devices.ANDROID)
    return NO_CONTENT


def remove_android_device(ctx: RequestContext):
    devices.remove_device(ctx.user, _android_token(ctx))
    return NO_CONTENT
