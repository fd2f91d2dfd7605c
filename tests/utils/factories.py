"""Service-level factories: users with tokens and events, without texting pins (fast tests)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

from chalicelib.models.auth import Pin, pin_pk
from chalicelib.models.events import META_SK, Event, EventsTable, Invitation, event_pk, invitation_sk
from chalicelib.models.users import User
from chalicelib.services.hosting import events
from chalicelib.services.identity import auth, users

_numbers = itertools.count(100)


def phone(n: int | None = None) -> str:
    """A valid, distinct US number: +1 202 555 xxxx. Drawn ones never end in 99: the emulator has every
    such number opted out of texts (chalicelib/messaging/sms_sender.py); ask for one with ``n``."""
    if n is None:
        n = next(_numbers)
        while n % 100 == 99:
            n = next(_numbers)
    return f"+1202555{n % 10000:04d}"


class Person:
    """A user and a bearer token for them."""

    def __init__(self, user, token: str):
        self.user = user
        self.token = token

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def phone(self) -> str:
        return self.user.phone_number


def make_person(full_name: str = "Someone", number: str | None = None, *, active: bool = True) -> Person:
    user, _ = users.find_or_create_user(number or phone(), active=active)
    if full_name:
        user = users.update_profile(user, {"full_name": full_name, "email": f"{full_name.split()[0].lower()}@ex.test"})
    return Person(user, auth.issue_token(user) if active else "")


def future(days: float = 10, hour: int = 18) -> datetime:
    base = datetime.now(UTC) + timedelta(days=days)
    return base.replace(hour=hour, minute=0, second=0, microsecond=0)


def make_event(owner: Person, *guests: Person, title: str = "Dinner", when: datetime | None = None, **extra):
    """An event of ``owner`` with ``guests`` invited (no texts: they all have accounts)."""
    data = events.EventInput(
        title=title,
        event_date=when or future(),
        is_time_specified=True,
        invite_phone_numbers=[guest.phone for guest in guests],
        **extra,
    )
    return events.create_event(owner.user, data).event


def make_cohost(event_id: int, person: Person) -> None:
    """Mark ``person``'s invitation to the event a co-host's, as the owner's appointment stores it."""
    invitation = Invitation.get(event_pk(event_id), invitation_sk(person.id), consistent_read=True)
    invitation.update(actions=[Invitation.cohost.set(True)])


def stored_event(event_id: int) -> Event:
    return Event.get(event_pk(event_id), META_SK, consistent_read=True)


def stored_pin(phone_number: str) -> Pin | None:
    """The pin item of ``phone_number`` as stored, or None."""
    try:
        return Pin.get(pin_pk(phone_number), consistent_read=True)
    except Pin.DoesNotExist:
        return None


def user_with_token(number: str, *, active: bool = True, full_name: str = "") -> tuple[User, str]:
    """A user (with no profile beyond ``full_name``) and a token for them ("" when inactive)."""
    user, _ = users.find_or_create_user(number, active=active)
    if full_name:
        user = users.update_profile(user, {"full_name": full_name})
    return user, auth.issue_token(user) if active else ""


def table_items() -> list[dict]:
    """Every item of the events table, for "nothing stored" assertions (a test-only Scan)."""
    return sorted(
        (item.serialize() for item in EventsTable.scan()), key=lambda item: (item["pk"]["S"], item["sk"]["S"])
    )


def put(client, path: str, token: str | None = None):
    """A PUT with no body (Content-Length 0), as the spec's action routes take."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.http.request("PUT", path, headers=headers)


def add_message(event_id: int, author: Person, text: str, at: datetime):
    from chalicelib.ids import new_id
    from chalicelib.models.events import Message, message_sk

    message_id = new_id()
    Message(
        event_pk(event_id), message_sk(at, message_id), id=message_id, user_id=author.id, body=text, created=at
    ).save()


def add_poll(event_id: int, author: Person, venue: str, when: datetime, at: datetime):
    from chalicelib.ids import new_id
    from chalicelib.models.events import POLL_PREFIX, Poll
    from chalicelib.services.conversation.conversation import poll_dedupe_key

    poll_id = new_id()
    Poll(
        event_pk(event_id),
        f"{POLL_PREFIX}{poll_id}",
        id=poll_id,
        user_id=author.id,
        suggested_date=when,
        suggested_venue=venue,
        dedupe_key=poll_dedupe_key(when, venue),
        created=at,
    ).save()
