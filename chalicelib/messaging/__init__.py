"""Texts and pushes, by feature: sending (sms_sender.py, which also keeps the month's text budget;
push_sender.py), fitting words into SMS segments (sms_segments.py), invitation texts and their limits
(invitation_texts.py), push devices and their SNS endpoints (devices.py), and the push notifications
pipeline (notifications/)."""
