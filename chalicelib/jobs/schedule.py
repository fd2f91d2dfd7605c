"""The hourly schedule: reminders of events starting soon, the steps due before a start, and account deletions
whose message was lost."""

from __future__ import annotations

from chalicelib.services.account.account_deletion import requeue_stuck_jobs
from chalicelib.services.notifications.attendance_steps import enqueue_due_steps
from chalicelib.services.notifications.reminders import enqueue_reminders


def run_hourly(event=None) -> dict[str, int]:
    """Queue a reminder for each live event starting within the reminder window, each step due before an event's
    start (reminder texts, "still coming?", releases), and again any account deletion with no progress for a
    while; returns how many of each."""
    return {
        "reminders": enqueue_reminders(),
        "steps": enqueue_due_steps(),
        "deletions_requeued": requeue_stuck_jobs(),
    }
