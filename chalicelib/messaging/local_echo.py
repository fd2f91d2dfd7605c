"""Local runs print each text and push they send, so a person can log in without a phone."""

from __future__ import annotations

import json

from chalicelib.config import get_settings


def echo(channel: str, to: str | int, text: str) -> None:
    """``channel`` is "sms" or "push". Local runs only: the text holds a pin and the SMS a whole number,
    never for a deployed stage's logs."""
    settings = get_settings()
    if settings.echo_notifications and settings.stage == "local":
        print(json.dumps({"msg": channel, "to": to, "text": text}), flush=True)
