"""Texts people send to the service's numbers (two-way SMS through SNS): STOP, START, HELP."""

from __future__ import annotations

from chalicelib.services.texts import inbound_sms


def handle_inbound_text(message: str) -> str:
    """One SNS message of the inbound topic; returns what was done (stopped, resumed, helped, ignored)."""
    return inbound_sms.handle(message)
