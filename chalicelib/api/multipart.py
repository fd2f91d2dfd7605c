"""The avatar upload's multipart/form-data body read into the photo's bytes."""

from __future__ import annotations

import re

from chalicelib.config import get_settings
from chalicelib.errors import PayloadTooLarge, ValidationError

PHOTO_FIELD = "photo"
NO_FILE = "No file was submitted."
TOO_MANY_PARTS = "Too many parts."
NESTED_MULTIPART = "Nested multipart bodies are not accepted."
_HEADER_END = re.compile(rb"\r?\n\r?\n")
_FOLDED = re.compile(rb"\r?\n[ \t]+")


def photo_from_multipart(content_type: str, body: bytes | str) -> bytes:
    """The bytes of the ``photo`` part of a multipart/form-data body.

    The parts are counted (one C-speed scan for the boundary) before the body is parsed: the standard
    library's parser builds a message per part and parses its headers through the email header registry,
    about 0.1-0.4 ms a part, so 80,000 tiny parts took 10-30 s. More than ``MULTIPART_MAX_PARTS``: 400.
    """
    from email.message import Message
    from email.parser import BytesParser
    from email.policy import HTTP

    settings = get_settings()
    if isinstance(body, str):
        body = body.encode("latin-1")
    if len(body) > settings.avatar_max_bytes + 64 * 1024:
        raise PayloadTooLarge(f"File too large. Maximum size is {settings.avatar_max_bytes // (1024 * 1024)} MB.")
    header = Message()
    header["Content-Type"] = content_type
    boundary = header.get_param("boundary")
    if not isinstance(boundary, str) or not boundary:
        raise ValidationError.field(PHOTO_FIELD, NO_FILE)
    # Each part opens with "--boundary", and the body closes with "--boundary--" (RFC 2046, 5.1.1).
    if body.count(b"--" + boundary.encode("latin-1", "replace")) > settings.multipart_max_parts + 1:
        raise ValidationError({"non_field_errors": [TOO_MANY_PARTS]})
    if _has_nested_multipart(body, boundary.encode("latin-1", "replace")):
        raise ValidationError({"non_field_errors": [NESTED_MULTIPART]})
    message = BytesParser(policy=HTTP).parsebytes(
        b"Content-Type: " + content_type.encode("latin-1", "replace") + b"\r\n\r\n" + body
    )
    if not message.is_multipart():
        raise ValidationError.field(PHOTO_FIELD, NO_FILE)
    for part in message.iter_parts():
        if part.get_param("name", header="content-disposition") == PHOTO_FIELD:
            data = part.get_payload(decode=True)
            if data:
                return data
    raise ValidationError.field(PHOTO_FIELD, NO_FILE)


def _has_nested_multipart(body: bytes, boundary: bytes) -> bool:
    """Whether a part of ``body`` (already known to have few) declares a ``multipart/*`` type of its own.

    The standard library's parser walks nested parts however many there are, and only the outer ones
    are counted, so such a part is refused from its headers alone, before anything is parsed."""
    for part in body.split(b"--" + boundary)[1:]:
        headers = _FOLDED.sub(b" ", _HEADER_END.split(part, maxsplit=1)[0])
        for line in headers.splitlines():
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-type" and value.strip().lower().startswith(b"multipart/"):
                return True
    return False
