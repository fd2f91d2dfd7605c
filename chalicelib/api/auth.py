"""POST /auth, /auth/verify_pin, /auth/register, /auth/logout."""

from __future__ import annotations

from chalicelib.api.request import RequestContext
from chalicelib.api.responses import NO_CONTENT
from chalicelib.services.identity import auth, users
from chalicelib.services.participants import representations
from chalicelib.validation import Fields


def request_pin(ctx: RequestContext):
    fields = Fields(ctx.json_object())
    phone = fields.phone("phone_number", required=True, textable=True)
    fields.raise_if_errors()
    auth.request_pin(phone, ctx.source_ip)
    return NO_CONTENT


def verify_pin(ctx: RequestContext):
    fields = Fields(ctx.json_object())
    phone = fields.phone("phone_number", required=True)
    pin = fields.string("pin", required=True, max_length=32)
    fields.raise_if_errors()
    user, token = auth.verify_pin(phone, pin, ctx.source_ip)
    return representations.user_json(user, auth_token=token)


def register(ctx: RequestContext):
    fields = Fields(ctx.json_object())
    full_name = fields.person_name("full_name", required=True, min_length=2, max_length=256)
    email = fields.email("email", required=True, max_length=256)
    fields.raise_if_errors()
    user = users.update_profile(ctx.user, {"full_name": full_name, "email": email})
    return representations.user_json(user, auth_token=ctx.token)


def logout(ctx: RequestContext):
    auth.logout(ctx.user, ctx.token)
    return NO_CONTENT
