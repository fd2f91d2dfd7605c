"""DELETE /users/me: the caller's account closes at once; the rest of its data goes off the request."""

from __future__ import annotations

from chalicelib.api.request import RequestContext
from chalicelib.api.responses import NO_CONTENT
from chalicelib.services.account import account_deletion


def delete_me(ctx: RequestContext):
    """The account closes now; the rest of its data goes off the request (services/account/account_deletion.py)."""
    account_deletion.delete_account(ctx.user)
    return NO_CONTENT
