"""Push devices: POST /notifications/add_ios_device and /notifications/remove_ios_device; the Android pair
add_android_device and remove_android_device (an FCM registration token)."""

from __future__ import annotations

import re

from chalicelib.api.request import RequestContext
from chalicelib.api.responses import NO_CONTENT
from chalicelib.languages.catalogues import available
from chalicelib.services.push import devices
from chalicelib.validation import Fields

_DEVICE_TOKEN = re.compile(r"^[0-9a-fA-F]{64}$")
# An FCM registration token: URL-safe base64 and ':' (about 160 characters today; Google sets no fixed length).
_FCM_TOKEN = re.compile(r"^[A-Za-z0-9_:-]{20,4096}$")


def _language(fields: Fields) -> str | None:
    """The optional ``language`` of a device's pushes: a catalogue's tag (``pt-BR``; any case, ``_`` or ``-``)."""
    asked = fields.string("language", max_length=16)
    if asked is None:
        return None
    tag = next((tag for tag in available() if tag.lower() == asked.replace("_", "-").lower()), None)
    if tag is None:
        fields.error("language", f"Choose one of: {', '.join(available())}.")
    return tag


def _ios_device(ctx: RequestContext, *, with_language: bool = False) -> tuple[str, str | None]:
    fields = Fields(ctx.json_object())
    token = fields.string("token", required=True)
    if token is not None and not _DEVICE_TOKEN.match(token):
        fields.error("token", "Enter a valid iOS device token: 64 hexadecimal characters.")
    language = _language(fields) if with_language else None
    fields.raise_if_errors()
    return token.lower(), language


def _device_token(ctx: RequestContext) -> str:
    return _ios_device(ctx)[0]


def add_ios_device(ctx: RequestContext):
    token, language = _ios_device(ctx, with_language=True)
    devices.add_device(ctx.user, token, devices.IOS, language)
    return NO_CONTENT


def remove_ios_device(ctx: RequestContext):
    devices.remove_device(ctx.user, _device_token(ctx))
    return NO_CONTENT


def _android_device(ctx: RequestContext, *, with_language: bool = False) -> tuple[str, str | None]:
    fields = Fields(ctx.json_object())
    token = fields.string("device_token", required=True, max_length=4096)
    if token is not None and not _FCM_TOKEN.match(token):
        fields.error("device_token", "Enter a valid Android (FCM) registration token.")
    language = _language(fields) if with_language else None
    fields.raise_if_errors()
    return token, language


def _android_token(ctx: RequestContext) -> str:
    return _android_device(ctx)[0]


def add_android_device(ctx: RequestContext):
    token, language = _android_device(ctx, with_language=True)
    devices.add_device(ctx.user, token, devices.ANDROID, language)
    return NO_CONTENT


def remove_android_device(ctx: RequestContext):
    devices.remove_device(ctx.user, _android_token(ctx))
    return NO_CONTENT
