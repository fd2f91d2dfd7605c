"""The host's own messages to guests: announcements (by the guests' answers) and the nudge to those who
have not answered. App users get a push (``notify_announcements``; a nudge: ``notify_new_invite``, as it
is about their invitation), guests without the app a text with a fresh link to their page, each once
(claims keyed by the announcement or the nudge), within the limits of every text to them."""

from __future__ import annotations

from collections.abc import Iterable

from chalicelib.config import get_settings
from chalicelib.languages import dates
from chalicelib.languages.catalogues import N_, Words, words
from chalicelib.messaging import sms_segments
from chalicelib.messaging.notifications.kinds import handles, queue_kind
from chalicelib.messaging.notifications.messages import Outcome, Push
from chalicelib.messaging.notifications.push_words import PushWords
from chalicelib.services.push.push_delivery import deliver
from chalicelib.services.texts import guest_texts
from chalicelib.services.texts.invitation_texts import asking_words
from chalicelib.services.texts.text_language import words_for
from chalicelib.services.texts.text_wording import ending, segment_limits, shown_title
from chalicelib.store.announcements import find_announcement
from chalicelib.store.events import GUEST, EventView, load_partition
from chalicelib.store.users import get_users

# The hosts' own messages to their guests: a push, or a text to a guest without the app
ANNOUNCEMENT = queue_kind("announcement")
NUDGE = queue_kind("nudge")

GOING, WAITING, NO_REPLY, DECLINED = "going", "waiting", "no_reply", "declined"
AUDIENCES = (GOING, WAITING, NO_REPLY, DECLINED)
# Translators: {name} is the host's, {message} what they wrote; the link and the opt-out words follow.
ANNOUNCEMENT_WORDING = N_('{service}: {name} about "{title}": {message}')
# Translators: {name} is the host's, {when} the event's date; the link and the opt-out words follow.
NUDGE_WORDING = N_('{service}: {name} is waiting for your answer to "{title}", {when}.')
# Translators: the nudge in the fewest words, for a text that also says how to answer by reply.
NUDGE_SHORT_WORDING = N_('{service}: {name} asks: "{title}", {when}.')


def answer_of(view: EventView, invitation) -> str:
    if invitation.user_id in view.waitlist_positions():
        return WAITING
    if invitation.has_accepted is True:
        return GOING
    if invitation.has_accepted is False:
        return DECLINED
    return NO_REPLY


def audience_of(view: EventView, answers: Iterable[str]) -> list[int]:
    """The guests (not the owner) whose answer is one of ``answers``, in invitation order."""
    wanted = set(answers)
    return [inv.user_id for inv in view.invitations if inv.role == GUEST and answer_of(view, inv) in wanted]


def _fits(text: str) -> bool:
    return sms_segments.segments(text) <= segment_limits()[sms_segments.encoding(text)]


def announcement_text(owner_name: str, event, text: str, link: str, said: Words | None = None) -> str:
    """``<service>: <name> about "<title>": <text> <link> Reply STOP to opt out.`` in the person's words: name
    and title cut as in every text (down to their minimums), then the announcement's own text cut until it fits."""
    service, said = get_settings().service_name, said or words(None)
    after = ending(said, link)
    body = sms_segments.fold_typography(sms_segments.one_line(text))
    shown = shown_title(event.title, said)

    def build(message: str) -> str:
        def template(who: str, title: str) -> str:
            return said._(ANNOUNCEMENT_WORDING, service=service, name=who, title=title, message=message) + after

        return sms_segments.fit([template], owner_name, shown, segment_limits())

    whole = build(body)
    if _fits(whole):
        return whole
    kept, room = 0, len(body)
    while kept < room:  # the longest start of the text that still fits, with an ellipsis
        middle = (kept + room + 1) // 2
        cut = body[:middle].rstrip()
        if _fits(build(cut + sms_segments.ELLIPSIS[sms_segments.encoding(whole)])):
            kept = middle
        else:
            room = middle - 1
    return build(body[:kept].rstrip() + sms_segments.ELLIPSIS[sms_segments.encoding(whole)])


def nudge_text(owner_name: str, event, link: str, said: Words | None = None) -> str:
    """``<service>: <name> is waiting for your answer to "<title>", <when>. <link> Reply STOP to opt out.`` in
    the person's words, with how to answer by reply before the opt-out words when two-way texting is on."""
    service, said = get_settings().service_name, said or words(None)
    ask = asking_words(said).strip()
    after = ending(said, link, ask)

    def wording(message: str, when: str) -> sms_segments.Template:
        return lambda who, title: said._(message, service=service, name=who, title=title, when=when) + after

    whens = (dates.short_when(event, said.language), dates.short_when(event, said.language, weekday=False))
    templates = [wording(NUDGE_WORDING, when) for when in whens]
    if ask:  # the answer words cost 36 characters: in UCS-2 the tightest form asks in fewer words
        templates.append(wording(NUDGE_SHORT_WORDING, whens[1]))
    return sms_segments.fit(templates, owner_name, shown_title(event.title, said), segment_limits())


def _tell(view: EventView, ids: list[int], push: Push, flag: str, kind: str, occurrence: str, word) -> Outcome:
    event = view.event
    users = get_users([*ids, event.owner_id])
    owner = users.get(event.owner_id)
    if owner is None:
        return Outcome()
    outcome = deliver([(users[uid], push) for uid in ids if uid in users], flag)
    without_app = [users[uid] for uid in ids if uid in users and not users[uid].is_active]
    texted, failed = guest_texts.send_claimed(owner, event, without_app, kind, occurrence, lambda p: word(owner, p))
    outcome += Outcome(sent=len(texted), failed=failed)
    return outcome


@handles(ANNOUNCEMENT)
def _announcement(message: dict) -> Outcome:
    view = load_partition(int(message["event_id"]))
    if view is None or view.event.cancelled:
        return Outcome()
    announcement = find_announcement(view.event.id, int(message["announcement_id"]))
    if announcement is None:
        return Outcome()
    event = view.event
    ids = audience_of(view, announcement.audience)
    users = get_users([event.owner_id])
    name = guest_texts.sender_name(users.get(event.owner_id))
    said = PushWords("push.announcement", N_("{name}: {message}"), {"name": name, "message": announcement.text})
    push = Push(ANNOUNCEMENT, str(announcement.id), event.title, said, event.id)

    def word(owner, person) -> str:
        link = guest_texts.fresh_link(event.id, person.id)
        return announcement_text(guest_texts.sender_name(owner), event, announcement.text, link, words_for(person))

    return _tell(view, ids, push, "notify_announcements", ANNOUNCEMENT, str(announcement.id), word)


@handles(NUDGE)
def _nudge(message: dict) -> Outcome:
    view = load_partition(int(message["event_id"]))
    if view is None or view.event.cancelled:
        return Outcome()
    event = view.event
    still_silent = set(audience_of(view, [NO_REPLY]))
    ids = [int(uid) for uid in message.get("user_ids", []) if int(uid) in still_silent]
    users = get_users([event.owner_id])
    name = guest_texts.sender_name(users.get(event.owner_id))
    said = PushWords("push.nudge", N_("{name} is waiting for your answer."), {"name": name})
    push = Push(NUDGE, str(message["id"]), event.title, said, event.id)

    def word(owner, person) -> str:
        link = guest_texts.fresh_link(event.id, person.id)
        return nudge_text(guest_texts.sender_name(owner), event, link, words_for(person))

    return _tell(view, ids, push, "notify_new_invite", NUDGE, str(message["id"]), word)
