"""Favorite contacts and address-book lookups: /users/favorite_contacts, from_phone_numbers,
who_has_invited_me and fb_friends. Rules live in ``services.contacts`` and ``services.social``."""

from __future__ import annotations

from chalicelib.api.contacts_input import lookup_numbers, parse_favorites
from chalicelib.api.request import RequestContext
from chalicelib.services.contacts import contacts
from chalicelib.services.identity import social
from chalicelib.services.participants import representations


def _favorites(ctx: RequestContext, favorites) -> list[dict]:
    return [representations.favorite_json(favorite, owner_id=ctx.user.id) for favorite in favorites]


def list_favorites(ctx: RequestContext):
    return _favorites(ctx, contacts.list_favorites(ctx.user))


def save_favorites(ctx: RequestContext):
    return _favorites(ctx, contacts.save_favorites(ctx.user, parse_favorites(ctx.body, with_details=True)))


def delete_favorites(ctx: RequestContext):
    return _favorites(ctx, contacts.delete_favorites(ctx.user, parse_favorites(ctx.body, with_details=False)))


def from_phone_numbers(ctx: RequestContext):
    rows = contacts.users_by_phone(ctx.user, lookup_numbers(ctx.body))
    return [{"phone_number": number, "user": representations.user_summary_json(user)} for number, user in rows]


def who_has_invited_me(ctx: RequestContext):
    return [representations.user_json(owner, with_event_change=True) for owner in contacts.who_has_invited_me(ctx.user)]


def fb_friends(ctx: RequestContext):
    return social.friends(ctx.user)
