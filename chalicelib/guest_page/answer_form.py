"""The answer form of the guest's page (/i/<code>): the Accept and Decline buttons first (with Maybe between them
where the form offers it), then the message, the people brought and the event's questions, sent with the button.

A refused submission shows the form again with everything the guest entered (``Entered``), not what is stored:
the message, the number of people, every answer; each refused field is marked ``aria-invalid`` and tied to
its error by ``aria-describedby``. A guest who may not accept (replies closed, or the event full without a
waitlist) still has Decline.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

from chalicelib.guest_page.service_words import host_name
from chalicelib.languages.catalogues import N_, Words, words

ANSWER_FIELD = "answer_"  # the form field of a question's answer: answer_<question id>
EXTRA_GUESTS_FIELD = "extra_guests"
MESSAGE_FIELD = "message"
REPLIES_CLOSED = N_("Replies are closed for this event. You can still say you can't make it.")
FULL = N_("This event is full: there are no spots left. You can still say you can't make it.")


@dataclass
class Entered:
    """What a refused submission carried, to show as it was entered; ``errors``: field name -> its message."""

    message: str = ""
    extra_guests: str | None = None
    answers: dict[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)


def entered_from(form: dict) -> Entered:
    """The values of a posted answer form."""
    answers = {key[len(ANSWER_FIELD) :]: value for key, value in form.items() if key.startswith(ANSWER_FIELD)}
    return Entered(message=form.get(MESSAGE_FIELD, ""), extra_guests=form.get(EXTRA_GUESTS_FIELD), answers=answers)


def question_field(question_id: str) -> str:
    return f"{ANSWER_FIELD}{question_id}"


def _marks(name: str, entered: Entered | None, hint: str | None = None) -> tuple[str, str]:
    """The attributes that tie a field to its hint and error, and the error's line ("" when none)."""
    error = (entered.errors if entered else {}).get(name)
    described = " ".join(filter(None, (hint, f"{name}-error" if error else None)))
    attributes = f' aria-describedby="{escape(described)}"' if described else ""
    if not error:
        return attributes, ""
    return f'{attributes} aria-invalid="true"', f'<p id="{escape(name)}-error" class="problem">{escape(error)}</p>'


def _extra_guests_choice(page, entered: Entered | None, said: Words) -> str:
    """A choice of how many people to bring, when the event lets guests bring anyone."""
    allowed = int(page.event.max_extra_guests or 0)
    if allowed <= 0:
        return ""
    current = str(min(int(page.invitation.extra_guests or 0), allowed))
    if entered is not None and entered.extra_guests is not None:
        current = entered.extra_guests
    options = "".join(
        f'<option value="{n}"{" selected" if str(n) == current else ""}>{n}</option>' for n in range(allowed + 1)
    )
    marks, error_line = _marks(EXTRA_GUESTS_FIELD, entered)
    label = escape(said._("People you bring (up to {allowed})", allowed=allowed))
    return f"""<label for="extra_guests">{label}</label>
<select id="extra_guests" name="extra_guests"{marks}>{options}</select>
{error_line}"""


def _questions(page, entered: Entered | None, said: Words) -> str:
    """The event's questions, each with the answer entered (else the one given): a text field, or one radio
    button per choice. None is marked required in HTML (declining needs no answer); the server asks again."""
    asked = list(page.event.questions or [])
    if not asked:
        return ""
    held = entered.answers if entered is not None else (page.invitation.answers or {})
    legend = escape(said._("When you accept"))
    parts = [f'<fieldset class="questions"><legend>{legend}</legend>']
    for question in asked:
        name = question_field(question["id"])
        label = escape(question["text"]) + (" " + escape(said._("(required)")) if question["required"] else "")
        given = held.get(question["id"], "")
        marks, error_line = _marks(name, entered)
        if question["kind"] == "choice":
            radios = "".join(
                f'<label class="choice"><input type="radio" name="{escape(name)}" value="{escape(choice)}"'
                f'{" checked" if choice == given else ""}{marks}> <span dir="auto">{escape(choice)}</span></label>'
                for choice in question["choices"]
            )
            parts.append(
                f'<fieldset class="question"><legend dir="auto">{label}</legend>{radios}{error_line}</fieldset>'
            )
        else:
            parts.append(
                f'<label for="{escape(name)}" dir="auto">{label}</label>'
                f'<input type="text" id="{escape(name)}" name="{escape(name)}" maxlength="280" dir="auto"'
                f' autocomplete="off" value="{escape(given)}"{marks}>{error_line}'
            )
    parts.append("</fieldset>")
    return "\n".join(parts) + "\n"


def _pressed(chosen: bool) -> str:
    return ' aria-pressed="true"' if chosen else ' aria-pressed="false"'


def only_decline(page, now) -> str | None:
    """Why the guest may only decline (the sentence the form shows), or None when Accept is offered too."""
    if page.accepting_closed(now):
        return REPLIES_CLOSED
    if page.full_for_guest:
        return FULL
    return None


ANSWER_BUTTONS = (("accept", N_("Accept")), ("maybe", N_("Maybe")), ("decline", N_("Decline")))  # value, label


def _buttons(chosen: str | None, said: Words, *, declining_only: bool, maybe: bool) -> str:
    """The answer buttons side by side (they wrap on a narrow screen), the guest's current answer pressed. Maybe
    only where the form offers it; only Decline where accepting is closed."""
    offered = {"decline"} if declining_only else {"accept", "decline", *(["maybe"] if maybe else [])}
    return "\n".join(
        f'<button type="submit" name="answer" value="{value}" class="{value}"{_pressed(chosen == value)}>'
        f"{escape(said._(label))}</button>"
        for value, label in ANSWER_BUTTONS
        if value in offered
    )


def answer_form(
    page,
    token: str,
    shown_message: str,
    entered: Entered | None,
    now,
    up: str = "",
    said: Words | None = None,
    *,
    maybe: bool = False,
) -> str:
    """The form: the answer buttons first (the page's first screen), then the message field holding
    ``shown_message``, the people brought and the questions. The guest's current answer is the pressed button;
    ``maybe``: the form offers Maybe too. Why only Decline is offered is said at the top of the page
    (``only_decline``)."""
    said = said or words(None)
    message_marks, message_error = _marks(MESSAGE_FIELD, entered, hint="message-hint")
    answered = page.invitation.has_accepted
    chosen = {True: "accept", False: "decline"}.get(answered) or ("maybe" if page.invitation.maybe else None)
    declining_only = only_decline(page, now)
    buttons = _buttons(chosen, said, declining_only=bool(declining_only), maybe=maybe)
    host = f'<span dir="auto">{escape(host_name(page.host_name, said))}</span>'
    message_label = said.html("Message to {host} (optional)", host=host)
    message_hint = escape(said._("Up to 60 characters."))
    return f"""<form method="post" action="{up}{escape(page.code)}/rsvp">
<input type="hidden" name="csrf" value="{escape(token)}">
<div class="buttons">
{buttons}
</div>
<label for="message">{message_label}</label>
<input type="text" id="message" name="message" maxlength="60" autocomplete="off" dir="auto"
 value="{escape(shown_message)}"{message_marks}>
<p id="message-hint" class="hint">{message_hint}</p>
{message_error}
{"" if declining_only else _extra_guests_choice(page, entered, said)}
{"" if declining_only else _questions(page, entered, said)}</form>"""
