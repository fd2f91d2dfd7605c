"""The hourly schedule: reminders of events starting soon, and account deletions whose message was lost."""

from __future__ import annotations

from chalicelib.services.account.account_deletion import requeue_stuck_jobs
from chalicelib.services.notifications.reminders import enqueue_reminders


def run_hourly(event=None) -> dict[str, int]:
    """Queue a reminder for each live event starting within the reminder window, and queue again any account
    deletion with no progress for a while; returns how many of each."""
    return {"reminders": enqueue_reminders(), "deletions_requeued": requeue_stuck_jobs()}
