"""Who may do what to an event, decided here and nowhere else.

A person's role in an event comes from their invitation item alone (the owner has one too): the owner,
a co-host (an invitee the owner made one), a guest, or a stranger (no live invitation). Someone holding a
join link is a stranger to every route by event id; the one thing the link lets them do is ``JOIN``.

``PERMITTED`` is the table: each action with the roles that may take it. A stranger is answered 404 (a
stranger's event looks like no event at all), a participant outside the action's roles 403. Rules that
depend on more than the role (a guest's invitations under ``guest_invites``, what a guest sees under the
event's ``guest_list`` and ``place_visibility``) start from these actions and are applied by the services
that hold the state. tests/domain/test_roles.py walks the table; tests/api/test_roles_over_http.py walks
every role against every route that touches an event.
"""

from __future__ import annotations

from enum import StrEnum

from chalicelib.errors import NotFound, PermissionDenied


class Role(StrEnum):
    OWNER = "owner"
    COHOST = "cohost"
    GUEST = "guest"
    LINK_HOLDER = "link_holder"  # signed in and holding a join link's code, not (yet) invited
    STRANGER = "stranger"


class Action(StrEnum):
    READ = "read"  # the event, its messages, polls, time suggestions and announcements
    EDIT = "edit"  # any field of PATCH /events/{id} but the invitees, questions included
    INVITE = "invite"  # PATCH /events/{id} with only invite_phone_numbers
    CANCEL = "cancel"
    CANCEL_SERIES = "cancel_series"  # DELETE /series/{id}: every date still to come (decided on its first date)
    REPLY = "reply"  # accept or decline one's own invitation, mark it seen
    TALK = "talk"  # messages, polls, time suggestions
    ANNOUNCE = "announce"
    NUDGE = "nudge"
    APPOINT_COHOSTS = "appoint_cohosts"  # make an invitee a co-host, or end anyone's role
    STEP_DOWN = "step_down"  # end one's own co-host role
    SEE_WHOLE_GUEST_LIST = "see_whole_guest_list"  # every row and every answer, whatever guest_list says
    SEE_PLACE = "see_place"  # the place before accepting, whatever place_visibility says
    SHARE_JOIN_LINK = "share_join_link"  # make or replace the join link
    DECIDE_JOIN_REQUESTS = "decide_join_requests"
    JOIN = "join"  # by a join link's code
    REPLY_FOR_GUEST = "reply_for_guest"
    REPLY_FOR_COHOST = "reply_for_cohost"  # a reply on a co-host's behalf: declining for them ends the role
    MANAGE_OFFLINE_GUESTS = "manage_offline_guests"
    EXPORT_GUEST_LIST = "export_guest_list"  # guests.csv
    CLONE = "clone"
    SET_COVER = "set_cover"
    # The day itself: a guest must be going too (domain.the_day), a photo's removal is its uploader's or a host's.
    ADD_PHOTOS = "add_photos"
    SEE_PHOTOS = "see_photos"
    REMOVE_PHOTO = "remove_photo"
    SHOW_PASS = "show_pass"  # one's own check-in code and its QR
    CHECK_IN = "check_in"  # check a party in at the door, or undo it
    CONFIRM_ATTENDANCE = "confirm_attendance"  # answer "still coming?" for one's own invitation
    # Host tools: removing someone from the guest list, taking down what was said in the conversation.
    REMOVE_GUEST = "remove_guest"  # DELETE /events/{id}/invitees/{user_id} of a plain guest
    REMOVE_COHOST = "remove_cohost"  # the same of a co-host (the owner is never removed)
    REMOVE_OWN_POST = "remove_own_post"  # one's own message, poll or time suggestion
    MODERATE = "moderate"  # anyone's message, poll or time suggestion


_HOSTS = frozenset({Role.OWNER, Role.COHOST})
_PARTICIPANTS = frozenset({Role.OWNER, Role.COHOST, Role.GUEST})

PERMITTED: dict[Action, frozenset[Role]] = {
    Action.READ: _PARTICIPANTS,
    Action.EDIT: _HOSTS,
    Action.INVITE: _PARTICIPANTS,  # a guest within the event's guest_invites (services.guest_invites)
    Action.CANCEL: frozenset({Role.OWNER}),
    Action.CANCEL_SERIES: frozenset({Role.OWNER}),
    Action.REPLY: frozenset({Role.COHOST, Role.GUEST}),
    Action.TALK: _PARTICIPANTS,
    Action.ANNOUNCE: _HOSTS,
    Action.NUDGE: _HOSTS,
    Action.APPOINT_COHOSTS: frozenset({Role.OWNER}),
    Action.STEP_DOWN: frozenset({Role.COHOST}),
    Action.SEE_WHOLE_GUEST_LIST: _HOSTS,
    Action.SEE_PLACE: _HOSTS,
    Action.SHARE_JOIN_LINK: _HOSTS,
    Action.DECIDE_JOIN_REQUESTS: _HOSTS,
    Action.JOIN: frozenset({Role.LINK_HOLDER, Role.COHOST, Role.GUEST}),  # an invitee joining again: no change
    Action.REPLY_FOR_GUEST: _HOSTS,
    Action.REPLY_FOR_COHOST: frozenset({Role.OWNER}),
    Action.MANAGE_OFFLINE_GUESTS: _HOSTS,
    Action.EXPORT_GUEST_LIST: _HOSTS,
    Action.CLONE: frozenset({Role.OWNER}),
    Action.SET_COVER: _HOSTS,
    Action.ADD_PHOTOS: _PARTICIPANTS,
    Action.SEE_PHOTOS: _PARTICIPANTS,
    Action.REMOVE_PHOTO: _PARTICIPANTS,
    Action.SHOW_PASS: frozenset({Role.COHOST, Role.GUEST}),
    Action.CHECK_IN: _HOSTS,
    Action.CONFIRM_ATTENDANCE: frozenset({Role.COHOST, Role.GUEST}),
    Action.REMOVE_GUEST: _HOSTS,
    Action.REMOVE_COHOST: frozenset({Role.OWNER}),
    Action.REMOVE_OWN_POST: _PARTICIPANTS,
    Action.MODERATE: _HOSTS,
}


def role_of(invitation) -> Role:
    """The role of the person whose invitation item this is (None: a stranger). An invitation of a cancelled
    event keeps its role: the cancelled event is still shown to the people in it."""
    if invitation is None:
        return Role.STRANGER
    if invitation.role == Role.OWNER.value:
        return Role.OWNER
    if getattr(invitation, "cohost", None):
        return Role.COHOST
    return Role.GUEST


def is_host(role: Role) -> bool:
    """The owner or a co-host: the people a guest always sees in the guest list, whatever it hides."""
    return role in _HOSTS


def permits(role: Role, action: Action) -> bool:
    return role in PERMITTED[action]


def require(role: Role, action: Action) -> None:
    """Nothing when ``role`` may take ``action``; NotFound for someone outside the event, else PermissionDenied."""
    if permits(role, action):
        return
    if role in (Role.STRANGER, Role.LINK_HOLDER):
        raise NotFound()
    raise PermissionDenied()


_ROLE_WORDS = {
    Role.OWNER: "owner",
    Role.COHOST: "co-host",
    Role.GUEST: "guest",
    Role.LINK_HOLDER: "link holder",
    Role.STRANGER: "stranger",
}


def markdown() -> str:
    """docs/roles.md: ``PERMITTED`` as a table, one row an action, one column a role."""
    lines = [
        "# Roles: who may do what to an event",
        "",
        "Generated from `chalicelib/domain/roles.py` (`python -m chalicelib.domain.roles > docs/roles.md`); do",
        "not edit by hand. A person's role comes from their invitation: the owner, a co-host (an invitee the",
        "owner made one, at most 5 an event), a guest, a link holder (signed in with a join link's code, not",
        "invited) or a stranger. Outside the allowed roles, a stranger or link holder is answered 404 (the",
        "event looks like no event at all) and a participant 403. Rules beyond the role (a guest's",
        "`guest_invites`, the `guest_list` and `place_visibility` settings) are applied by the services on top.",
        "",
        "| action | " + " | ".join(_ROLE_WORDS[role] for role in Role) + " |",
        "|---|" + "---|" * len(Role),
    ]
    for action, roles in PERMITTED.items():
        marks = " | ".join("yes" if role in roles else "" for role in Role)
        lines.append(f"| `{action.value}` | {marks} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
