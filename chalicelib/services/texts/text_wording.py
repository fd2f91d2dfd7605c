"""What every text to a guest without the app shares, whatever it tells: its segment limits, the title as a text
shows it, the place on one line, and the ending (link, the line that asks for a reply, the opt-out words), each in
the person's language (``Words``)."""

from __future__ import annotations

from chalicelib.config import get_settings
from chalicelib.languages.catalogues import N_, Words, words
from chalicelib.messaging import sms_segments

STOP_WORDS = N_("Reply STOP to opt out.")
NO_TITLE = N_("(no title)")
# An online event's place in a text: the word, not its link, which a cut would break and which costs segments;
# the text's own link opens the page that shows it.
ONLINE = N_("online")


def segment_limits() -> dict[str, int]:
    """The segments a text may take, by its alphabet (``SMS_MAX_SEGMENTS`` settings: GSM-7 and UCS-2)."""
    settings = get_settings()
    return {"gsm": settings.invite_sms_max_segments, "ucs2": settings.invite_sms_max_segments_ucs2}


def shown_title(title: str | None, said: Words | None = None) -> str:
    """The title as a text names it; "(no title)" in the person's words when it is only invisible characters."""
    return title if sms_segments.one_line(title or "") else (said or words(None))._(NO_TITLE)


def place_line(place, online_url: str | None = None, said: Words | None = None) -> str:
    """The place as a text names it: its name and address on one line, and "online" for an online event's link
    (the text's own link opens the page that shows it)."""
    parts = [sms_segments.one_line(part or "") for part in (place.venue_name, place.address)]
    return ", ".join([part for part in parts if part] + ([(said or words(None))._(ONLINE)] if online_url else []))


def ending(said: Words, *parts: str) -> str:
    """`` <link> [<the line that asks>] Reply STOP to opt out.``: ``parts`` that are not empty, then the opt-out
    words, each after a space."""
    return "".join(f" {part}" for part in (*parts, said._(STOP_WORDS)) if part)
