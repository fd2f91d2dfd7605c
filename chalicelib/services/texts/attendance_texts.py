"""The texts sent before an event's start to guests without the app: the reminder, the "still coming?" ask and
the notice that an unconfirmed party's spot went to someone waiting, each in the person's language.

Each is cut like a change text (the place first, then the title, never below their minimums) within the
invitation texts' limits (2 segments in the SMS alphabet, 3 in UCS-2), and ends with the opt-out words. With
two-way texting on, the line that asks for a reply (:func:`asking_line`) comes before them.
"""

from __future__ import annotations

from datetime import datetime

from chalicelib import localtime
from chalicelib.config import get_settings
from chalicelib.domain import attendance_steps
from chalicelib.languages import dates
from chalicelib.languages.catalogues import N_, Words, words
from chalicelib.messaging import sms_segments
from chalicelib.services.texts.invitation_texts import ANSWER_WORDS
from chalicelib.services.texts.text_wording import ending, place_line, segment_limits, shown_title

# Translators: {day} says when, relative to today ("tomorrow at 20:30 CET"); the link and the opt-out words follow.
REMINDER = N_('{service}: Reminder: "{title}" is {day}.')
# Translators: as above, with {place} the event's place (its name and address, or "online").
REMINDER_WITH_PLACE = N_('{service}: Reminder: "{title}" is {day}, {place}.')
TODAY = N_("today")
TOMORROW = N_("tomorrow")
# Translators: {day} is "today", "tomorrow" or "on Saturday"; {time} the clock time with its zone.
DAY_AT_TIME = N_("{day} at {time}")
# Translators: {when} is the event's date; the link, the line asking for a reply and the opt-out words follow.
STILL_COMING = N_('{service}: Still coming to "{title}", {when}?')
STILL_COMING_WITHOUT_WHEN = N_('{service}: Still coming to "{title}"?')
RELEASED = N_('{service}: "{title}": We gave your spot to someone waiting, since we didn\'t hear back.')
# What each text asks for, when replies to the stage's number reach the service.
ASKING_LINES = {
    attendance_steps.REMINDER: ANSWER_WORDS,
    attendance_steps.CONFIRM: N_("Reply 1 to confirm, 2 to free your spot."),
    attendance_steps.RELEASE: N_("Reply 1 to get back in line."),
}


def asking_line(kind: str, said: Words | None = None) -> str:
    """The line a text that asks ends with before the opt-out words; "" when the stage takes no replies."""
    return (said or words(None))._(ASKING_LINES[kind]) if get_settings().sms_two_way else ""


def _ending(kind: str, link: str, said: Words) -> str:
    """`` <link> [<asking line>] Reply STOP to opt out.``"""
    return ending(said, link, asking_line(kind, said))


def relative_day(start: datetime, now: datetime, zone, said: Words) -> str:
    """The start's day as said on ``now``'s day, both in ``zone``, in the person's words: ``today``,
    ``tomorrow``, ``on Saturday`` (within the week), else ``on Dec 12``."""
    day, today = start.astimezone(zone).date(), now.astimezone(zone).date()
    days = (day - today).days
    if days <= 0:
        return said._(TODAY)
    if days == 1:
        return said._(TOMORROW)
    if days < 7:
        # Translators: {day} is a weekday ("Saturday"), as in "the party is on Saturday".
        return said._p("weekday", "on {day}", day=dates.day_of_week(day, said.language))
    # Translators: {day} is a day and month ("Dec 12"), as in "the party is on Dec 12".
    return said._p("date", "on {day}", day=dates.day_of_year(day, said.language))


def reminder_text(event, link: str, now: datetime, *, with_place: bool, said: Words | None = None) -> str:
    """``<service>: Reminder: "<title>" is <relative day> at <time>[, <place>]. <link> ...``; the place only for
    a guest who may see it, and only when it fits beside the title."""
    service, zone, said = get_settings().service_name, localtime.zone_of(event), said or words(None)
    day = relative_day(event.event_date, now, zone, said)
    if event.is_time_specified:
        day = said._(DAY_AT_TIME, day=day, time=dates.clock(localtime.local_start(event), said.language))
    place = place_line(event, getattr(event, "online_url", None), said) if with_place else ""
    after = _ending(attendance_steps.REMINDER, link, said)

    def with_where(where: str, title: str) -> str:
        return said._(REMINDER_WITH_PLACE, service=service, title=title, day=day, place=where) + after

    def without_where(_where: str, title: str) -> str:
        return said._(REMINDER, service=service, title=title, day=day) + after

    # the place goes first when even its minimum does not fit beside the title's (long words in UCS-2)
    templates = [with_where, without_where] if place else [without_where]
    return sms_segments.fit(templates, place, shown_title(event.title, said), segment_limits())


def still_coming_text(event, link: str, said: Words | None = None) -> str:
    """``<service>: Still coming to "<title>", <when>? <link> ...`` (the when shorter, then left out, before the
    title is cut below its minimum)."""
    service, said = get_settings().service_name, said or words(None)
    after = _ending(attendance_steps.CONFIRM, link, said)

    def wording(when: str) -> sms_segments.Template:
        if not when:  # left out last, when the title's minimum needs the room
            return lambda _name, title: said._(STILL_COMING_WITHOUT_WHEN, service=service, title=title) + after
        return lambda _name, title: said._(STILL_COMING, service=service, title=title, when=when) + after

    whens = (dates.short_when(event, said.language), dates.short_when(event, said.language, weekday=False), "")
    return sms_segments.fit([wording(when) for when in whens], "", shown_title(event.title, said), segment_limits())


def released_text(event, link: str, said: Words | None = None) -> str:
    """``<service>: "<title>": We gave your spot to someone waiting, since we didn't hear back. ...``"""
    service, said = get_settings().service_name, said or words(None)

    def wording(after: str) -> sms_segments.Template:
        return lambda _name, title: said._(RELEASED, service=service, title=title) + after

    # with a reply line to answer by, the link goes before the title is cut below its minimum
    endings = [_ending(attendance_steps.RELEASE, link, said)]
    if asking_line(attendance_steps.RELEASE, said):
        endings.append(_ending(attendance_steps.RELEASE, "", said))
    return sms_segments.fit([wording(after) for after in endings], "", shown_title(event.title, said), segment_limits())
