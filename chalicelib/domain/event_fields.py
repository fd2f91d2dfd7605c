"""The fields of an event a create or an edit takes, declared once: what each one is, its bounds, its
default, whether editing it tells the guests (and with which words) and whether it changes a guest's
calendar entry. Parsing (api/event_input.py), the values of a create and of an edit (``DeclaredValues``
below: ``EventInput``, ``EventEdit``), the stored defaults and the edit of META (store/events.py), the
representation's simple keys, clone and export, the change words of the ``event_changed`` push and the
calendar revision all read this list. Adding a plain field is one entry here, its attribute on the model and
openapi (docs/data-model.md, "Adding an event field"; tests/domain/test_event_fields.py checks the
declaration against openapi.yaml).

Kinds: ``text`` (max_length, blank or not), ``int`` (min_value..max_value, or a setting's name as the
maximum), ``bool``, ``enum`` (one of ``choices``; the first is the default, today's behaviour),
``timestamp``, ``https_url`` (text that must be an https address: :func:`https_url_problem`), ``phones`` (a
list of numbers, not stored on the event), and kinds
parsed by a rule of their own (``location``, ``time_zone``, ``questions``: domain/questions.py). A field is
``stored`` when it is one
attribute of META written as sent; the others (the date with its index keys, the place, the zone)
have their own writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Self
from urllib.parse import urlsplit

from chalicelib.localtime import MAX_DURATION_MINUTES

MAX_EXTRA_GUESTS = 10  # people one guest may bring, at most
MAX_GUEST_INVITES = 15  # numbers one guest may add to an event, at most

# Who may join without an invitation, who sees the guest list, who sees the place.
JOIN_MODES = ("invite_only", "open", "approval")
GUEST_LIST_SHOWN = ("everyone", "count_only", "hosts_only")
PLACE_SHOWN = ("everyone", "accepted")
# Who may add photos to the event's album (from its start until ALBUM_OPEN_DAYS after): nobody, or the hosts
# and the going guests.
ALBUM_MODES = ("off", "guests")
# Reminders and "still coming?" (services/notifications/attendance_steps.py): hours before the start.
MAX_REMINDER_HOURS = 168
MAX_CONFIRM_HOURS = 72


@dataclass(frozen=True)
class EventField:
    name: str
    kind: str
    required_on_create: bool = False
    min_value: int | None = None
    max_value: int | None = None
    max_value_setting: str | None = None  # the maximum is this setting (config.Settings) instead
    max_length: int | None = None
    allow_blank: bool = True
    default: object = None  # stored on create when not sent
    stored: bool = True  # one attribute of META, written as sent on create and edit
    change_words: str | None = None  # an edit of it tells the guests, naming it so
    calendar: bool = False  # an edit of it revises the guests' calendar entry
    nullable: bool = False  # null clears it (parsed as "")
    choices: tuple[str, ...] = ()  # enum: the values taken, the first the default


# In the order a body is checked (the order of the field errors of a 400).
EVENT_FIELDS: tuple[EventField, ...] = (
    EventField(
        "title", "text", required_on_create=True, max_length=200, allow_blank=False, change_words="title", calendar=True
    ),
    EventField("event_date", "timestamp", required_on_create=True, stored=False, change_words="date", calendar=True),
    EventField("is_time_specified", "bool", default=False, change_words="time", calendar=True),
    EventField("total_spots", "int", min_value=0, max_value_setting="max_spots", default=0),
    EventField("invite_phone_numbers", "phones", stored=False),
    EventField("location", "location", stored=False, change_words="location", calendar=True),
    EventField("address", "text", max_length=1000, default="", change_words="address", calendar=True),
    EventField("venue_name", "text", max_length=100, default="", change_words="venue", calendar=True),
    # where an online event happens (a video call's link): shown like the place (domain/visibility.py)
    EventField(
        "online_url", "https_url", max_length=500, default="", change_words="online link", calendar=True, nullable=True
    ),
    EventField("max_extra_guests", "int", min_value=0, max_value=MAX_EXTRA_GUESTS, default=0),
    EventField("waitlist", "bool", default=False),
    EventField("time_zone", "time_zone", stored=False, calendar=True),
    EventField("duration_minutes", "int", min_value=1, max_value=MAX_DURATION_MINUTES, stored=False, calendar=True),
    EventField("rsvp_deadline", "timestamp", stored=False, nullable=True),  # at most event_date (services.events)
    EventField("replies_paused", "bool", default=False),
    EventField("join_mode", "enum", choices=JOIN_MODES, default=JOIN_MODES[0]),
    EventField("guest_invites", "int", min_value=0, max_value=MAX_GUEST_INVITES, default=0),
    EventField("guest_list", "enum", choices=GUEST_LIST_SHOWN, default=GUEST_LIST_SHOWN[0]),
    # calendar: whether a guest's entry carries the place changes with it (guest_page/ics.py)
    EventField("place_visibility", "enum", choices=PLACE_SHOWN, default=PLACE_SHOWN[0], calendar=True),
    EventField("questions", "questions", stored=False),  # domain.questions; ids given by services.events
    EventField("album", "enum", choices=ALBUM_MODES, default=ALBUM_MODES[0]),
    EventField("reminder_hours", "int", min_value=0, max_value=MAX_REMINDER_HOURS, default=24),  # 0: no reminder
    EventField("confirm_attendance", "bool", default=False),
    EventField("confirm_hours", "int", min_value=1, max_value=MAX_CONFIRM_HOURS, default=24),
    EventField("release_unconfirmed", "bool", default=False),
)

BY_NAME = {field.name: field for field in EVENT_FIELDS}
STORED = tuple(field for field in EVENT_FIELDS if field.stored)
CALENDAR_FIELDS = tuple(field.name for field in EVENT_FIELDS if field.calendar)
# Edited fields that tell the guests, as a person would name them.
FIELD_WORDS = {field.name: field.change_words for field in EVENT_FIELDS if field.change_words}


def stored_value(field: EventField, sent: object) -> object:
    """What META holds for ``field`` on create: the value sent, else the declared default."""
    if field.kind == "bool":
        return bool(sent) if sent is not None else field.default
    return sent if sent not in (None, "") else field.default


def shown_value(field: EventField, held: object) -> object:
    """How a stored field appears in every representation of the event: never null (an item stored before
    the field existed shows its default)."""
    if field.kind == "bool":
        return bool(held)
    if field.kind == "int":
        return int(held) if held is not None else int(field.default or 0)
    return held if held or field.default is None else field.default


class DeclaredValues:
    """Values named by this declaration: the base of what a create or an edit sends (``EventInput``) and what
    an edit writes (``EventEdit``), so a declared field is an attribute of both without being written again.
    A subclass says which declared fields it carries (``declared_names``, read on every construction) and
    annotates its own attributes with their defaults, as a dataclass does. A declared attribute not given is
    None ("not sent", "unchanged")."""

    @classmethod
    def declared_names(cls) -> tuple[str, ...]:
        """The declared fields this kind of values carries."""
        raise NotImplementedError

    @classmethod
    def _own_defaults(cls) -> dict[str, object]:
        """The attributes the subclasses annotate themselves, with their class defaults (None without one)."""
        own: dict[str, object] = {}
        for klass in reversed(cls.__mro__):
            for name in vars(klass).get("__annotations__", {}):
                own[name] = getattr(cls, name, None)
        return own

    def __init__(self, **given: object) -> None:
        values = dict.fromkeys(self.declared_names())
        values.update(self._own_defaults())
        unknown = sorted(set(given) - set(values))
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(unknown)}")
        values.update(given)
        for name, value in values.items():
            setattr(self, name, value)

    def _values(self) -> dict[str, object]:
        return dict(vars(self))

    def replace(self, **changes: object) -> Self:
        """A copy with ``changes`` (as ``dataclasses.replace``)."""
        return type(self)(**{**self._values(), **changes})

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._values() == other._values()

    __hash__ = None  # mutable, as a dataclass

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in self._values().items() if value is not None)
        return f"{type(self).__name__}({shown})"


NOT_HTTPS_URL = "Enter a valid URL starting with https://."


def https_url_problem(value: str) -> str | None:
    """Why ``value`` (trimmed, not blank) is not a link people can safely open: an https address with a host, no
    user name or password (``https://zoom.us@elsewhere.example`` would open elsewhere), no spaces or control
    characters. None when it is one."""
    if any(char.isspace() or ord(char) < 32 or ord(char) == 127 for char in value):
        return NOT_HTTPS_URL
    try:
        parts = urlsplit(value)
        hostname, _port = parts.hostname, parts.port  # a port that is not a number raises ValueError
    except ValueError:
        return NOT_HTTPS_URL
    if parts.scheme.lower() != "https" or not hostname or "@" in parts.netloc:
        return NOT_HTTPS_URL
    return None
