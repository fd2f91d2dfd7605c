"""Push devices: POST /notifications/add_ios_device and /notifications/remove_ios_device."""

from __future__ import annotations

import re

from chalicelib.api.blueprint import ApiBlueprint
from chalicelib.api.request import RequestContext
from chalicelib.api.responses import NO_CONTENT
from chalicelib.validation import Fields

# The device services (SNS): imported inside the handlers that use them, so a cold start of another route skips them.

blueprint = ApiBlueprint(__name__)

_DEVICE_TOKEN = re.compile(r"^[0-9a-fA-F]{64}$")


def _device_token(ctx: RequestContext) -> str:
    fields = Fields(ctx.json_object())
    token = fields.string("token", required=True)
    if token is not None and not _DEVICE_TOKEN.match(token):
        fields.error("token", "Enter a valid iOS device token: 64 hexadecimal characters.")
    fields.raise_if_errors()
    return token.lower()


@blueprint.route("/notifications/add_ios_device", ["POST"])
def add_ios_device(ctx: RequestContext):
    from chalicelib.services import devices  # SNS devices: off the API's cold start

    devices.add_device(ctx.user, _device_token(ctx))
    return NO_CONTENT


@blueprint.route("/notifications/remove_ios_device", ["POST"])
def remove_ios_device(ctx: RequestContext):
    from chalicelib.services import devices  # SNS devices: off the API's cold start

    devices.remove_device(ctx.user, _device_token(ctx))
    return NO_CONTENT
