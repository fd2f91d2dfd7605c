"""A mobile app's whole flow, written only against the Python client generated from openapi.yaml.

Two people log in with the pin texted to them, one creates an event with spots and a poll and invites
the other and a number without an account; the guest accepts and writes, the owner reads the detail. Later
the owner asks both when they can make a game night (a plan), the guest votes, and the owner decides it.
At the end the guest asks for a copy of their data, waits until it is ready, and deletes the account,
after which their token is refused.
Along the way it shows how a caller tells the answers apart:

- every documented answer has a type of its own (``EventCreated``, ``NotFound``, ``MessageInputErrors``,
  ``MessageLimitReached``...), so ``isinstance`` (or ``match``) says which one came back;
- the clients are made with ``raise_on_unexpected_status=True``: a status the document does not list
  raises ``errors.UnexpectedStatus`` instead of coming back as ``None``;
- an operation that answers 204 is called with ``sync_detailed`` and its ``status_code`` read: no body
  is no result, which is not a failure.

Generate the client (docs/api.md, "Quickest start"), then run it against a stack, typing in the pins:

    python tests/contract/client_scenario.py http://127.0.0.1:8000

tests/contract/test_generated_clients.py type-checks this file with ``mypy --strict`` together with the
generated package, and runs it against the local stack with the pins the stack's emulator keeps.
"""

from __future__ import annotations

import base64
import io
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from http import HTTPStatus
from typing import Any, TypeVar

import httpx
from invites_client import AuthenticatedClient, Client
from invites_client.api.auth import register, request_pin, verify_pin
from invites_client.api.contacts import save_favorites, users_from_phone_numbers
from invites_client.api.conversation import (
    list_announcements,
    list_time_suggestions,
    post_announcement,
    post_message,
    post_poll,
    remove_message,
    suggest_time,
)
from invites_client.api.events import (
    accept_invitation,
    add_offline_guest,
    answer_attendance,
    appoint_cohost,
    cancel_series,
    clone_event,
    create_event,
    end_cohost,
    export_guest_list,
    get_event,
    join_event,
    list_events,
    list_join_requests,
    maybe_invitation,
    new_join_link,
    remove_event_cover,
    remove_offline_guest,
    reply_for_guest,
    set_event_cover,
    update_event,
)
from invites_client.api.plans import create_plan, decide_plan, get_plan, vote_plan
from invites_client.api.the_day import add_photo, check_in, get_pass, list_photos, undo_check_in
from invites_client.api.users import delete_me, get_me, get_my_data_export, new_calendar_feed, request_my_data_export
from invites_client.models import (
    AlbumMode,
    Announcement,
    AnnouncementInput,
    AnnouncementPage,
    Answers,
    AnswersInput,
    Attendance,
    AttendanceInput,
    AuthenticationFailed,
    CalendarFeed,
    CheckedInParty,
    CheckInInput,
    CheckInPass,
    CloneInput,
    Conflict,
    Coordinates,
    CoverUpload,
    EditScope,
    EventCreate,
    EventCreated,
    EventDetail,
    EventPage,
    EventUpdate,
    ExportState,
    ExportStatus,
    FavoriteContact,
    FavoriteContactInput,
    HostReplyInput,
    Invitation,
    InvitedVia,
    JoinInput,
    JoinLink,
    MessageInput,
    MessageInputErrors,
    MessageLimitReached,
    MessagePosted,
    NotFound,
    OfflineGuest,
    OfflineGuestInput,
    OwnerAttending,
    PermissionDenied,
    PhoneLookup,
    PhoneNumbersLookup,
    PhotoPage,
    PhotoType,
    PhotoUpload,
    PhotoUploadInput,
    PinRequest,
    Plan,
    PlanBallot,
    PlanChoice,
    PlanCreated,
    PlanDecided,
    PlanDecision,
    PlanInput,
    PlanLabelledOption,
    PlanStatus,
    PlanVotes,
    Poll,
    PollInput,
    QuestionInput,
    QuestionKind,
    Register,
    RejectInput,
    Repeat,
    RsvpInput,
    SeriesCreated,
    SeriesFreq,
    TimeSuggestionInput,
    UserWithToken,
    VerifyPin,
)
from invites_client.types import File

Answer = TypeVar("Answer")
PinOf = Callable[[str], str]
TIMEOUT = httpx.Timeout(30.0)
UNKNOWN_EVENT_ID = 9_007_199_254_740_991
POLLS = 30  # work done off the request (the export, the deletion's cascade) is asked after up to this many times
POLL_SECONDS = 2.0
# An 8x8 JPEG, the cover the host sets.
COVER_JPEG = base64.b64decode(
    "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19i"
    "Z2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2Nj"
    "Y2NjY2NjY2P/wAARCAAIAAgDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUF"
    "BAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVW"
    "V1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi"
    "4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAEC"
    "AxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVm"
    "Z2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq"
    "8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDMooorqPBP/9k="
)


class ScenarioFailed(AssertionError):
    """An answer other than the one the flow expects."""


def expect(answer: object, kind: type[Answer]) -> Answer:
    """``answer`` as ``kind``, or ScenarioFailed saying what came instead."""
    if not isinstance(answer, kind):
        raise ScenarioFailed(f"expected {kind.__name__}, got {answer!r}")
    return answer


def expect_list(answer: object, kind: type[Answer]) -> list[Answer]:
    """``answer`` as a list of ``kind``: an operation may answer lists of different things by status."""
    if not isinstance(answer, list) or not all(isinstance(item, kind) for item in answer):
        raise ScenarioFailed(f"expected a list of {kind.__name__}, got {answer!r}")
    return answer


def check(condition: bool, what: str) -> None:
    if not condition:
        raise ScenarioFailed(what)


@dataclass
class Outcome:
    """What the flow saw, for the caller to report or check."""

    owner: UserWithToken
    guest: UserWithToken
    event: EventDetail
    messages_stored: int
    limit_reached: MessageLimitReached | None
    export: ExportStatus


class Api:
    """Clients for one stack: anonymous, or as a logged-in person."""

    def __init__(self, base_url: str, httpx_args: dict[str, Any] | None = None):
        self.base_url = base_url
        self.httpx_args = httpx_args or {}

    def anonymous(self) -> Client:
        return Client(
            base_url=self.base_url,
            raise_on_unexpected_status=True,
            timeout=TIMEOUT,
            httpx_args=self.httpx_args,
        )

    def as_user(self, user: UserWithToken) -> AuthenticatedClient:
        return AuthenticatedClient(
            base_url=self.base_url,
            token=user.auth_token,
            raise_on_unexpected_status=True,
            timeout=TIMEOUT,
            httpx_args=self.httpx_args,
        )


def log_in(api: Api, phone: str, full_name: str, pin_of: PinOf) -> UserWithToken:
    """Ask for a pin (204: no body, told by the status), verify it, then complete the profile."""
    asked = request_pin.sync_detailed(client=api.anonymous(), body=PinRequest(phone_number=phone))
    check(asked.status_code == HTTPStatus.NO_CONTENT, f"request_pin answered {asked.status_code}: {asked.parsed!r}")
    verified = verify_pin.sync(client=api.anonymous(), body=VerifyPin(phone_number=phone, pin=pin_of(phone)))
    user = expect(verified, UserWithToken)
    email = f"{full_name.split()[0].lower()}@example.com"
    registered = register.sync(client=api.as_user(user), body=Register(full_name=full_name, email=email))
    return expect(registered, UserWithToken)


def run(
    base_url: str,
    pin_of: PinOf,
    *,
    phones: tuple[str, str, str] = ("+14155550141", "+14155550142", "+14155550143"),
    httpx_args: dict[str, Any] | None = None,
) -> Outcome:
    """The whole flow against the stack at ``base_url``; ``pin_of(phone)`` gives the pin texted there."""
    api = Api(base_url, httpx_args)
    owner_phone, guest_phone, stranger = phones  # the stranger has no account: invited by text
    owner = log_in(api, owner_phone, "Olive Owner", pin_of)
    guest = log_in(api, guest_phone, "Gus Guest", pin_of)
    as_owner, as_guest = api.as_user(owner), api.as_user(guest)

    # An event with 5 spots, a place, and two people invited.
    starts = (datetime.now(UTC) + timedelta(days=7)).replace(hour=19, minute=0, second=0, microsecond=0)
    new_event = EventCreate(
        title="Dinner at ours",
        event_date=starts,
        total_spots=5,
        invite_phone_numbers=[guest.phone_number, stranger],
        location=Coordinates(latitude=48.8566, longitude=2.3522),
        venue_name="Home",
        online_url="https://meet.example.com/dinner-at-ours",
    )
    # Sent with an Idempotency-Key: its retry (same key, same body) answers the same event and makes none.
    once = f"create-{time.time_ns()}"
    created = expect(create_event.sync(client=as_owner, body=new_event, idempotency_key=once), EventCreated)
    retried = expect(create_event.sync(client=as_owner, body=new_event, idempotency_key=once), EventCreated)
    check(retried.id == created.id, f"a retried create answered {retried!r}")
    check(created.event_date == starts and created.i_am_owner, f"created {created!r}")
    check([i.phone_number for i in created.invitees] == [owner.phone_number, guest.phone_number, stranger], "invitees")
    check(created.online_url == "https://meet.example.com/dinner-at-ours", f"online_url {created.online_url!r}")
    # who got the invitation, for the owner: a push to the guest with the app, a text to the stranger; no visit yet
    vias = [invitee.invited_via for invitee in created.invitees]
    check(vias == [None, InvitedVia.PUSH, InvitedVia.TEXT] and created.opened_count == 0, f"invited via {vias!r}")

    # A poll for another date.
    later = starts + timedelta(days=1)
    poll = expect(
        post_poll.sync(created.id, client=as_owner, body=PollInput(suggested_date=later, suggested_venue="The park")),
        Poll,
    )

    # The guest sees it in their list and accepts.
    page = expect(list_events.sync(client=as_guest), EventPage)
    check([event.id for event in page.results] == [created.id], f"the guest's events: {page!r}")
    # First a maybe (no spot held, no reply for old clients), then going.
    unsure = expect(maybe_invitation.sync(created.id, client=as_guest, body=RejectInput()), Invitation)
    check(unsure.answer == "maybe" and unsure.has_accepted_invite is None, f"maybe {unsure!r}")
    answer = accept_invitation.sync(created.id, client=as_guest, body=RsvpInput(rsvp_message="See you there"))
    invitation = expect(answer, Invitation)
    check(invitation.user_id == guest.id and invitation.has_accepted_invite is True, f"invitation {invitation!r}")
    check(invitation.answer == "going", f"answer {invitation!r}")

    # Messages: a field error, then stored ones, until the event's limit (if the stack's is low) says no.
    refused = post_message.sync(created.id, client=as_guest, body=MessageInput(body=" "))
    check(expect(refused, MessageInputErrors).body == ["This field may not be blank."], f"refused {refused!r}")
    stored, limit_reached, posted_ids = 0, None, []
    for writer, text in ((as_guest, "Bringing dessert"), (as_owner, "Lovely"), (as_guest, "Wine too?")):
        posted = post_message.sync(created.id, client=writer, body=MessageInput(body=text))
        if isinstance(posted, MessageLimitReached):
            limit_reached = posted
            break
        message = expect(posted, MessagePosted)
        check(message.body == text, f"posted {posted!r}")
        posted_ids.append(message.id)
        stored += 1

    # The host takes the first message down: it stays in place, its body null and removed true.
    if posted_ids:
        taken = remove_message.sync_detailed(created.id, posted_ids[0], client=as_owner)
        check(taken.status_code == HTTPStatus.NO_CONTENT, f"remove_message answered {taken.status_code}")
        shown = expect(get_event.sync(created.id, client=as_guest), EventDetail).messages
        check(shown[0].id == posted_ids[0] and shown[0].body is None and shown[0].removed is True, f"{shown!r}")

    # A time suggestion: 204, no body.
    suggestion = TimeSuggestionInput(suggested_time=later, comment="Saturday suits me")
    suggested = suggest_time.sync_detailed(created.id, client=as_guest, body=suggestion)
    check(suggested.status_code == HTTPStatus.NO_CONTENT, f"suggest_time answered {suggested.status_code}")
    suggestions = list_time_suggestions.sync(created.id, client=as_owner)
    check(isinstance(suggestions, list) and len(suggestions) == 1, f"suggestions {suggestions!r}")

    # The host announces (to the default audience: all who have not declined); the guest reads it.
    announced = expect(
        post_announcement.sync(created.id, client=as_owner, body=AnnouncementInput(text="Bring a jumper")),
        Announcement,
    )
    listed = expect(list_announcements.sync(created.id, client=as_guest), AnnouncementPage)
    check([a.id for a in listed.results] == [announced.id], f"announcements {listed!r}")

    # The owner makes the guest a co-host (cohost_ids, is_cohost); the co-host steps down again: 204.
    hosted = expect(appoint_cohost.sync(created.id, guest.id, client=as_owner), EventDetail)
    check(hosted.cohost_ids == [guest.id], f"co-hosts {hosted.cohost_ids!r}")
    check([row.is_cohost for row in hosted.invitees] == [False, True, False], f"rows {hosted.invitees!r}")
    stepped = end_cohost.sync_detailed(created.id, guest.id, client=as_guest)
    check(stepped.status_code == HTTPStatus.NO_CONTENT, f"end_cohost answered {stepped.status_code}")

    # The host makes the event's join link; the event is invite-only (the default), so the link opens
    # nothing yet (404), and there are no requests to decide.
    link = expect(new_join_link.sync(created.id, client=as_owner), JoinLink)
    check(link.join_mode.value == "invite_only" and "/j/" in link.url, f"join link {link!r}")
    code = link.url.rsplit("/j/", 1)[1]
    expect(join_event.sync(client=as_guest, body=JoinInput(code=code)), NotFound)
    requests = list_join_requests.sync(created.id, client=as_owner)
    check(requests == [], f"join requests {requests!r}")

    # The owner reads the detail.
    detail = expect(get_event.sync(created.id, client=as_owner), EventDetail)
    owner_row, guest_row, stranger_row = detail.invitees
    check(owner_row.is_owner and owner_row.is_attending == OwnerAttending.TRUE, f"owner {owner_row!r}")
    check(guest_row.is_attending is True and guest_row.rsvp_message == "See you there", f"guest {guest_row!r}")
    check(stranger_row.is_attending is None and not stranger_row.is_active, f"stranger {stranger_row!r}")
    check(detail.spots_filled == 1 and detail.attendees_count == 2, f"spots {detail.spots_filled}")
    check(isinstance(detail.location, Coordinates) and detail.location.latitude == 48.8566, f"{detail.location!r}")
    check(len(detail.messages) == stored and [p.id for p in detail.polls] == [poll.id], "messages and polls")
    check(detail.cohost_ids == [], f"co-hosts after stepping down {detail.cohost_ids!r}")

    # The host's tools: the guest list as a spreadsheet (the body is the file, text/csv), which a guest may not
    # take; a cover, then none; a second edition a week later with the same people invited again.
    sheet = export_guest_list.sync_detailed(created.id, client=as_owner)
    rows = sheet.content.decode("utf-8-sig").split("\r\n")
    heading_ok = rows[0].startswith('"name","phone","answer",')  # every cell quoted
    check(sheet.status_code == HTTPStatus.OK and heading_ok, f"the sheet {rows[:1]!r}")
    check(rows[1].startswith('"Gus Guest","\'+') and ',"going",' in rows[1], f"the guest's row {rows[1]!r}")
    not_theirs = export_guest_list.sync(created.id, client=as_guest)
    check(isinstance(not_theirs, PermissionDenied), f"the guest's sheet: {not_theirs!r}")
    photo = File(payload=io.BytesIO(COVER_JPEG), file_name="cover.jpg", mime_type="image/jpeg")
    covered = expect(set_event_cover.sync(created.id, client=as_owner, body=CoverUpload(photo=photo)), EventDetail)
    check(isinstance(covered.cover_url, str) and covered.cover_url.endswith("/cover.jpg"), f"{covered.cover_url!r}")
    uncovered = expect(remove_event_cover.sync(created.id, client=as_owner), EventDetail)
    check(uncovered.cover_url is None, f"the removed cover: {uncovered.cover_url!r}")
    again = CloneInput(event_date=starts + timedelta(days=7), invite_same_guests=True)
    second = expect(clone_event.sync(created.id, client=as_owner, body=again), EventCreated)
    check([i.phone_number for i in second.invitees] == [i.phone_number for i in created.invitees], "the same guests")
    check(second.title == created.title and all(i.is_attending is None for i in second.invitees[1:]), "no replies")

    # A weekly series of three dates for the same guests: each date its own event; a later change of the place
    # reaches the dates from the second on; the owner's live calendar lists them; the series is called off.
    weekly = EventCreate(
        title="Book club",
        event_date=starts,
        invite_phone_numbers=[guest.phone_number],
        repeat=Repeat(freq=SeriesFreq.WEEKLY, count=3),
    )
    club = expect(create_event.sync(client=as_owner, body=weekly), EventCreated)
    series = club.series
    if not isinstance(series, SeriesCreated):
        raise ScenarioFailed(f"a create with repeat answered no series: {club!r}")
    check(len(series.dates) == 3 and series.repeat.freq == SeriesFreq.WEEKLY, f"the series {series!r}")
    check(club.series_id == series.id and club.occurrence == 1, f"the first date {club!r}")
    dates = [date.id for date in series.dates]
    moved = EventUpdate(venue_name="Library", scope=EditScope.FOLLOWING)
    expect(update_event.sync(dates[1], client=as_owner, body=moved), EventDetail)
    places = [expect(get_event.sync(date, client=as_guest), EventDetail).venue_name for date in dates]
    check(places == ["", "Library", "Library"], f"the places of the dates {places!r}")
    feed = expect(new_calendar_feed.sync(client=as_owner), CalendarFeed)
    check(feed.url.endswith(".ics") and feed.webcal.startswith("webcal://"), f"the live calendar {feed!r}")
    called_off = cancel_series.sync_detailed(series.id, client=as_owner)
    check(called_off.status_code == HTTPStatus.NO_CONTENT, f"cancel_series answered {called_off.status_code}")
    check(expect(get_event.sync(dates[2], client=as_guest), EventDetail).is_cancelled is True, "a cancelled date")

    # The guest becomes a favorite contact; which of the numbers have an account.
    favorites = [
        FavoriteContactInput(phone_number=guest.phone_number, contact_name="Gus"),
        FavoriteContactInput(phone_number=stranger, contact_name="Sam"),
    ]
    saved = expect_list(save_favorites.sync(client=as_owner, body=favorites), FavoriteContact)
    check(
        [(f.contact_name, f.phone_number) for f in saved] == [("Gus", guest.phone_number), ("Sam", stranger)], "saved"
    )
    numbers = PhoneNumbersLookup(phone_numbers=[guest.phone_number, stranger, "not a number"])
    found = expect_list(users_from_phone_numbers.sync(client=as_owner, body=numbers), PhoneLookup)
    check([(row.phone_number, row.user.id) for row in found] == [(guest.phone_number, guest.id)], f"found {found!r}")

    # A small table with a waitlist, one of its two spots taken by hand: the guest bringing one more does
    # not fit and waits first in line, with no answer yet for clients that know no waitlist; a spot more
    # seats the party.
    small = EventCreate(
        title="Small table",
        event_date=starts,
        total_spots=2,
        max_extra_guests=1,
        waitlist=True,
        invite_phone_numbers=[guest.phone_number],
        questions=[
            QuestionInput(text="Main course", kind=QuestionKind.CHOICE, choices=["Fish", "Veggie"], required=True)
        ],
    )
    table = expect(create_event.sync(client=as_owner, body=small), EventCreated)
    check(table.max_extra_guests == 1 and table.waitlist is True, f"the waitlist's fields: {table!r}")
    expect(update_event.sync(table.id, client=as_owner, body=EventUpdate(spot_filled=1)), EventDetail)
    check([question.id for question in table.questions] == ["q1"], f"questions {table.questions!r}")
    answering = RsvpInput(extra_guests=1, answers=AnswersInput.from_dict({"q1": "Fish"}))
    waiting = expect(accept_invitation.sync(table.id, client=as_guest, body=answering), Invitation)
    given = waiting.answers.additional_properties if isinstance(waiting.answers, Answers) else None
    check(given == {"q1": "Fish"}, f"answers {waiting.answers!r}")
    check(waiting.has_accepted_invite is None and waiting.waitlist_position == 1, f"waiting {waiting!r}")
    check(waiting.extra_guests == 1, f"the party of {waiting!r}")
    grown = expect(update_event.sync(table.id, client=as_owner, body=EventUpdate(total_spots=3)), EventDetail)
    seat = grown.invitees[1]
    check(seat.is_attending is True and seat.waitlist_position is None, f"seated {seat!r}")
    check(grown.spots_filled == 3 and grown.attendees_count == 3, f"spots {grown.spots_filled}")
    # The guest tells the owner they cannot come after all; the owner records it for them.
    declined = reply_for_guest.sync(table.id, guest.id, client=as_owner, body=HostReplyInput(accept=False))
    declined = expect(declined, Invitation)
    check(declined.has_accepted_invite is False and declined.replied_by_host is True, f"declined {declined!r}")
    # A grandparent without a phone is counted in by name, then taken out again.
    grandpa = add_offline_guest.sync(table.id, client=as_owner, body=OfflineGuestInput(name="Grandpa Joe"))
    grandpa = expect(grandpa, OfflineGuest)
    counted_in = expect(get_event.sync(table.id, client=as_owner), EventDetail).offline_guests
    check([person.name for person in counted_in] == ["Grandpa Joe"], f"offline guests {counted_in!r}")
    removed = remove_offline_guest.sync_detailed(table.id, grandpa.id, client=as_owner)
    check(removed.status_code == HTTPStatus.NO_CONTENT, f"remove_offline_guest answered {removed.status_code}")

    the_day_itself(as_owner, as_guest, guest)
    still_coming(as_owner, as_guest, guest, starts)

    # An event the caller is not part of is not found, typed as such.
    missing = get_event.sync(UNKNOWN_EVENT_ID, client=as_owner)
    check(isinstance(missing, NotFound), f"an unknown event: {missing!r}")

    pick_a_date_together(as_owner, as_guest, guest, stranger, starts)

    # The guest takes a copy of their data, then deletes the account: their token no longer works.
    export = export_my_data(as_guest)
    deleted = delete_me.sync_detailed(client=as_guest)
    check(deleted.status_code == HTTPStatus.NO_CONTENT, f"delete_me answered {deleted.status_code}: {deleted.parsed!r}")
    refused_token = get_me.sync(client=as_guest)
    check(isinstance(refused_token, AuthenticationFailed), f"the deleted account's token: {refused_token!r}")
    after = wait_for_invitees(as_owner, created.id, [owner.phone_number, stranger])
    check(after.spots_filled == 0, f"the deleted guest's spot is still filled: {after.spots_filled}")
    check(all(message.user_id != guest.id for message in after.messages), f"messages {after.messages!r}")
    return Outcome(
        owner=owner, guest=guest, event=detail, messages_stored=stored, limit_reached=limit_reached, export=export
    )


def pick_a_date_together(
    as_owner: AuthenticatedClient, as_guest: AuthenticatedClient, guest: UserWithToken, stranger: str, starts: datetime
) -> EventCreated:
    """A plan of three dates for the guest and the number without an account; the guest votes, the owner reads
    every vote and decides: the event is made on that date with both invited, and the plan takes no more votes."""
    dates = [starts + timedelta(days=n) for n in (14, 15, 16)]
    offered: list[datetime | PlanLabelledOption] = [*dates[:2], PlanLabelledOption(starts_at=dates[2], label="Late")]
    asked = PlanInput(
        title="Game night",
        time_zone="Europe/Paris",
        options=offered,
        invite_phone_numbers=[guest.phone_number, stranger],
    )
    plan = expect(create_plan.sync(client=as_owner, body=asked), PlanCreated)
    check(plan.status == PlanStatus.OPEN and [o.id for o in plan.options] == [1, 2, 3], f"the plan {plan!r}")
    check(isinstance(plan.url, str) and "/p/" in plan.url, f"the owner's page {plan.url!r}")
    votes = PlanVotes.from_dict({"1": "no", "2": "yes", "3": "if_need_be"})
    voted = expect(vote_plan.sync(plan.id, client=as_guest, body=votes), Plan)
    mine = voted.my_votes.additional_properties if isinstance(voted.my_votes, PlanBallot) else {}
    check(mine == {"1": PlanChoice.NO, "2": PlanChoice.YES, "3": PlanChoice.IF_NEED_BE}, f"my votes {mine!r}")
    seen = expect(get_plan.sync(plan.id, client=as_owner), Plan)
    check(seen.options[1].tally.yes == 1 and seen.options[0].tally.no == 1, f"tallies {seen.options!r}")
    rows = seen.votes if isinstance(seen.votes, list) else []
    check([row.user_id for row in rows if row.votes.additional_properties] == [guest.id], f"votes {rows!r}")
    decided = expect(decide_plan.sync(plan.id, client=as_owner, body=PlanDecision(option=2)), PlanDecided)
    check(decided.status == PlanStatus.DECIDED and decided.event.event_date == dates[1], f"decided {decided!r}")
    invited = [invitee.phone_number for invitee in decided.event.invitees[1:]]
    check(invited == [guest.phone_number, stranger], f"the event's invitees {invited!r}")
    late = vote_plan.sync(plan.id, client=as_guest, body=PlanVotes.from_dict({"1": "yes"}))
    check(isinstance(late, Conflict), f"a vote after the decision: {late!r}")
    return decided.event


def the_day_itself(as_owner: AuthenticatedClient, as_guest: AuthenticatedClient, guest: UserWithToken) -> None:
    """An event that has just started with its album on: the guest uploads a photo straight to S3 with the
    presigned form, shows their pass, and the owner checks them in at the door (twice: once counted), then
    undoes it."""
    started = datetime.now(UTC) - timedelta(minutes=5)
    party = EventCreate(title="The day", event_date=started, invite_phone_numbers=[guest.phone_number])
    party.album = AlbumMode.GUESTS
    day = expect(create_event.sync(client=as_owner, body=party), EventCreated)
    check(day.album == AlbumMode.GUESTS, f"the album of {day!r}")
    expect(accept_invitation.sync(day.id, client=as_guest, body=RsvpInput()), Invitation)
    kind = PhotoType.IMAGEJPEG
    grant = expect(add_photo.sync(day.id, client=as_guest, body=PhotoUploadInput(content_type=kind)), PhotoUpload)
    fields = grant.upload_fields.additional_properties
    check(fields["key"].startswith(f"photo-uploads/{guest.id}/{day.id}/"), f"the upload's fields {fields!r}")
    sent = httpx.post(grant.upload_url, data=fields, files={"file": ("me.jpg", COVER_JPEG, "image/jpeg")})
    check(sent.status_code in (HTTPStatus.OK, HTTPStatus.CREATED, HTTPStatus.NO_CONTENT), f"the upload: {sent!r}")
    album = expect(list_photos.sync(day.id, client=as_guest), PhotoPage)
    check(all(photo.user_id for photo in album.results), f"the album {album!r}")  # listed once processed
    my_pass = expect(get_pass.sync(day.id, client=as_guest), CheckInPass)
    check(my_pass.qr_svg.startswith("<svg"), f"the pass {my_pass.code!r}")
    at_door = expect(check_in.sync(day.id, client=as_owner, body=CheckInInput(code=my_pass.code)), CheckedInParty)
    again = expect(check_in.sync(day.id, client=as_owner, body=CheckInInput(code=my_pass.code)), CheckedInParty)
    check(at_door.user_id == guest.id and again.checked_in_at == at_door.checked_in_at, f"checked in {again!r}")
    counted = expect(get_event.sync(day.id, client=as_owner), EventDetail)
    check(counted.checked_in_count == 1, f"checked in: {counted.checked_in_count!r}")
    undone = expect(undo_check_in.sync(day.id, client=as_owner, code=my_pass.code), CheckedInParty)
    check(undone.checked_in_at is None, f"undone {undone!r}")


def still_coming(
    as_owner: AuthenticatedClient, as_guest: AuthenticatedClient, guest: UserWithToken, starts: datetime
) -> None:
    """An event that asks "still coming?" and reminds 2 hours before: the guest who goes confirms from the app;
    the owner sees it counted and on the guest's row."""
    asking = EventCreate(title="Supper", event_date=starts, invite_phone_numbers=[guest.phone_number])
    asking.confirm_attendance, asking.reminder_hours = True, 2
    supper = expect(create_event.sync(client=as_owner, body=asking), EventCreated)
    check(supper.confirm_attendance and supper.confirm_hours == 24 and supper.reminder_hours == 2, f"{supper!r}")
    expect(accept_invitation.sync(supper.id, client=as_guest, body=RsvpInput()), Invitation)
    once = f"still-coming-{supper.id}"  # a retry with the same key answers the same and changes nothing
    sent = AttendanceInput(confirmed=True)
    answered = expect(answer_attendance.sync(supper.id, client=as_guest, body=sent, idempotency_key=once), Attendance)
    check(answered.attendance_confirmed is True and answered.answer == "going", f"confirmed {answered!r}")
    again = expect(answer_attendance.sync(supper.id, client=as_guest, body=sent, idempotency_key=once), Attendance)
    check(again == answered, f"replayed {again!r}")
    seen = expect(get_event.sync(supper.id, client=as_owner), EventDetail)
    rows = [row.attendance_confirmed for row in seen.invitees if row.user_id == guest.id]
    check(seen.confirmed_count == 1 and rows == [True], f"confirmed {seen.confirmed_count!r} {rows!r}")


def wait_for_invitees(client: AuthenticatedClient, event_id: int, phones: list[str]) -> EventDetail:
    """The event's detail once its invitees are ``phones``: a deleted account leaves off the request."""
    for _ in range(POLLS):
        detail = expect(get_event.sync(event_id, client=client), EventDetail)
        if [invitee.phone_number for invitee in detail.invitees] == phones:
            return detail
        time.sleep(POLL_SECONDS)
    raise ScenarioFailed(f"the invitees are still {[invitee.phone_number for invitee in detail.invitees]}")


def export_my_data(client: AuthenticatedClient) -> ExportStatus:
    """Ask for an export (202, pending), then ask how it is until it is ready with its download URL."""
    asked = expect(request_my_data_export.sync(client=client), ExportStatus)
    check(asked.status == ExportState.PENDING, f"request_my_data_export answered {asked!r}")
    for _ in range(POLLS):
        status = expect(get_my_data_export.sync(client=client), ExportStatus)
        if status.status == ExportState.READY:
            check(isinstance(status.url, str) and status.url.startswith("http"), f"a ready export: {status!r}")
            return status
        time.sleep(POLL_SECONDS)
    raise ScenarioFailed(f"the export was not ready after {POLLS} polls")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(f"usage: {argv[0]} BASE_URL", file=sys.stderr)
        return 2
    outcome = run(argv[1], lambda phone: input(f"The pin texted to {phone}: ").strip())
    limit = "reached" if outcome.limit_reached else "not reached"
    print(f"event {outcome.event.id}: {outcome.messages_stored} messages stored, the limit {limit}")
    print(f"the guest's data: {outcome.export.url}; the guest's account is deleted")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
