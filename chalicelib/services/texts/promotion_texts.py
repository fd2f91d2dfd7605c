"""Texts to guests without an account who were seated from a waitlist, or taken out of it because their
party no longer fits: each at most once per event, through the text outbox (services/texts/text_outbox.py) behind a
delivery claim (``SENT#waitlist_promoted#<event>#<user>#sms``) like a push, so a queue message delivered again
texts nobody twice. The limits are the invitation texts': the stop list, SNS's opt-out list, the owner's hourly
quota and each number's daily cap. When the checks before the texts fail, the claims are released and the
message fails, so the queue delivers it again; a text SNS could not take now is tried again by the outbox."""

from __future__ import annotations

from chalicelib.messaging.notifications.kinds import kind_named
from chalicelib.messaging.notifications.messages import RetryLater
from chalicelib.services.texts.guest_texts import send_claimed
from chalicelib.services.texts.invitation_texts import dropped_text, promotion_text, texts_allowed
from chalicelib.services.texts.text_language import words_for

# Queue kinds handled elsewhere (each declared with its handler); here they name texts and their claims
WAITLIST_PROMOTED = kind_named("waitlist_promoted")
WAITLIST_DROPPED = kind_named("waitlist_dropped")


def text_promoted(owner, event, people: list, links: dict[int, str]) -> None:
    _text_once(WAITLIST_PROMOTED, owner, event, people, links)


def text_dropped(owner, event, people: list, links: dict[int, str]) -> None:
    """Guests taken out of the line because their party no longer fits (claim ``SENT#waitlist_dropped#...``)."""
    _text_once(WAITLIST_DROPPED, owner, event, people, links)


def _text_once(kind: str, owner, event, people: list, links: dict[int, str]) -> None:
    wording = dropped_text if kind == WAITLIST_DROPPED else promotion_text

    def word(person) -> str:
        return wording(owner, event, links[person.id], words_for(person))

    _texted, failed = send_claimed(owner, event, people, kind, str(event.id), word, allowed=texts_allowed)
    if failed:
        raise RetryLater("waitlist texts not sent: a check before them failed")
