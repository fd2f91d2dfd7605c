"""What the album says when it refuses a photo, in the service's English (the API's bodies carry it as it is).

Kept apart from photos.py so a page can word these sentences in its language without loading S3.
"""

from __future__ import annotations

PHOTOS_PER_PERSON = 50
PHOTOS_PER_EVENT = 500

NOT_GOING = "Only the hosts and the guests who are going can share photos."
ALBUM_WORDS = {
    "off": "This event has no shared album.",
    "not_yet": "The album opens when the event starts.",
    "closed": "The album is closed.",
}
ALBUM_FULL = "This album already has {limit} photos."
PERSON_FULL_AT = "You have already added {limit} photos to this album."
EVENT_FULL = ALBUM_FULL.format(limit=PHOTOS_PER_EVENT)
PERSON_FULL = PERSON_FULL_AT.format(limit=PHOTOS_PER_PERSON)
ALBUM_CHANGED = "The album changed meanwhile, try again."
