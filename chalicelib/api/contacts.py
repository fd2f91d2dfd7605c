"""Favorite contacts and address-book lookups: /users/favorite_contacts, from_phone_numbers,
who_has_invited_me and fb_friends. Rules live in ``services.contacts`` and ``services.social``."""

from __future__ import annotations

from chalicelib.api.blueprint import ApiBlueprint
from chalicelib.api.request import RequestContext
from chalicelib.services.participants import representations

# The contacts services and their input parsing: imported inside the handlers that use
# them, so a cold start of another route skips them.

blueprint = ApiBlueprint(__name__)


def _favorites(ctx: RequestContext, favorites) -> list[dict]:
    return [representations.favorite_json(favorite, owner_id=ctx.user.id) for favorite in favorites]


@blueprint.route("/users/favorite_contacts", ["GET"])
def list_favorites(ctx: RequestContext):
    from chalicelib.services.contacts import contacts  # contacts and S3: off the API's cold start

    return _favorites(ctx, contacts.list_favorites(ctx.user))


@blueprint.route("/users/favorite_contacts", ["POST"])
def save_favorites(ctx: RequestContext):
    from chalicelib.api.contacts_input import parse_favorites  # the contacts' body parser: off the API's cold start
    from chalicelib.services.contacts import contacts  # contacts and S3: off the API's cold start

    return _favorites(ctx, contacts.save_favorites(ctx.user, parse_favorites(ctx.body, with_details=True)))


@blueprint.route("/users/favorite_contacts", ["DELETE"])
def delete_favorites(ctx: RequestContext):
    from chalicelib.api.contacts_input import parse_favorites  # the contacts' body parser: off the API's cold start
    from chalicelib.services.contacts import contacts  # contacts and S3: off the API's cold start

    return _favorites(ctx, contacts.delete_favorites(ctx.user, parse_favorites(ctx.body, with_details=False)))


@blueprint.route("/users/from_phone_numbers", ["POST"])
def from_phone_numbers(ctx: RequestContext):
    from chalicelib.api.contacts_input import lookup_numbers  # the contacts' body parser: off the API's cold start
    from chalicelib.services.contacts import contacts  # contacts and S3: off the API's cold start

    rows = contacts.users_by_phone(ctx.user, lookup_numbers(ctx.body))
    return [{"phone_number": number, "user": representations.user_summary_json(user)} for number, user in rows]


@blueprint.route("/users/who_has_invited_me", ["GET"])
def who_has_invited_me(ctx: RequestContext):
    from chalicelib.services.contacts import contacts  # contacts and S3: off the API's cold start

    return [representations.user_json(owner, with_event_change=True) for owner in contacts.who_has_invited_me(ctx.user)]


@blueprint.route("/users/fb_friends", ["GET"])
def fb_friends(ctx: RequestContext):
    from chalicelib.services.identity import social  # the Graph API client: off the API's cold start

    return social.friends(ctx.user)
