"""The queue's notification jobs (who gets which push) and the hourly reminders."""
