"""Deleting an account from the web page /account/delete, without the app. No chalice imports.

The person proves the number with a pin texted to it, under the limits of ``POST /auth`` and
``verify_pin`` (services/identity/auth.py), then confirms. Each form carries a signed token (the guest page's,
services/web/guest_answers.py) bound to its step: the number form to the page, the pin form to the number,
and the confirm form to the user the pin proved, for GRANT_SECONDS. The deletion is the app's.
"""

from __future__ import annotations

from chalicelib.services.account import account_deletion
from chalicelib.services.identity import auth
from chalicelib.services.web.form_tokens import signed_token, signed_token_valid
from chalicelib.store.users import get_user

SUBJECT = "account-delete"
GRANT_SECONDS = 600  # from the pin to the confirm button


def number_form_token() -> str:
    return signed_token(SUBJECT)


def number_form_valid(token: str | None) -> bool:
    return signed_token_valid(SUBJECT, token)


def pin_form_token(e164: str) -> str:
    return signed_token(f"{SUBJECT}:pin:{e164}")


def pin_form_valid(e164: str, token: str | None) -> bool:
    return signed_token_valid(f"{SUBJECT}:pin:{e164}", token)


def send_pin(e164: str, source_ip: str, language: str | None = None) -> None:
    """Text a pin to the number, as ``POST /auth`` does (the same limits: 429 beyond them), worded as a
    deletion pin so nobody takes it for a login pin, in the page's ``language``."""
    auth.request_pin(e164, source_ip, purpose=auth.PinPurpose.DELETION, language=language)


def grant_for(e164: str, pin: str, source_ip: str) -> str | None:
    """Check the pin (400 when wrong, 429 past the address's tries); the confirm form's token for the
    number's user, or None when the number has no account."""
    user_id = auth.prove_number(e164, pin, source_ip, auth.PinPurpose.DELETION)
    if user_id is None or get_user(user_id) is None:
        return None
    return f"{user_id}.{signed_token(f'{SUBJECT}:grant:{user_id}')}"


def redeem(grant: str | None) -> bool:
    """Delete the account the grant names; False when the grant is forged or too old. A grant used
    again (the account gone already) is fine."""
    user_id, _, token = (grant or "").partition(".")
    if not user_id.isascii() or not user_id.isdigit() or len(user_id) > 16:
        return False
    if not signed_token_valid(f"{SUBJECT}:grant:{user_id}", token, ttl=GRANT_SECONDS):
        return False
    user = get_user(int(user_id))
    if user is not None:
        account_deletion.delete_account(user)
    return True
