"""The text telling a guest without the app that a host removed them from an event (when the host asked for it):
``<service>: <host> removed you from "<title>". Reply STOP to opt out.``, cut like the invitation texts, sent
once per removal through the text outbox behind a claim (``SENT#guest_removed#<event>:<user>:<when>#<user>#sms``),
within the invitation texts' limits: the stop list, SNS's opt-out list, the owner's hourly quota, each number's
daily cap and the month's budget."""

from __future__ import annotations

from chalicelib.config import get_settings
from chalicelib.languages.catalogues import N_, Words, words
from chalicelib.messaging import sms_segments
from chalicelib.messaging.notifications.kinds import kind_named
from chalicelib.messaging.notifications.messages import Outcome, RetryLater
from chalicelib.services.texts.guest_texts import send_claimed
from chalicelib.services.texts.host_label import host_label
from chalicelib.services.texts.invitation_texts import texts_allowed
from chalicelib.services.texts.text_language import words_for
from chalicelib.services.texts.text_wording import STOP_WORDS, segment_limits, shown_title

# Queue kinds handled elsewhere (each declared with its handler); here they name texts and their claims
GUEST_REMOVED = kind_named("guest_removed")

REMOVED = N_('{service}: {name} removed you from "{title}". {stop}')


def removal_text(host, event, said: Words | None = None) -> str:
    """The removal text in the person's words: the host's name cut first, then the title, within the segments."""
    said = said or words(None)
    service, stop = get_settings().service_name, said._(STOP_WORDS)

    def wording(who: str, title: str) -> str:
        return said._(REMOVED, service=service, name=who, title=title, stop=stop)

    return sms_segments.fit([wording], host_label(host), shown_title(event.title, said), segment_limits())


def text_removed(owner, host, event, person, occurrence: str) -> Outcome:
    """Text ``person`` that ``host`` removed them, once for ``occurrence`` (the removal); the owner's quota pays.
    Raises RetryLater when a check before it failed, so the queue delivers the message again."""
    texted, failed = send_claimed(
        owner,
        event,
        [person],
        GUEST_REMOVED,
        occurrence,
        lambda someone: removal_text(host, event, words_for(someone)),
        allowed=texts_allowed,
    )
    if failed:
        raise RetryLater("removal text not sent: a check before it failed")
    return Outcome(sent=len(texted))
