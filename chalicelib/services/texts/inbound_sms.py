"""Replies by text: what people text back to the service's numbers.

Two-way SMS (AWS End User Messaging SMS) publishes every text a number of the account receives to an SNS
topic (infra/template.yaml, InboundSmsTopic) as a JSON object, for example::

    {"originationNumber": "+14255550182", "destinationNumber": "+12125550101", "messageKeyword": "JOIN",
     "messageBody": "stop", "inboundMessageId": "cae173d2-...", "previousPublishedMessageId": "..."}

``originationNumber`` is the person, ``destinationNumber`` the service's own number they wrote to.
The opt-out words (in each language the texts are written in: BAJA, ARRET, STOPP, PARAR, ...) put the person's
number on the stop list (no more invitation texts), START and UNSTOP (ALTA) take it off, HELP (AYUDA, AIDE,
HILFE, ...) is answered from the number written to, in the language of the word, else of the number's country.
SNS keeps its own account-wide opt-out list as well (the pin and invitation senders ask it first); this
handler keeps the service's stop list in step with it. SNS may deliver a message twice: each action is idempotent.
"""

from __future__ import annotations

import json
import logging
import string
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from chalicelib.config import get_settings
from chalicelib.errors import TextsPaused
from chalicelib.languages.catalogues import N_, Words, words
from chalicelib.languages.choice import of_number
from chalicelib.messaging import sms_sender
from chalicelib.phones import mask_phone, normalize_phone
from chalicelib.services.texts import stop_list
from chalicelib.services.texts.text_wording import STOP_WORDS

log = logging.getLogger("invites")

# The keywords of the countries texted: the US and Canada's, then those of each language the texts are written in
# (accents and the hamza are dropped before matching, so ARRÊT is ARRET and إيقاف is ايقاف).
OPT_OUT_WORDS = frozenset(
    {
        "STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "OPTOUT", "REVOKE",
        "BAJA", "ALTO", "CANCELAR", "PARAR",  # Spanish
        "ARRET", "DESABONNER", "DESINSCRIRE",  # French
        "STOPP", "ABMELDEN", "ENDE",  # German
        "PARE", "SAIR", "CANCELE",  # Portuguese (Brazil)
        "ANNULLA", "BASTA", "DISISCRIVI",  # Italian
        "הסר", "הפסק", "עצור",  # Hebrew
        "ايقاف", "الغاء", "توقف",  # Arabic
    }
)  # fmt: skip
OPT_IN_WORDS = frozenset({"START", "UNSTOP", "ALTA"})
# Each language's HELP word, and the language its answer is written in (HELP: the language of the number's country).
HELP_WORDS = {"HELP": None, "AYUDA": "es", "AIDE": "fr", "HILFE": "de", "AJUDA": "pt-BR", "AIUTO": "it",
              "עזרה": "he", "مساعدة": "ar"}  # fmt: skip
RATES_NOTICE = N_("Msg&data rates may apply.")
ABOUT = N_("{service}: event invitations by text.")
HELP_CONTACT = N_("Help: {contact}.")
STOPPED, RESUMED, HELPED, IGNORED = "stopped", "resumed", "helped", "ignored"


@dataclass(frozen=True)
class InboundText:
    sender: str  # originationNumber, E.164
    service_number: str  # destinationNumber: the number (or identity) the person wrote to
    body: str  # messageBody
    message_id: str = ""  # inboundMessageId: the same when SNS delivers the text twice


def parse(message: str) -> InboundText | None:
    """The two-way SMS payload of one SNS message, or None when it is not one (logged)."""
    try:
        payload = json.loads(message)
    except (TypeError, ValueError):
        payload = None
    if not isinstance(payload, dict):
        log.warning("inbound sms: not a JSON object")
        return None
    sender = normalize_phone(payload.get("originationNumber"))
    body = payload.get("messageBody")
    if sender is None or not isinstance(body, str):
        log.warning("inbound sms: no valid originationNumber or messageBody")
        return None
    service_number = payload.get("destinationNumber")
    message_id = payload.get("inboundMessageId")
    return InboundText(
        sender,
        service_number if isinstance(service_number, str) else "",
        body,
        message_id if isinstance(message_id, str) else "",
    )


def keyword(body: str) -> str:
    """The text as a keyword: trimmed, upper-case, without accents and trailing punctuation ("Stop." is STOP,
    "arrêt" is ARRET)."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", body) if not unicodedata.combining(ch))
    return plain.strip().rstrip(string.punctuation + " ").upper()


def action_of(body: str) -> str:
    """What a text asks for. The whole text must be the keyword, as carriers match them; an opt-out word
    followed by more words ("stop please", "STOP texting me") also stops: in doubt, a person is not texted."""
    word = keyword(body)
    if word in OPT_OUT_WORDS or (word.split(maxsplit=1) or [""])[0] in OPT_OUT_WORDS:
        return STOPPED
    if word in OPT_IN_WORDS:
        return RESUMED
    if word in HELP_WORDS:
        return HELPED
    return IGNORED


def help_text(said: Words | None = None) -> str:
    """The answer to HELP: what the service is, whom to ask, the rates notice and the opt-out words."""
    said = said or words(None)
    settings = get_settings()
    parts = [said._(ABOUT, service=settings.service_name)]
    if settings.support_contact:
        parts.append(said._(HELP_CONTACT, contact=settings.support_contact))
    parts += [said._(RATES_NOTICE), said._(STOP_WORDS)]
    return " ".join(parts)


def help_language(body: str, sender: str) -> Words:
    """The language of the HELP answer: the one of the word written, else the one of the number's country."""
    return words(HELP_WORDS.get(keyword(body)) or of_number(sender))


def handle(message: str, otherwise: Callable[[InboundText], str] | None = None) -> str:
    """Act on one SNS message of the inbound topic; returns what was done (STOPPED, RESUMED, HELPED, IGNORED,
    or what ``otherwise`` did with a text that is no keyword: a reply to a text that asked). AWS faults are
    raised, so Lambda retries the delivery."""
    text = parse(message)
    if text is None:
        return IGNORED
    action = action_of(text.body)
    if action == IGNORED and otherwise is not None:
        action = otherwise(text)
    elif action == STOPPED:
        stop_list.stop(text.sender, stop_list.FROM_TEXT)
    elif action == RESUMED:
        stop_list.resume(text.sender)
    elif action == HELPED:
        try:
            sms_sender.send_sms(
                text.sender,
                help_text(help_language(text.body, text.sender)),
                priority=sms_sender.Priority.ASKED,
                origination=text.service_number,
            )
        except sms_sender.SmsRefused as refused:  # will not pass on a retry: logged, not raised
            log.warning("inbound sms: the HELP answer was refused: %s", refused)
        except TextsPaused:  # the month's budget is spent: a retry of the delivery would not help either
            log.warning("inbound sms: the HELP answer was not sent, texts are paused")
    log.info("inbound sms from %s: %s", mask_phone(text.sender), action)
    return action
