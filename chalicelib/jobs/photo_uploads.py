"""The album's processing function: S3's ObjectCreated records of ``photo-uploads/``, each object processed once
(services/the_day/photo_uploads.py)."""

from __future__ import annotations

from chalicelib.services.the_day.photo_uploads import handle_s3_event


def handle_photo_uploads(event: dict) -> list:
    """What became of each object of the event's records."""
    return [handle_s3_event(record["s3"]["object"]["key"]) for record in event.get("Records", [])]
