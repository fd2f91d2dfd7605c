"""Texts people send to the service's numbers (two-way SMS through SNS): STOP, START, HELP, and, with two-way
texting on (``SMS_TWO_WAY``), replies that answer an invitation."""

from __future__ import annotations

from chalicelib.config import get_settings
from chalicelib.services.texts import inbound_sms
from chalicelib.services.web import text_answers


def handle_inbound_text(message: str) -> str:
    """One SNS message of the inbound topic; returns what was done (stopped, resumed, helped, answered, ...)."""
    replies = text_answers.handle if get_settings().sms_two_way else None
    return inbound_sms.handle(message, otherwise=replies)
