"""The part of the IAM run (tests/infra/test_iam.py) before an event's start: the reminder text, "still coming?"
and the release of an unconfirmed spot, as the hourly schedule function and the worker run them, and the app's
answer as the API function."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from chalicelib.services.notifications import attendance_steps, reminders
from chalicelib.services.replies import attendance
from chalicelib.store import due_steps
from tests.utils.api import login, post_json, texts_to
from tests.utils.web import answer, link_texted_to

HOST, SEATED, IN_LINE, CONFIRMING = "+14155550260", "+14155550261", "+14155550262", "+14155550263"
START = datetime(2031, 8, 1, 17, 0, tzinfo=UTC)


def remind_and_release(run, monkeypatch) -> None:
    """A guest invited by text goes and is reminded and asked; an app user confirms; with someone in line, the
    texted guest's unconfirmed spot is released 3 hours before the start."""
    client = run.client
    owner = login(client, HOST, full_name="Rita Reminder")["auth_token"]
    confirming = login(client, CONFIRMING, full_name="Cole Confirm")["auth_token"]
    waiting = login(client, IN_LINE, full_name="Lena Line")["auth_token"]
    event = {
        "title": "Picnic",
        "event_date": START.isoformat(),
        "total_spots": 2,
        "waitlist": True,
        "confirm_attendance": True,
        "release_unconfirmed": True,
        "invite_phone_numbers": [SEATED, CONFIRMING, IN_LINE],
    }
    created = post_json(client, "/events", event, owner)
    assert created.status_code == 201, created.body
    event_id = created.json_body["id"]
    run.deliver()
    assert answer(client, link_texted_to(SEATED), "accept").status_code == 303
    for token in (confirming, waiting):
        assert post_json(client, f"/events/{event_id}/accept", {}, token).status_code == 200
    run.deliver()
    clocks = (attendance_steps, due_steps, reminders, attendance)
    real = {module: module.utcnow for module in clocks}
    for moment in (START - timedelta(hours=24), START - timedelta(hours=3)):
        for module in clocks:
            monkeypatch.setattr(module, "utcnow", lambda moment=moment: moment)
        run.schedule()
        run.deliver()
        if moment == START - timedelta(hours=24):
            confirmed = post_json(client, f"/events/{event_id}/attendance", {"confirmed": True}, confirming)
            assert confirmed.status_code == 200, confirmed.body
    for module, clock in real.items():  # the rest of the run on the real clock
        monkeypatch.setattr(module, "utcnow", clock)
    said = texts_to(SEATED)
    assert any("Reminder:" in text for text in said) and any("Still coming" in text for text in said)
    assert any("We gave your spot" in text for text in said), said
