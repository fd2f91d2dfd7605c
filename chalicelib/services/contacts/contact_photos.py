"""Photos sent with favorites, turned into clean JPEGs before anything is stored.

Every photo of a request is checked first against the request's decoding budget (pixels read from the
headers, nothing decoded), then decoded and re-encoded one by one; a photo that is no good image, or too
big, gets its error instead. The caller places the errors by its body's shape (api/contacts_input.py).
"""

from __future__ import annotations

from chalicelib.config import get_settings
from chalicelib.errors import PayloadTooLarge, ValidationError
from chalicelib.services.media import images

PHOTO_FIELD = "photo"


class PhotosTooCostly(Exception):
    """The photos together would decode to more than ``IMAGE_DECODE_PIXELS_PER_REQUEST`` pixels."""


def too_large_message(max_bytes: int) -> str:
    """Avatar's 413 text, here as a field error: "File too large. Maximum size is 4 MB."."""
    size = f"{max_bytes / 2**20:.2f}".rstrip("0").rstrip(".")
    return f"File too large. Maximum size is {size} MB."


def clean_photos(entries: list) -> dict[str, ValidationError]:
    """Replace each entry's raw ``photo`` (bytes) by a clean JPEG; returns {phone: error keyed by ``photo``}
    for the photos that are no good. Raises :class:`PhotosTooCostly` before decoding anything when over the budget.

    At most ``FAVORITE_PHOTO_MAX_PIXELS`` a photo, read from the header before any pixel is decoded; only the
    big rendition is made (a contact has one photo)."""
    settings = get_settings()
    photos = [entry for entry in entries if isinstance(entry.photo, bytes)]
    if sum(images.decoded_pixels(entry.photo) for entry in photos) > settings.image_decode_pixels_per_request:
        raise PhotosTooCostly()
    problems = {}
    for entry in photos:
        try:
            processed = images.process_image(
                entry.photo,
                field=PHOTO_FIELD,
                max_bytes=settings.avatar_max_bytes,
                max_pixels=settings.favorite_photo_max_pixels,
                square=False,
            )
        except PayloadTooLarge:
            problems[entry.phone] = ValidationError.field(PHOTO_FIELD, too_large_message(settings.avatar_max_bytes))
            continue
        except ValidationError as error:
            problems[entry.phone] = error
            continue
        entry.photo = processed.big
    return problems
