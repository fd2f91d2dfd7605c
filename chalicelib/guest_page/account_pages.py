"""HTML of the account deletion pages (/account/delete), for people without the app.

Three forms, each posted to the next step: the number, the pin texted to it, then a confirm button.
No script: they work the same with and without it. Every value shown is escaped.
"""

from __future__ import annotations

from html import escape

from chalicelib.config import get_settings
from chalicelib.guest_page.pages import document

EXPIRED = "This page was open for too long. Please try again."
# The pin form's token was too old: the number form comes back holding the number, for a new pin.
PIN_FORM_EXPIRED = "This page was open for too long, so the pin was not checked. Ask for a new pin below."
CONFIRM_EXPIRED = "This page was open for too long, so nothing was deleted. Ask for a new pin below."
# Where the number form posts, relative to the page it is shown on: the first step's page (/account/delete) or
# a page shown at a form's own address (/account/delete/pin, /account/delete/verify).
FIRST_PAGE_ACTION, AGAIN_ACTION = "delete/pin", "pin"


def _title(heading: str) -> str:
    return f"{heading} \u00b7 {get_settings().service_name}"


def _problem(text: str | None) -> str:
    return f'<p class="problem" role="alert">{escape(text)}</p>\n' if text else ""


def _field(name: str, label: str, hint: str, value: str, error: str | None, **attributes: str) -> str:
    described = f"{name}-hint {name}-error" if error else f"{name}-hint"
    invalid = ' aria-invalid="true"' if error else ""
    extra = "".join(f' {key.replace("_", "-")}="{escape(val)}"' for key, val in attributes.items())
    error_line = f'<p id="{name}-error" class="problem">{escape(error)}</p>' if error else ""
    return f"""<label for="{name}">{escape(label)}</label>
<input type="text" id="{name}" name="{name}" value="{escape(value)}" required
 aria-describedby="{described}"{invalid}{extra}>
<p id="{name}-hint" class="hint">{escape(hint)}</p>
{error_line}"""


def number_page(
    token: str, *, number: str = "", error: str | None = None, problem: str | None = None, again: bool = False
) -> str:
    """The first step's form; ``again``: shown at a form's own address after a refusal, so it posts to ``pin``."""
    service = get_settings().service_name
    field = _field(
        "phone_number",
        "Your phone number",
        "With the country code, e.g. +1 415 555 0100. We text a pin to it.",
        number,
        error,
        inputmode="tel",
        autocomplete="tel",
        maxlength="32",
    )
    body = f"""<h1>Delete your {escape(service)} account</h1>
{_problem(problem)}<p>This deletes your profile, your events (their guests are told they are cancelled), your
answers and messages in other people's events, your favorites and your photos. It cannot be undone.</p>
<form method="post" action="{AGAIN_ACTION if again else FIRST_PAGE_ACTION}">
<input type="hidden" name="csrf" value="{escape(token)}">
{field}
<div class="buttons"><button type="submit" class="accept">Text me a pin</button></div>
</form>"""
    return document(_title("Delete your account"), body)


def pin_page(
    token: str, number: str, *, error: str | None = None, button: str = "Continue", kept: dict | None = None
) -> str:
    """The pin form of a page that logs a number in (account deletion, joining by link); the hint names the
    pin's real lifetime. ``kept``: more fields of the first step, carried on as hidden fields."""
    minutes = get_settings().pin_ttl_seconds // 60
    field = _field(
        "pin",
        "The pin we texted you",
        f"6 digits. It is valid for {minutes} minutes.",
        "",
        error,
        inputmode="numeric",
        autocomplete="one-time-code",
        maxlength="6",
    )
    body = f"""<h1>Enter your pin</h1>
<p>We texted a pin to {escape(number)}.</p>
<form method="post" action="verify">
<input type="hidden" name="csrf" value="{escape(token)}">
<input type="hidden" name="phone_number" value="{escape(number)}">
{_hidden(kept or {})}{field}
<div class="buttons"><button type="submit" class="accept">{escape(button)}</button></div>
</form>"""
    return document(_title("Enter your pin"), body)


def _hidden(fields: dict) -> str:
    return "".join(
        f'<input type="hidden" name="{escape(name)}" value="{escape(value)}">\n' for name, value in fields.items()
    )


def confirm_page(grant: str, number: str) -> str:
    body = f"""<h1>Delete your account?</h1>
<p>The account of {escape(number)} and everything in it will be deleted. It cannot be undone.</p>
<form method="post" action="confirm">
<input type="hidden" name="grant" value="{escape(grant)}">
<div class="buttons"><button type="submit" class="danger">Delete my account</button></div>
</form>"""
    return document(_title("Delete your account?"), body)


def message_page(heading: str, text: str) -> str:
    body = f"<h1>{escape(heading)}</h1>\n<p>{escape(text)}</p>"
    return document(_title(heading), body)


def done_page() -> str:
    return message_page(
        "Your account is deleted",
        "You are logged out everywhere. What was left of your data is removed within minutes.",
    )


def no_account_page() -> str:
    return message_page("There is no account for this number", "There is nothing to delete.")


def expired_page() -> str:
    return message_page("This page was open for too long", "Start again from the first step.")


def error_page(status: int, retry_after: str | None = None, paused: str | None = None) -> str:
    """The page of an error; ``paused``: why texts are paused (the month's text budget is spent)."""
    if paused:
        return message_page("Texts are paused", paused)
    if status == 429:
        wait = f" Try again in {retry_after} seconds." if retry_after else " Try again later."
        return message_page("Too many tries", "Too many pins were asked for or tried." + wait)
    if status == 503:
        return message_page("Please try again", "The service is busy right now. Try again in a moment.")
    if status == 403:
        return expired_page()
    if status in (400, 413, 415):
        return message_page("Not understood", "Start again from the first step.")
    return message_page("Something went wrong", "Try again in a moment.")
