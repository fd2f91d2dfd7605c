"""What the services say in English, as a page says it in its reader's language: the refusals a page shows
(a number or a name refused, a wrong pin, a plan's closed vote, the album's refusals) and the host's label of a
host without a name.

The services keep their English: the API's JSON bodies carry exactly these sentences. A page looks each one up
here and shows its catalogue's words; a sentence with no catalogue line is shown as the service gave it.
"""

from __future__ import annotations

import re

from chalicelib.languages.catalogues import N_, Words
from chalicelib.phones import INVALID_MOBILE, INVALID_PHONE
from chalicelib.services.identity.auth import INVALID_PIN, OPTED_OUT
from chalicelib.services.participants.event_reads import REPLIES_CLOSED
from chalicelib.services.plans.plans import ALREADY_DECIDED, VOTING_CLOSED
from chalicelib.services.replies.replies import EVENT_FULL
from chalicelib.services.texts.host_label import NO_HOST
from chalicelib.services.the_day import album_words
from chalicelib.validation import (
    BLANK,
    NAME_BIDI_CHARACTER,
    NAME_CONTROL_CHARACTER,
    NAME_INVISIBLE,
    NOT_STRING,
    NULL_CHARACTER,
    REQUIRED,
    max_length_message,
    min_length_message,
)

# Each sentence as the service words it, and the same English as a catalogue message.
SENTENCES = {
    INVALID_PHONE: N_("Enter a valid phone number."),
    INVALID_MOBILE: N_("Enter a valid mobile phone number."),
    INVALID_PIN: N_("Invalid pin."),
    REQUIRED: N_("This field is required."),
    BLANK: N_("This field may not be blank."),
    NOT_STRING: N_("Not a valid string."),
    NULL_CHARACTER: N_("Null characters are not allowed."),
    NAME_CONTROL_CHARACTER: N_("Control characters are not allowed."),
    NAME_BIDI_CHARACTER: N_("Bidirectional control characters are not allowed."),
    NAME_INVISIBLE: N_("Enter a name with visible characters."),
    VOTING_CLOSED: N_("Voting on this plan is closed."),
    ALREADY_DECIDED: N_("This plan was already decided."),
    EVENT_FULL: N_("This event is full."),
    REPLIES_CLOSED: N_("Replies are closed for this event."),
    NO_HOST: N_("Your host"),
    album_words.NOT_GOING: N_("Only the hosts and the guests who are going can share photos."),
    album_words.ALBUM_WORDS["off"]: N_("This event has no shared album."),
    album_words.ALBUM_WORDS["not_yet"]: N_("The album opens when the event starts."),
    album_words.ALBUM_WORDS["closed"]: N_("The album is closed."),
    album_words.ALBUM_CHANGED: N_("The album changed meanwhile, try again."),
}


def _pattern(template: str, field: str) -> re.Pattern:
    """``template`` (one ``{field}`` in it) as a pattern that reads the field's value back out."""
    before, after = template.split("{" + field + "}")
    return re.compile(re.escape(before) + rf"(?P<{field}>[^\s]+?)" + re.escape(after))


# Sentences with a value in them: the pattern of the service's English, and the catalogue message saying it.
WITH_VALUES = (
    (_pattern(max_length_message(0).replace("0", "{limit}"), "limit"),
     N_("Ensure this field has no more than {limit} characters.")),
    (_pattern(min_length_message(0).replace("0", "{limit}"), "limit"),
     N_("Ensure this field has at least {limit} characters.")),
    (_pattern(OPTED_OUT, "service"),
     N_("This number has opted out of texts from {service}. Reply START to one of our texts, then try again.")),
    (_pattern(f"{NO_HOST} (number ending {{digits}})", "digits"), N_("Your host (number ending {digits})")),
    (_pattern(album_words.ALBUM_FULL, "limit"), N_("This album already has {limit} photos.")),
    (_pattern(album_words.PERSON_FULL_AT, "limit"), N_("You have already added {limit} photos to this album.")),
)  # fmt: skip


def said_again(message: str | None, said: Words) -> str | None:
    """``message``, a service's English sentence, in the language of ``said``: its line here, else the catalogue's
    message of the same English (the event's "This event has been cancelled."), else as it is."""
    if not message:
        return message
    if message in SENTENCES:
        return said._(SENTENCES[message])
    for pattern, catalogued in WITH_VALUES:
        found = pattern.fullmatch(message)
        if found:
            return said._(catalogued, **found.groupdict())
    return said.catalogue.gettext(message)


def host_name(label: str, said: Words) -> str:
    """The host as guests read them: a name as written, the label of a host without one in the page's language."""
    if label == NO_HOST or label.startswith(NO_HOST + " ("):
        return said_again(label, said) or label
    return label
