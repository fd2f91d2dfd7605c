"""Texts and pushes, the adapters below the use cases: sending (sms_sender.py, push_sender.py), fitting words
into SMS segments (sms_segments.py), the stop list (stop_list.py), texts people send the service
(inbound_sms.py), and the notification queue's sending and delivering sides (notifications/). Nothing here
imports chalicelib.services: the use cases that decide who gets what are there (invitation texts, devices,
notification jobs)."""
