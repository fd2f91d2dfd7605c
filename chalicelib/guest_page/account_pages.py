"""HTML of the account deletion pages (/account/delete), for people without the app.

Three forms, each posted to the next step: the number, the pin texted to it, then a confirm button.
No script: they work the same with and without it. Every value shown is escaped. Each page is in the
language of its ``said`` (English by default); a form posts with ``?lang=`` of a language other than English,
so the step after it, and a refused form shown again, read in the same language.
"""

from __future__ import annotations

from html import escape

from chalicelib.config import get_settings
from chalicelib.guest_page.pages import document
from chalicelib.guest_page.service_words import said_again
from chalicelib.languages.catalogues import ENGLISH, N_, Words, words

EXPIRED = N_("This page was open for too long. Please try again.")
# The pin form's token was too old: the number form comes back holding the number, for a new pin.
PIN_FORM_EXPIRED = N_("This page was open for too long, so the pin was not checked. Ask for a new pin below.")
CONFIRM_EXPIRED = N_("This page was open for too long, so nothing was deleted. Ask for a new pin below.")
# Where the number form posts, relative to the page it is shown on: the first step's page (/account/delete) or
# a page shown at a form's own address (/account/delete/pin, /account/delete/verify).
FIRST_PAGE_ACTION, AGAIN_ACTION = "delete/pin", "pin"
# The first step's address relative to each page, for the language switcher's links.
FIRST_PAGE, FIRST_PAGE_FROM_A_STEP = "delete", "../delete"


def _title(heading: str) -> str:
    return f"{heading} \u00b7 {get_settings().service_name}"


def _problem(text: str | None) -> str:
    return f'<p class="problem" role="alert">{escape(text)}</p>\n' if text else ""


def keeping(action: str, said: Words) -> str:
    """A form's action that keeps the page's language for the answer to it (English needs nothing)."""
    return action if said.language == ENGLISH else f"{action}?lang={said.language}"


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


def number_field(number: str, error: str | None, said: Words) -> str:
    """The phone number's field of the deletion and join pages; ``error``: the service's English refusal."""
    return _field(
        "phone_number",
        said._("Your phone number"),
        said._("With the country code, e.g. +1 415 555 0100. We text a pin to it."),
        number,
        said_again(error, said),
        inputmode="tel",
        autocomplete="tel",
        maxlength="32",
    )


def number_page(
    token: str,
    *,
    number: str = "",
    error: str | None = None,
    problem: str | None = None,
    again: bool = False,
    said: Words | None = None,
) -> str:
    """The first step's form; ``again``: shown at a form's own address after a refusal, so it posts to ``pin``.
    ``problem``: one of this module's messages, in English."""
    said = said or words(None)
    service = escape(get_settings().service_name)
    heading = said.html("Delete your {service} account", service=service)
    what = escape(
        said._(
            "This deletes your profile, your events (their guests are told they are cancelled), your answers and "
            "messages in other people's events, your favorites and your photos. It cannot be undone."
        ),
        quote=False,
    )
    action = keeping(AGAIN_ACTION if again else FIRST_PAGE_ACTION, said)
    send = escape(said._("Text me a pin"))
    body = f"""<h1>{heading}</h1>
{_problem(said._(problem) if problem else None)}<p>{what}</p>
<form method="post" action="{action}">
<input type="hidden" name="csrf" value="{escape(token)}">
{number_field(number, error, said)}
<div class="buttons"><button type="submit" class="accept">{send}</button></div>
</form>"""
    here = FIRST_PAGE_FROM_A_STEP if again else FIRST_PAGE
    return document(_title(said._("Delete your account")), body, said, here)


def pin_page(
    token: str,
    number: str,
    *,
    error: str | None = None,
    button: str | None = None,
    kept: dict | None = None,
    said: Words | None = None,
    here: str = FIRST_PAGE_FROM_A_STEP,
) -> str:
    """The pin form of a page that logs a number in (account deletion, joining by link); the hint names the
    pin's real lifetime. ``kept``: more fields of the first step, carried on as hidden fields. ``button``: the
    button's words, already in the page's language ("Continue" by default); ``here``: the first step's address
    from this page, for the switcher."""
    said = said or words(None)
    minutes = get_settings().pin_ttl_seconds // 60
    field = _field(
        "pin",
        said._("The pin we texted you"),
        said._n("6 digits. It is valid for {count} minute.", "6 digits. It is valid for {count} minutes.", minutes),
        "",
        said_again(error, said),
        inputmode="numeric",
        autocomplete="one-time-code",
        maxlength="6",
    )
    number_shown = f'<span dir="ltr">{escape(number)}</span>'
    heading = said._("Enter your pin")
    sent_to = said.html("We texted a pin to {number}.", number=number_shown)
    button = button or said._("Continue")
    body = f"""<h1>{escape(heading)}</h1>
<p>{sent_to}</p>
<form method="post" action="{keeping("verify", said)}">
<input type="hidden" name="csrf" value="{escape(token)}">
<input type="hidden" name="phone_number" value="{escape(number)}">
{_hidden(kept or {})}{field}
<div class="buttons"><button type="submit" class="accept">{escape(button)}</button></div>
</form>"""
    return document(_title(heading), body, said, here)


def _hidden(fields: dict) -> str:
    return "".join(
        f'<input type="hidden" name="{escape(name)}" value="{escape(value)}">\n' for name, value in fields.items()
    )


def confirm_page(grant: str, number: str, said: Words | None = None) -> str:
    said = said or words(None)
    number_shown = f'<span dir="ltr">{escape(number)}</span>'
    sentence = said.html(
        "The account of {number} and everything in it will be deleted. It cannot be undone.", number=number_shown
    )
    heading, button = said._("Delete your account?"), escape(said._("Delete my account"))
    body = f"""<h1>{escape(heading)}</h1>
<p>{sentence}</p>
<form method="post" action="{keeping("confirm", said)}">
<input type="hidden" name="grant" value="{escape(grant)}">
<div class="buttons"><button type="submit" class="danger">{button}</button></div>
</form>"""
    return document(_title(heading), body, said, FIRST_PAGE_FROM_A_STEP)


def message_page(heading: str, text: str, said: Words | None = None, here: str = FIRST_PAGE_FROM_A_STEP) -> str:
    """A page of one heading and one sentence, both already in the language of ``said``."""
    body = f"<h1>{escape(heading)}</h1>\n<p>{escape(text)}</p>"
    return document(_title(heading), body, said, here)


def done_page(said: Words | None = None) -> str:
    said = said or words(None)
    return message_page(
        said._("Your account is deleted"),
        said._("You are logged out everywhere. What was left of your data is removed within minutes."),
        said,
    )


def no_account_page(said: Words | None = None) -> str:
    said = said or words(None)
    return message_page(said._("There is no account for this number"), said._("There is nothing to delete."), said)


PAUSED = N_("Texts are paused for now. Try again later.")


def error_page(
    status: int, retry_after: str | None = None, paused: str | None = None, said: Words | None = None, *, here: str = ""
) -> str:
    """The page of an error; ``paused``: why texts are paused (the month's text budget is spent). ``here``: the
    first step's address from where the error is shown, for the switcher ("" keeps the address it is shown at)."""
    said = said or words(None)
    if paused:
        heading, text = said._("Texts are paused"), said._(PAUSED) if paused == PAUSED else paused
    elif status == 429:
        wait = said._("Try again later.")
        if retry_after:
            wait = said._("Try again in {seconds} seconds.", seconds=retry_after)
        heading, text = said._("Too many tries"), said._("Too many pins were asked for or tried.") + " " + wait
    elif status == 503:
        heading, text = said._("Please try again"), said._("The service is busy right now. Try again in a moment.")
    elif status == 403:
        heading, text = said._("This page was open for too long"), said._("Start again from the first step.")
    elif status in (400, 413, 415):
        heading, text = said._("Not understood"), said._("Start again from the first step.")
    else:
        heading, text = said._("Something went wrong"), said._("Try again in a moment.")
    return message_page(heading, text, said, here)
