"""Texts, pushes and the queue: the AWS adapters below the use cases and above the store (the text budget keeps
its counter there). Sending (sms_sender.py, which also keeps the month's text budget; push_sender.py; local_echo.py
for local runs), fitting words into SMS segments (sms_segments.py), and the notification queue's messages and
sending side (notifications/). Who gets what, the stop list, delivery claims, devices and replies by text are use
cases in chalicelib/services."""
