"""The catalogue of rate limits: every limit the service counts, in one place.

Each entry names the limit (the name is part of its stored keys: never rename a deployed one), what one
allowance belongs to (``scope``), the setting that sizes it, its window and whether that window rolls
("in any 24 hours") or follows the clock ("per clock hour"). services/guards/ratelimit.py builds the limits the
code charges from these entries, and docs/rate-limits.md is generated from them
(``python -m chalicelib.limits > docs/rate-limits.md``; a test keeps the two the same).
"""

from __future__ import annotations

from dataclasses import dataclass

from chalicelib.config import Settings

USER, NUMBER, ADDRESS = "user", "phone number", "caller address (IPv6: its /64)"
HOUR, DAY = 3600, 86400


@dataclass(frozen=True)
class RateLimit:
    name: str
    scope: str
    setting: str  # the Settings field holding the size
    rolling: bool  # any window of its length (True), or a window of the clock
    counts: str  # what one unit is
    beyond: str  # what a caller past it gets
    window_seconds: int = DAY
    window_setting: str | None = None  # the Settings field holding the window, when it has one

    def size(self, settings: Settings) -> int:
        return getattr(settings, self.setting)

    def window(self, settings: Settings) -> int:
        return getattr(settings, self.window_setting) if self.window_setting else self.window_seconds


PINS_PER_NUMBER = RateLimit(
    name="sms-number",
    scope=NUMBER,
    setting="auth_sms_per_number",
    rolling=True,
    counts="a pin texted (login, or account deletion on the web)",
    beyond="429",
    window_setting="auth_sms_number_window_seconds",
)
PINS_PER_ADDRESS = RateLimit(
    name="sms-ip",
    scope=ADDRESS,
    setting="auth_sms_per_ip_per_hour",
    rolling=False,
    counts="a pin asked for",
    beyond="429",
    window_seconds=HOUR,
)
VERIFY_PER_ADDRESS = RateLimit(
    name="verify-ip",
    scope=ADDRESS,
    setting="auth_verify_per_ip_per_hour",
    rolling=False,
    counts="a `verify_pin` try",
    beyond="429 (the try costs the pin nothing)",
    window_seconds=HOUR,
)
GUEST_PAGE_PER_ADDRESS = RateLimit(
    name="web-ip",
    scope=ADDRESS,
    setting="web_requests_per_ip_per_hour",
    rolling=False,
    counts="a guest-page view, calendar download or answer",
    beyond="a 429 page",
    window_seconds=HOUR,
)
CONTACT_LOOKUPS = RateLimit(
    name="contact-lookup",
    scope=USER,
    setting="contact_lookup_numbers_per_user_per_day",
    rolling=True,
    counts="a distinct number looked up (`from_phone_numbers`) or invited for the first time",
    beyond="429, the request refused whole",
)
EVENTS_CREATED = RateLimit(
    name="events-created",
    scope=USER,
    setting="events_per_owner_per_day",
    rolling=True,
    counts="an event created",
    beyond="429, nothing stored",
)
SERIES_CREATED = RateLimit(
    name="series-created",
    scope=USER,
    setting="series_per_owner_per_day",
    rolling=True,
    counts="a series created (it counts as one event created too)",
    beyond="429, nothing stored",
)
EXPORTS = RateLimit(
    name="export",
    scope=USER,
    setting="exports_per_day",
    rolling=True,
    counts="a data export started",
    beyond="429",
)
INVITE_TEXTS_PER_OWNER = RateLimit(
    name="invite-sms",
    scope=USER,
    setting="invite_sms_per_owner_per_hour",
    rolling=False,
    counts="an invitation text the owner causes",
    beyond="the invitation is made without a text (never a 429)",
    window_seconds=HOUR,
)
INVITE_TEXTS_PER_STRANGER = RateLimit(
    name="invite-sms-to",
    scope=NUMBER,
    setting="invite_sms_per_stranger_per_day",
    rolling=True,
    counts="an invitation text to a number without an active user, from any owner",
    beyond="the invitation is made without a text",
)

ANNOUNCEMENTS = RateLimit(
    name="announce",
    scope="event",
    setting="announcements_per_event_per_day",
    rolling=True,
    counts="an announcement of the event",
    beyond="429, nothing stored or sent",
)
NUDGES = RateLimit(
    name="nudge",
    scope="event",
    setting="nudges_per_event_per_day",
    rolling=True,
    counts="a nudge of the event's invitees who have not answered",
    beyond="429, nothing sent",
)
JOIN_REQUESTS_PER_NUMBER = RateLimit(
    name="join-request",
    scope=NUMBER,
    setting="join_requests_per_number_per_day",
    rolling=True,
    counts="an event asked to join by its link (a request awaiting approval; asking again costs nothing)",
    beyond="429, no request stored",
)
TEXT_REPLIES_PER_NUMBER = RateLimit(
    name="text-reply",
    scope=NUMBER,
    setting="text_replies_per_number_per_hour",
    rolling=False,
    counts="a reply by text acted on (an answer, or the help text for a reply not read)",
    beyond="the reply is ignored, no text answers it",
    window_seconds=HOUR,
)

CATALOGUE = (
    PINS_PER_NUMBER,
    PINS_PER_ADDRESS,
    VERIFY_PER_ADDRESS,
    GUEST_PAGE_PER_ADDRESS,
    CONTACT_LOOKUPS,
    EVENTS_CREATED,
    SERIES_CREATED,
    EXPORTS,
    INVITE_TEXTS_PER_OWNER,
    INVITE_TEXTS_PER_STRANGER,
    ANNOUNCEMENTS,
    NUDGES,
    JOIN_REQUESTS_PER_NUMBER,
    TEXT_REPLIES_PER_NUMBER,
)


def _window_words(limit: RateLimit, settings: Settings) -> str:
    seconds = limit.window(settings)
    length = {HOUR: "hour", DAY: "24 hours"}.get(seconds) or (
        f"{seconds // 60} minutes" if seconds % 60 == 0 else f"{seconds} seconds"
    )
    where = f" (`{limit.window_setting.upper()}`)" if limit.window_setting else ""
    if limit.rolling:
        return f"any {length}{where}, rolling"
    return f"clock {length}{where}" if length == "hour" else f"fixed {length}{where}"


def markdown(settings: Settings | None = None) -> str:
    """docs/rate-limits.md: the catalogue as a table, with the default sizes."""
    settings = settings or Settings()
    lines = [
        "# Rate limits",
        "",
        "Generated from `chalicelib/limits.py` (`python -m chalicelib.limits > docs/rate-limits.md`); do not",
        "edit by hand. Sizes are the defaults; each is a setting (docs/configuration.md). Rolling limits count",
        "any window of their length exactly (one log item per subject); clock windows are one counter per",
        "subject and window. Every 429 carries `Retry-After`.",
        "",
        "| limit | per | one unit | size (setting) | window | beyond |",
        "|---|---|---|---|---|---|",
    ]
    for limit in CATALOGUE:
        size = f"{limit.size(settings)} (`{limit.setting.upper()}`)"
        window = _window_words(limit, settings)
        lines.append(f"| `{limit.name}` | {limit.scope} | {limit.counts} | {size} | {window} | {limit.beyond} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
