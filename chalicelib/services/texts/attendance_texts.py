"""The texts sent before an event's start to guests without the app: the reminder, the "still coming?" ask and
the notice that an unconfirmed party's spot went to someone waiting.

Each is cut like a change text (the place first, then the title, never below their minimums) within the
invitation texts' limits (2 segments in the SMS alphabet, 3 in UCS-2), and ends with the opt-out words. With
two-way texting on, the line that asks for a reply (:func:`asking_line`) comes before them.
"""

from __future__ import annotations

from datetime import datetime

from chalicelib import localtime
from chalicelib.config import get_settings
from chalicelib.domain import attendance_steps
from chalicelib.messaging import sms_segments
from chalicelib.services.texts.guest_texts import _limits, _place, _title
from chalicelib.services.texts.invitation_texts import ANSWER_WORDS, STOP_WORDS

# What each text asks for, when replies to the stage's number reach the service.
ASKING_LINES = {
    attendance_steps.REMINDER: ANSWER_WORDS,
    attendance_steps.CONFIRM: "Reply 1 to confirm, 2 to free your spot.",
    attendance_steps.RELEASE: "Reply 1 to get back in line.",
}


def asking_line(kind: str) -> str:
    """The line a text that asks ends with before the opt-out words; "" when the stage takes no replies."""
    return ASKING_LINES[kind] if get_settings().sms_two_way else ""


def _ending(kind: str, link: str) -> str:
    """`` <link> [<asking line>] Reply STOP to opt out.``"""
    return "".join(f" {part}" for part in (link, asking_line(kind), STOP_WORDS) if part)


def reminder_text(event, link: str, now: datetime, *, with_place: bool) -> str:
    """``<service>: Reminder: "<title>" is <relative day> at <time>[, <place>]. <link> ...``; the place only for
    a guest who may see it, and only when it fits beside the title."""
    service, zone = get_settings().service_name, localtime.zone_of(event)
    day = attendance_steps.relative_day(event.event_date, now, zone)
    if event.is_time_specified:
        start = localtime.local_start(event)
        day = f"{day} at {localtime.clock(start)} {localtime.zone_label(start)}"
    place = _place(event, getattr(event, "online_url", None)) if with_place else ""
    ending = _ending(attendance_steps.REMINDER, link)

    def with_where(where: str, title: str) -> str:
        return f'{service}: Reminder: "{title}" is {day}, {where}.{ending}'

    def without_where(_where: str, title: str) -> str:
        return f'{service}: Reminder: "{title}" is {day}.{ending}'

    # the place goes first when even its minimum does not fit beside the title's (long words in UCS-2)
    templates = [with_where, without_where] if place else [without_where]
    return sms_segments.fit(templates, place, _title(event), _limits())


def still_coming_text(event, link: str) -> str:
    """``<service>: Still coming to "<title>", <when>? <link> ...`` (the when shorter, then left out, before the
    title is cut below its minimum)."""
    service = get_settings().service_name
    ending = _ending(attendance_steps.CONFIRM, link)

    def wording(when: str) -> sms_segments.Template:
        when = f", {when}" if when else ""  # left out last, when the title's minimum needs the room
        return lambda _name, title: f'{service}: Still coming to "{title}"{when}?{ending}'

    whens = (localtime.short_when(event), localtime.short_when(event, weekday=False), "")
    templates = [wording(when) for when in whens]
    return sms_segments.fit(templates, "", _title(event), _limits())


def released_text(event, link: str) -> str:
    """``<service>: "<title>": We gave your spot to someone waiting, since we didn't hear back. ...``"""
    service = get_settings().service_name

    def wording(ending: str) -> sms_segments.Template:
        return lambda _name, title: (
            f'{service}: "{title}": We gave your spot to someone waiting, since we didn\'t hear back.{ending}'
        )

    # with a reply line to answer by, the link goes before the title is cut below its minimum
    endings = [_ending(attendance_steps.RELEASE, link)]
    if asking_line(attendance_steps.RELEASE):
        endings.append(_ending(attendance_steps.RELEASE, ""))
    return sms_segments.fit([wording(ending) for ending in endings], "", _title(event), _limits())
