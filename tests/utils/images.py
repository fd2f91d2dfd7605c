"""Image bytes for upload and contact-photo tests: small real pictures, and PNGs that only claim a size."""

from __future__ import annotations

import io
import struct
import zlib

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def jpeg(width: int = 64, height: int = 48, colour="teal", *, noise: bool = False, exif: bytes = b"") -> bytes:
    """A JPEG of one ``colour``, or of random noise (a photo-like picture that compresses badly)."""
    from PIL import Image

    if noise:
        image = Image.effect_noise((width, height), 40).convert("RGB")
    else:
        image = Image.new("RGB", (width, height), colour)
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif)
    return out.getvalue()


def png(width: int = 40, height: int = 40, colour=(255, 0, 0, 128)) -> bytes:
    """A PNG of one ``colour``: RGBA for a 4-tuple (half transparent by default), RGB otherwise."""
    from PIL import Image

    mode = "RGBA" if isinstance(colour, tuple) and len(colour) == 4 else "RGB"
    out = io.BytesIO()
    Image.new(mode, (width, height), colour).save(out, "PNG")
    return out.getvalue()


def png_chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data and CRC."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_claiming(width: int, height: int, *, depth: int = 8, colour_type: int = 2) -> bytes:
    """A PNG whose header claims ``width`` x ``height`` pixels, with almost no pixel data (a few hundred bytes).

    colour_type 2 is RGB, 6 is RGBA; ``depth`` bits per channel.
    """
    header = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0)
    return (
        PNG_SIGNATURE
        + png_chunk(b"IHDR", header)
        + png_chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + png_chunk(b"IEND", b"")
    )
