"""The event page of a guest invited by text, and answering from it. No chalice imports.

Opening a link: the per-address counter and the event's partition in one round (the code names
the event), then, side by side, one BatchGetItem of the host, for the name shown, and one Query of the
latest announcements: the calls of ``GET /events/{id}`` with the rate counter in place of authentication,
and that Query. An answer and the calendar entry need no host
and skip that round. The invitation is the one whose ``link_hash`` is the code's SHA-256. A
malformed code, an unknown one and one past its event by more than ``WEB_LINK_DAYS_AFTER_EVENT``
are the same NotFound.

"Stop texting me" puts the guest's number on the stop list (services/texts/stop_list.py).

An answer is ``replies.rsvp`` as the guest: the same rules, capacity transaction and push to the
owner as the app's accept and reject. The guest is the same user the app later logs in (a user
made inactive for the number when invited), so an answer given here is on their invitation there.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from chalicelib import invite_links, limits
from chalicelib.config import get_settings
from chalicelib.domain import visibility
from chalicelib.errors import Conflict, EventGone, NoLongerInvited, NotFound
from chalicelib.parallel import parallel_map
from chalicelib.services.guards import ratelimit
from chalicelib.services.guards.ratelimit import Limit, address_subject
from chalicelib.services.participants import event_reads
from chalicelib.services.replies import replies
from chalicelib.services.texts import stop_list
from chalicelib.services.texts.host_label import host_label
from chalicelib.services.web.form_tokens import signed_token, signed_token_valid
from chalicelib.store import gone_events
from chalicelib.store import removals as removal_store
from chalicelib.store.announcements import latest_announcements
from chalicelib.store.events import load_partition
from chalicelib.store.records import OWNER, Event, Invitation, User
from chalicelib.store.users import get_users, user_with_id
from chalicelib.timeutil import utcnow

ANNOUNCEMENTS_SHOWN = 3  # the latest announcements the page shows

EVENT_PAST = "This event has already taken place."


@dataclass
class GuestPage:
    """What the page shows: the event, the guest's invitation, and counts only (no other guests), as far as
    the event's settings let this guest see them (``seen``)."""

    code: str
    event: Event
    invitation: Invitation
    going: int  # the owner and every guest who accepted, as ``attendees_count``
    waitlist_position: int | None = None  # the guest's place in line (1 = next), None when not waiting
    host: User | None = None  # read by with_host
    host_read: bool = False
    announcements: list = field(default_factory=list)  # the latest, newest first; read by with_host

    @property
    def seen(self) -> visibility.SeenEvent:
        """The event as this guest may see it: the place, the counts, their calendar entry's revision."""
        return visibility.as_seen(self.event, self.invitation, attendees=self.going)

    @property
    def host_name(self) -> str:
        """The host's name as the texts give it; never a whole phone number (services/texts/host_label.py)."""
        return host_label(self.host)

    @property
    def spots_left(self) -> int | None:
        """None when the event has no limit."""
        total = int(self.event.total_spots or 0)
        return max(0, total - int(self.event.spots_filled or 0)) if total else None

    def is_past(self, now: datetime) -> bool:
        """A timed event is past from its start; a day's event (no time) once its day is over."""
        start = self.event.event_date
        return now >= (start if self.event.is_time_specified else start + timedelta(days=1))

    def accepting_closed(self, now: datetime) -> bool:
        """Past the reply deadline or replies paused: the page offers only Decline."""
        return event_reads.replies_closed(self.event, now)

    def closed_reason(self, now: datetime) -> str | None:
        """Why the page shows a message instead of the buttons, or None when the guest may answer (a full
        event still takes a Decline)."""
        if self.event.cancelled:
            return event_reads.EVENT_CANCELLED
        if self.is_past(now):
            return EVENT_PAST
        return None

    @property
    def full_for_guest(self) -> bool:
        """No spot left for this guest and no waitlist to join: the page offers only Decline."""
        answered = self.invitation.has_accepted is True or self.waitlist_position is not None
        return self.spots_left == 0 and not answered and not self.event.waitlist


def _limit(source_ip: str) -> Limit:
    return Limit.of(limits.GUEST_PAGE_PER_ADDRESS, address_subject(source_ip))


def open_link(
    code: str, source_ip: str, now: datetime | None = None, *, counted: bool = True, host: bool = True
) -> GuestPage:
    """Count the request against the caller's address (429 beyond), then the page's data (or 404).
    ``counted=False`` reads again within a request already counted; ``host=False`` leaves the host
    unread (see with_host)."""
    now = now or utcnow()
    limit = _limit(source_ip)
    event_id = invite_links.event_id_of(code)
    count = (lambda: ratelimit.hit(limit)) if counted else (lambda: None)
    if event_id is None:
        count()
        raise NotFound()
    _, view = parallel_map(lambda step: step(), [count, lambda: load_partition(event_id)])
    if view is None:
        _gone_or_not_found(event_id, code, now)
    wanted = invite_links.hash_code(code)
    invitation = next((inv for inv in view.invitations if _opens(inv, wanted)), None)
    if invitation is None and any(hmac.compare_digest(d, wanted) for d in removal_store.removed_link_hashes(view)):
        raise NoLongerInvited(view.event.title)
    if invitation is None or invitation.role == OWNER:
        raise NotFound()
    if now > view.event.event_date + timedelta(days=get_settings().web_link_days_after_event):
        raise NotFound()
    going = view.attendees_count()
    page = GuestPage(code, view.event, invitation, going, view.waitlist_positions().get(invitation.user_id))
    return with_host(page) if host else page


def _gone_or_not_found(event_id: int, code: str, now: datetime) -> None:
    """An event deleted with its owner's account answers its guests' links "cancelled" until 7 days after
    its date (EventGone); anything else is the usual 404."""
    gone = gone_events.find(event_id)
    if gone is not None and now <= gone.event_date + timedelta(days=get_settings().web_link_days_after_event):
        wanted = invite_links.hash_code(code)
        if any(hmac.compare_digest(digest, wanted) for digest in gone.link_hashes):
            raise EventGone(gone.title)
    raise NotFound()


def _opens(invitation: Invitation, wanted: str) -> bool:
    """The invitation's link (or the one texted when it was seated from the waitlist) has this hash."""
    return any(
        hmac.compare_digest(stored, wanted) for stored in (invitation.link_hash, invitation.notice_link_hash) if stored
    )


def with_host(page: GuestPage) -> GuestPage:
    """What the page shows beyond the event's partition, read once and side by side: the host's profile
    for their name (one BatchGetItem) and the latest announcements (one Query)."""
    if not page.host_read:
        owner_id = page.event.owner_id
        users, latest = parallel_map(
            lambda read: read(),
            [lambda: get_users([owner_id]), lambda: latest_announcements(page.event.id, ANNOUNCEMENTS_SHOWN)],
        )
        page.host, page.announcements = users.get(owner_id), latest
        page.host_read = True
    return page


def answer(
    page: GuestPage,
    *,
    accept: bool,
    message: str,
    extra_guests: int | None = None,
    answers: dict | None = None,
    now: datetime | None = None,
    maybe: bool = False,
) -> replies.Reply:
    """Accept or decline (or ``maybe``: ``replies.say_maybe``) as the guest, through ``replies.rsvp``; a past
    event takes no answer (409).

    ``replies.rsvp`` acts for its caller by id (the invitation ``INV#<user id>``, the push's actor),
    which the invitation names: the guest's profile is not read."""
    if not page.event.cancelled and page.is_past(now or utcnow()):
        raise Conflict(EVENT_PAST)
    guest = user_with_id(page.invitation.user_id)
    return answer_as(guest, page.event.id, accept=accept, message=message, extra_guests=extra_guests,
                     answers=answers, maybe=maybe)  # fmt: skip


def answer_as(
    guest: User,
    event_id: int,
    *,
    accept: bool,
    message: str | None,
    extra_guests: int | None = None,
    answers: dict | None = None,
    maybe: bool = False,
) -> replies.Reply:
    """The answer of a guest from a page, to one event (the page's own, or a date of its series): ``maybe``
    through ``replies.say_maybe``, else ``replies.rsvp``."""
    if maybe:
        return replies.say_maybe(guest, event_id, message=message)
    return replies.rsvp(guest, event_id, accept=accept, message=message, extra_guests=extra_guests,
                        answers=answers or None)  # fmt: skip


def stop_texts(page: GuestPage) -> None:
    """The "Stop texting me" button: the guest's number goes on the stop list, so no invitation text reaches it
    from anyone. Their invitations stay as they are. One BatchGetItem (the number) and one PutItem."""
    guest = get_users([page.invitation.user_id]).get(page.invitation.user_id)
    if guest is None:
        raise NotFound()
    stop_list.stop(guest.phone_number, stop_list.FROM_PAGE)


def start_texts(page: GuestPage) -> None:
    """"Text me again": the guest's number leaves the stop list (as a START reply does)."""
    guest = get_users([page.invitation.user_id]).get(page.invitation.user_id)
    if guest is None:
        raise NotFound()
    stop_list.resume(guest.phone_number)


def form_token(page: GuestPage, now: float | None = None) -> str:
    """Good for this link's form for WEB_FORM_TTL_SECONDS."""
    return signed_token(invite_links.hash_code(page.code), now)


def form_token_valid(page: GuestPage, token: str | None, now: float | None = None) -> bool:
    return signed_token_valid(invite_links.hash_code(page.code), token, now)
