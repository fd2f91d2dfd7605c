"""The table of who may do what: every role against every action."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from chalicelib.domain.roles import PERMITTED, Action, Role, is_host, require, role_of
from chalicelib.errors import NotFound, PermissionDenied

HOSTS = {Role.OWNER, Role.COHOST}
EXPECTED = {
    Action.READ: HOSTS | {Role.GUEST},
    Action.EDIT: HOSTS,
    Action.INVITE: HOSTS | {Role.GUEST},
    Action.CANCEL: {Role.OWNER},
    Action.CANCEL_SERIES: {Role.OWNER},
    Action.REPLY: {Role.COHOST, Role.GUEST},
    Action.TALK: HOSTS | {Role.GUEST},
    Action.ANNOUNCE: HOSTS,
    Action.NUDGE: HOSTS,
    Action.APPOINT_COHOSTS: {Role.OWNER},
    Action.STEP_DOWN: {Role.COHOST},
    Action.SEE_WHOLE_GUEST_LIST: HOSTS,
    Action.SEE_PLACE: HOSTS,
    Action.SHARE_JOIN_LINK: HOSTS,
    Action.DECIDE_JOIN_REQUESTS: HOSTS,
    Action.JOIN: {Role.LINK_HOLDER, Role.COHOST, Role.GUEST},
    Action.REPLY_FOR_GUEST: HOSTS,
    Action.REPLY_FOR_COHOST: {Role.OWNER},
    Action.MANAGE_OFFLINE_GUESTS: HOSTS,
    Action.EXPORT_GUEST_LIST: HOSTS,
    Action.CLONE: {Role.OWNER},
    Action.SET_COVER: HOSTS,
    # a guest must also be going (domain.the_day); a photo's removal: its uploader's or a host's
    Action.ADD_PHOTOS: HOSTS | {Role.GUEST},
    Action.SEE_PHOTOS: HOSTS | {Role.GUEST},
    Action.REMOVE_PHOTO: HOSTS | {Role.GUEST},
    Action.SHOW_PASS: {Role.COHOST, Role.GUEST},
    Action.CHECK_IN: HOSTS,
    Action.CONFIRM_ATTENDANCE: {Role.COHOST, Role.GUEST},  # and going (services.replies.attendance)
    # removing someone: any host a plain guest, the owner a co-host too; a post: its author's or a host's
    Action.REMOVE_GUEST: HOSTS,
    Action.REMOVE_COHOST: {Role.OWNER},
    Action.REMOVE_OWN_POST: HOSTS | {Role.GUEST},
    Action.MODERATE: HOSTS,
}


def test_every_action_is_in_the_table():
    assert set(PERMITTED) == set(Action) == set(EXPECTED)


@pytest.mark.parametrize("action", list(Action))
@pytest.mark.parametrize("role", list(Role))
def test_each_role_against_each_action(role, action):
    if role in EXPECTED[action]:
        require(role, action)
    elif role in (Role.STRANGER, Role.LINK_HOLDER):
        with pytest.raises(NotFound):
            require(role, action)
    else:
        with pytest.raises(PermissionDenied):
            require(role, action)


def _invitation(role: str, cohost=None, cancelled=False):
    return SimpleNamespace(role=role, cohost=cohost, cancelled=cancelled)


def test_role_of_an_invitation():
    assert role_of(None) is Role.STRANGER
    assert role_of(_invitation("owner")) is Role.OWNER
    assert role_of(_invitation("guest")) is Role.GUEST
    assert role_of(_invitation("guest", cohost=True)) is Role.COHOST
    assert role_of(_invitation("guest", cohost=False)) is Role.GUEST
    assert role_of(_invitation("guest", cancelled=True)) is Role.GUEST  # a cancelled event is still shown


def test_docs_roles_is_the_table_as_generated():
    from pathlib import Path

    from chalicelib.domain import roles

    written = (Path(__file__).resolve().parents[2] / "docs" / "roles.md").read_text()
    assert written == roles.markdown(), "run: python -m chalicelib.domain.roles > docs/roles.md"


def test_talking_and_reading_are_for_every_participant():
    # the conversation's writes check only that the caller has an invitation (in the same transaction)
    from chalicelib.domain.roles import PERMITTED, Action, Role

    participants = {Role.OWNER, Role.COHOST, Role.GUEST}
    assert PERMITTED[Action.TALK] == participants and PERMITTED[Action.READ] == participants


@pytest.mark.parametrize("role", list(Role))
def test_the_hosts_are_the_owner_and_the_cohosts(role):
    assert is_host(role) is (role in HOSTS)
