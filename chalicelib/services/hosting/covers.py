"""An event's cover image (PUT/DELETE /events/{id}/cover): the avatars' pipeline and storage rules.

The upload is checked, oriented, stripped and re-encoded by ``images.process_image`` under the avatar's
limits (bytes, pixels, decoding), then stored as two JPEGs under a new unguessable key in the owner's
folder ``covers/<owner id>/`` (so deleting the owner's account deletes them with the rest): the picture
(longest side 1024 px) and its 1024x536 card, which link previews show (og:image). Each change points META
at the new keys on condition it still holds the keys read (parallel changes take turns), then deletes the
objects it replaced; the event's removal and the owner's account deletion delete what is left.
"""

from __future__ import annotations

from chalicelib import aws, store
from chalicelib.config import get_settings
from chalicelib.domain.roles import Action
from chalicelib.errors import Conflict
from chalicelib.retry import AttemptsSpent, TryAgain, retry
from chalicelib.services.media.avatars import SWAP_ATTEMPTS, delete_images, delete_quietly, new_image_prefix, put_image
from chalicelib.services.media.images import process_image
from chalicelib.services.participants.event_reads import permitted_view, require_live, with_users
from chalicelib.store import events as event_store
from chalicelib.store.events import EventView
from chalicelib.timeutil import utcnow

COVER_FIELD = "photo"  # the multipart part, as for avatars
COVER_FOLDER = "covers"
COVER_CHANGED = "The cover changed meanwhile, try again."


def cover_keys(event) -> list[str]:
    return [key for key in (event.cover_key, event.cover_card_key) if key]


def change_cover(caller, event_id: int, data: bytes) -> EventView:
    """Hosts only (a guest 403, a stranger 404), on a live event (409 once cancelled)."""
    view = permitted_view(caller, event_id, Action.SET_COVER)
    require_live(view.event)
    settings = get_settings()
    processed = process_image(
        data,
        field=COVER_FIELD,
        max_bytes=settings.avatar_max_bytes,
        max_pixels=settings.avatar_max_pixels,
        square=False,
        card=True,
    )
    prefix = new_image_prefix(COVER_FOLDER, view.event.owner_id)
    key, card_key = f"{prefix}/cover.jpg", f"{prefix}/card.jpg"
    with aws.aws_unavailable_as_503("Image storage"):
        try:
            put_image(key, processed.big, processed.content_type)
            put_image(card_key, processed.card, processed.content_type)
            replaced = _swap(view.event, lambda event: event_store.set_cover_keys(event, key, card_key, utcnow()))
        except Exception:
            delete_quietly([key, card_key])
            raise
    delete_quietly(replaced)  # nobody points at them any more: a failure leaves garbage, never a broken page
    return with_users([view])[0]


def remove_cover(caller, event_id: int) -> EventView:
    """Delete the objects first, then clear META's keys (S3 down: 503 and the cover stays as it was)."""
    view = permitted_view(caller, event_id, Action.SET_COVER)

    def clear(event) -> None:
        if cover_keys(event):
            delete_images(cover_keys(event))
            event_store.clear_cover_keys(event, utcnow())

    _swap(view.event, clear, live=False)
    return with_users([view])[0]


def copy_cover(source, target) -> None:
    """Give the event ``target`` (just made, no cover yet) a copy of ``source``'s cover, under a key of its
    own (so removing either leaves the other). S3 or the write failing: ServiceUnavailable (or the write's
    error), with the copies deleted."""
    if not source.cover_key or not source.cover_card_key:
        return
    bucket = get_settings().avatar_bucket
    prefix = new_image_prefix(COVER_FOLDER, target.owner_id)
    key, card_key = f"{prefix}/cover.jpg", f"{prefix}/card.jpg"
    with aws.aws_unavailable_as_503("Image storage"):
        try:
            for copied, original in ((key, source.cover_key), (card_key, source.cover_card_key)):
                aws.s3().copy_object(
                    Bucket=bucket,
                    Key=copied,
                    CopySource={"Bucket": bucket, "Key": original},
                    MetadataDirective="COPY",  # the type and cache headers of the original
                )
            event_store.set_cover_keys(target, key, card_key, utcnow())
        except Exception:
            delete_quietly([key, card_key])
            raise


def _swap(event, write, *, live: bool = True) -> list[str]:
    """Run ``write(event)`` (a conditional write of META's cover keys), reading META again after a parallel
    change; returns the keys it replaced."""
    replaced: list[str] = []

    def attempt(number: int) -> None:
        if number:
            event_store.reread_event(event)
        if live:
            require_live(event)
        replaced[:] = cover_keys(event)
        try:
            write(event)
        except store.Refused:
            raise TryAgain() from None

    try:
        retry(attempt, attempts=SWAP_ATTEMPTS)
    except AttemptsSpent:
        raise Conflict(COVER_CHANGED) from None
    return replaced
