"""Reminder texts before an event's start, run as deployed: the hourly schedule function queues the due steps
(one Query per day, no Scan), the queue handler runs them (conftest's ``hours``). Texts are read from the SNS
emulator."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from chalicelib.messaging import sms_sender
from chalicelib.models.events import Event, event_pk
from chalicelib.services.hosting import events as events_service
from chalicelib.services.notifications import attendance_steps
from chalicelib.services.replies import replies
from chalicelib.services.texts import stop_list
from tests.utils.api import texts_to
from tests.utils.factories import make_event, make_person, phone

ZONE = "America/New_York"
START = datetime(2030, 1, 12, 1, 30, tzinfo=UTC)  # Fri, Jan 11 at 8:30 PM EST


def _reminders(person) -> list[str]:
    return [text for text in texts_to(person.phone) if "Reminder:" in text]


def _going(event, *people) -> None:
    for person in people:
        replies.rsvp(person.user, event.id, accept=True, message=None)


def _party(when: datetime = START, **extra):
    """Alice's event with a texted guest who is going, one who has not answered and an app user who is going."""
    alice = make_person("Alice")
    going, silent, app_user = make_person("", active=False), make_person("", active=False), make_person("Dan")
    event = make_event(
        alice, going, silent, app_user, title="Board games", when=when, time_zone=ZONE, venue_name="Cafe Nord", **extra
    )
    _going(event, going, app_user)
    return alice, going, silent, app_user, event


def test_going_guests_without_the_app_get_one_reminder_the_set_hours_before(aws, hours):
    _alice, going, silent, app_user, _event = _party()
    hours.now = START - timedelta(hours=24, minutes=1)
    assert hours.run() == []  # not due yet
    hours.now = START - timedelta(hours=24)  # Thu 8:30 PM in New York
    aws.reset()
    assert len(hours.run()) == 1
    [text] = _reminders(going)
    assert text.startswith('Invites: Reminder: "Board games" is tomorrow at 8:30 PM EST, Cafe Nord. https://')
    assert text.endswith(" Reply STOP to opt out.")
    assert _reminders(silent) == [] and _reminders(app_user) == []
    calls = aws.of("dynamodb")
    assert "Scan" not in calls
    # the hourly run's Queries: the reminder push's window (2 UTC days), the steps' days (3), the account
    # deletions' jobs (1); then the step's read of the event's partition (1)
    assert calls["Query"] == 2 + 3 + 1 + 1
    # the next hourly run finds nothing due; the same message delivered again texts nobody twice
    hours.now += timedelta(hours=1)
    assert hours.run() == []
    attendance_steps.run_due_step(
        {"event_id": _event.id, "step": "reminder", "due_key": f"2030-01-11T01:30:00Z#{_event.id:016d}"}
    )
    assert len(_reminders(going)) == 1


def test_no_reminder_when_the_hours_are_zero_and_a_new_setting_moves_it(aws, hours, client):
    alice, going, _silent, _app_user, event = _party(reminder_hours=0)
    hours.now = START - timedelta(hours=24)
    hours.run()
    assert _reminders(going) == []
    edited = client.http.request(
        "PATCH",
        f"/events/{event.id}",
        body=b'{"reminder_hours": 2}',
        headers={"Authorization": f"Bearer {alice.token}", "Content-Type": "application/json"},
    )
    assert edited.status_code == 200 and edited.json_body["reminder_hours"] == 2
    hours.now = START - timedelta(hours=3)
    hours.run()
    assert _reminders(going) == []
    hours.now = START - timedelta(hours=2)  # 6:30 PM EST
    hours.run()
    [text] = _reminders(going)
    assert "is today at 8:30 PM EST" in text


def test_a_reminder_due_in_quiet_hours_goes_at_8_pm_the_evening_before(aws, hours):
    alice, going = make_person("Alice"), make_person("", active=False)
    morning = datetime(2030, 1, 12, 12, 0, tzinfo=UTC)  # Sat 7:00 AM EST
    event = make_event(alice, going, title="Run", when=morning, time_zone=ZONE, reminder_hours=2)
    _going(event, going)
    hours.now = datetime(2030, 1, 12, 0, 0, tzinfo=UTC)  # Fri 7:00 PM EST
    hours.run()
    assert _reminders(going) == []
    hours.now = datetime(2030, 1, 12, 1, 0, tzinfo=UTC)  # Fri 8:00 PM EST: the last run before 21:00
    hours.run()
    [text] = _reminders(going)
    assert 'Reminder: "Run" is tomorrow at 7:00 AM EST.' in text
    for hour in range(2, 12):  # through the night: nothing more
        hours.now = datetime(2030, 1, 12, hour, 0, tzinfo=UTC)
        hours.run()
    assert len(_reminders(going)) == 1


def test_quiet_hours_are_the_events_zone_across_a_daylight_saving_change(aws, hours):
    alice = make_person("Alice")
    tokyo, berlin = make_person("", active=False), make_person("", active=False)
    # Tokyo, Tue 06:00 (Mon 21:00 UTC), reminded 3 h before (03:00, quiet): Mon 20:00 JST (11:00 UTC)
    early = make_event(
        alice, tokyo, title="Sunrise", when=datetime(2030, 3, 11, 21, 0, tzinfo=UTC), time_zone="Asia/Tokyo",
        reminder_hours=3,
    )  # fmt: skip
    # Berlin's clocks go forward on Sun Mar 31 2030 at 02:00: an event at 07:30 CEST (05:30 UTC) reminded 1 h
    # before (quiet) goes at 20:00 CET on Saturday (19:00 UTC), not at 20:00 CEST (18:00 UTC)
    spring = make_event(
        alice, berlin, title="Spring", when=datetime(2030, 3, 31, 5, 30, tzinfo=UTC), time_zone="Europe/Berlin",
        reminder_hours=1,
    )  # fmt: skip
    _going(early, tokyo)
    _going(spring, berlin)
    hours.now = datetime(2030, 3, 11, 10, 0, tzinfo=UTC)
    hours.run()
    assert _reminders(tokyo) == []
    hours.now = datetime(2030, 3, 11, 11, 0, tzinfo=UTC)
    hours.run()
    [text] = _reminders(tokyo)
    assert "is tomorrow at 6:00 AM JST" in text
    hours.now = datetime(2030, 3, 30, 18, 0, tzinfo=UTC)  # 19:00 CET
    hours.run()
    assert _reminders(berlin) == []
    hours.now = datetime(2030, 3, 30, 19, 0, tzinfo=UTC)  # 20:00 CET
    hours.run()
    [text] = _reminders(berlin)
    assert "is tomorrow at 7:30 AM CEST" in text


def test_no_reminder_after_a_cancellation_nor_to_the_stop_list_nor_an_opted_out_number(aws, hours):
    alice = make_person("Alice")
    stopped, opted_out = make_person("", active=False), make_person("", phone(199), active=False)
    fine = make_person("", active=False)
    event = make_event(alice, stopped, opted_out, fine, title="Picnic", when=START, time_zone=ZONE)
    cancelled = make_event(alice, fine, title="Gone", when=START, time_zone=ZONE)
    _going(event, stopped, opted_out, fine)
    _going(cancelled, fine)
    stop_list.stop(stopped.phone, stop_list.FROM_TEXT)
    events_service.cancel_event(alice.user, cancelled.id)
    hours.now = START - timedelta(hours=24)
    assert len(hours.run()) == 2
    assert _reminders(stopped) == [] and _reminders(opted_out) == []
    assert [text for text in _reminders(fine) if "Picnic" in text] != []
    assert [text for text in _reminders(fine) if "Gone" in text] == []
    # the cancelled event's step is done: it is not queued again
    hours.now += timedelta(hours=1)
    assert hours.run() == []


def test_a_spent_text_budget_sends_no_reminder(aws, hours, override_settings):
    _alice, going, _silent, _app_user, _event = _party()
    override_settings(sms_monthly_segments=1)  # the texts nobody asked for get none of it
    hours.now = START - timedelta(hours=24)
    hours.run()
    assert _reminders(going) == []


def test_a_crash_between_claim_and_send_sends_once_after_the_lease(aws, hours, monkeypatch, override_settings):
    noon = datetime(2030, 1, 12, 17, 0, tzinfo=UTC)  # Sat 12:00 PM EST: no run below falls in quiet hours
    _alice, going, _silent, _app_user, event = _party(when=noon)
    hours.now = noon - timedelta(hours=24)
    handed = sms_sender.send_sms

    def crash(*_args, **_kwargs):
        raise SystemExit("the worker died between the claim and the send")

    monkeypatch.setattr(sms_sender, "send_sms", crash)
    with pytest.raises(SystemExit):
        hours.run()
    monkeypatch.setattr(sms_sender, "send_sms", handed)
    assert _reminders(going) == []
    # within the dead worker's lease, the next run sends nothing and keeps the step due
    hours.now += timedelta(hours=1)
    assert len(hours.run()) == 1 and hours.retried
    assert _reminders(going) == []
    assert Event.get(event_pk(event.id), "META").id == event.id
    # once the lease ran out, the next run sends it, once
    override_settings(notification_lease_seconds=-5)
    hours.now += timedelta(hours=1)
    hours.run()
    assert len(_reminders(going)) == 1
    hours.now += timedelta(hours=1)
    assert hours.run() == []
    assert len(_reminders(going)) == 1
