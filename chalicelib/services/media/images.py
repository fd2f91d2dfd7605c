"""Validate an uploaded photo and re-encode it as clean JPEGs: 1024 px, and a 200x200 square (avatars) or a
1024x536 link-preview card (event covers).

Pillow is imported inside the functions so importing this module costs nothing at Lambda cold start.
"""

from __future__ import annotations

import io
import struct
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chalicelib.config import get_settings
from chalicelib.errors import NotAnImage, PayloadTooLarge, ValidationError

if TYPE_CHECKING:
    from PIL import Image

BIG_SIDE = 1024
SMALL_SIDE = 200
# A link preview's image (og:image): 1.91:1 as Facebook, LinkedIn and X's large card draw it, cropped from the
# big image so nothing is upscaled past what it holds; above the 600x315 the large previews ask at least.
CARD_SIZE = (1024, 536)
# An album photo (services/the_day/photos.py): the picture, and its thumbnail in the album's grid.
PHOTO_SIDE = 1600
PHOTO_THUMB_SIDE = 400
JPEG_QUALITY = 85
JPEG_CONTENT_TYPE = "image/jpeg"


_JPEG_MAGIC = b"\xff\xd8\xff"
_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

# What Pillow raises on bytes it cannot parse or decode (header or pixel data).
_DECODE_ERRORS = (
    OSError,
    SyntaxError,
    ValueError,
    EOFError,
    IndexError,
    TypeError,
    KeyError,
    struct.error,
    zlib.error,
)


@dataclass(frozen=True)
class ProcessedImage:
    big: bytes  # JPEG, longest side at most BIG_SIDE (never upscaled)
    small: bytes | None  # JPEG, exactly SMALL_SIDE x SMALL_SIDE, centre crop of `big`; None when not asked for
    card: bytes | None = None  # JPEG, exactly CARD_SIZE, centre crop of `big`; None when not asked for
    content_type: str = JPEG_CONTENT_TYPE


def process_image(
    data: bytes,
    *,
    field: str = "photo",
    max_bytes: int,
    max_pixels: int,
    square: bool = True,
    raw_max_bytes: int | None = None,
    card: bool = False,
) -> ProcessedImage:
    """Check an uploaded JPEG/PNG and return it oriented, metadata-free and resized as JPEGs: the big one,
    the square unless ``square`` is False, the link-preview card when ``card``.

    Raises PayloadTooLarge above `max_bytes`, and ValidationError keyed by `field` for anything
    that is not a sound JPEG/PNG, that has more than `max_pixels` pixels, or a PNG whose pixel data
    inflates to more than ``raw_max_bytes`` (default: the setting IMAGE_RAW_MAX_BYTES): its decoding
    CPU grows with those bytes, so 16-bit colour or alpha allows fewer pixels than 8-bit RGB.
    """
    image = _decode(data, _checked_header(data, field, max_bytes, max_pixels, raw_max_bytes), field)
    big = _to_rgb(_orient(_shrink(image, BIG_SIDE)))
    small = _encode_jpeg(_square(big, SMALL_SIDE)) if square else None
    preview = _encode_jpeg(_crop_to(big, CARD_SIZE)) if card else None
    return ProcessedImage(big=_encode_jpeg(big), small=small, card=preview)


def process_photo(data: bytes, *, max_bytes: int, max_pixels: int) -> tuple[bytes, bytes]:
    """An album photo (JPEG, PNG or WebP) under the same checks as :func:`process_image`, as two clean JPEGs:
    the thumbnail (longest side PHOTO_THUMB_SIDE) and the photo (PHOTO_SIDE); never upscaled. Raises as
    :func:`process_image` does."""
    header = _checked_header(data, "photo", max_bytes, max_pixels, None, webp=True)
    photo = _to_rgb(_orient(_shrink(_decode(data, header, "photo", side=PHOTO_SIDE), PHOTO_SIDE)))
    thumb = _shrink(photo.copy(), PHOTO_THUMB_SIDE)
    return _encode_jpeg(thumb), _encode_jpeg(photo)


def _checked_header(
    data: bytes, field: str, max_bytes: int, max_pixels: int, raw_max_bytes: int | None, *, webp: bool = False
) -> Image.Image:
    """The parsed header of an upload within the byte, pixel and (PNG) inflated-data budgets; raises otherwise."""
    if len(data) > max_bytes:
        raise PayloadTooLarge(f"File too large. Maximum size is {_format_number(max_bytes / 2**20)} MB.")

    image = _open_header(data, field, webp=webp)
    width, height = image.size
    if width * height > max_pixels:
        raise ValidationError(
            {field: [f"Image is too large: at most {_format_number(max_pixels / 1_000_000)} megapixels."]}
        )

    raw_max_bytes = get_settings().image_raw_max_bytes if raw_max_bytes is None else raw_max_bytes
    if image.format == "PNG" and _png_raw_bytes(width, height, data) > raw_max_bytes:
        most = raw_max_bytes / _png_bytes_per_pixel(data) / 1_000_000
        raise ValidationError({field: [f"Image is too large: at most {_format_number(most)} megapixels in this mode."]})
    return image


def decoded_pixels(data: bytes) -> int:
    """How many pixels decoding ``data`` makes, read from the header alone: the measure of its CPU cost
    (about 35-40 ns a pixel for decoding, resizing and flattening, whatever the bit depth). A JPEG counts at
    the reduced scale :func:`_decode` decodes it at (a 12 MP one: 3 MP). 0 for what is no JPEG or PNG."""
    try:
        image = _open_header(data, "photo")
    except ValidationError:
        return 0
    if image.format == "JPEG":
        image.draft("RGB", _fit_within(*image.size, BIG_SIDE))
    width, height = image.size
    return width * height


_PNG_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # by colour type: grey, RGB, palette, grey+alpha, RGBA


def _png_bytes_per_pixel(data: bytes) -> float:
    """Bytes a pixel of a PNG takes in its inflated data, from the header's bit depth and colour type."""
    depth, colour_type = data[24], data[25]
    return _PNG_CHANNELS.get(colour_type, 4) * depth / 8


def _png_raw_bytes(width: int, height: int, data: bytes) -> int:
    """Bytes a PNG's pixel data inflates to: a filter byte and the packed samples of every row (Adam7
    interlacing adds a little, left out)."""
    return height * (1 + -(-int(width * _png_bytes_per_pixel(data) * 8) // 8))


def _invalid_image(field: str) -> ValidationError:
    return NotAnImage(field)


def _format_number(value: float) -> str:
    """5.0 -> "5", 2.5 -> "2.5", 4.7683 -> "4.77"."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _open_header(data: bytes, field: str, *, webp: bool = False) -> Image.Image:
    """Parse only the header of a JPEG or PNG (or, with ``webp``, a WebP), chosen from its magic number,
    without decoding pixels.

    The format plugin is used directly so Pillow's global decompression-bomb check
    (Image.MAX_IMAGE_PIXELS) neither fires nor is relied upon: the caller checks `max_pixels`.
    """
    from PIL import JpegImagePlugin, PngImagePlugin

    if data.startswith(_JPEG_MAGIC):
        image_class = JpegImagePlugin.JpegImageFile
    elif data.startswith(_PNG_MAGIC):
        image_class = PngImagePlugin.PngImageFile
    elif webp and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        from PIL import WebPImagePlugin

        image_class = WebPImagePlugin.WebPImageFile
    else:
        raise _invalid_image(field)
    try:
        image = image_class(io.BytesIO(data))
    except _DECODE_ERRORS as error:
        raise _invalid_image(field) from error
    width, height = image.size
    if width < 1 or height < 1:
        raise _invalid_image(field)
    return image


def _decode(data: bytes, image: Image.Image, field: str, *, side: int = BIG_SIDE) -> Image.Image:
    """Decode the pixels; truncated or corrupt data is refused.

    A PNG's chunk checksums are verified first (its decoder alone misses some corrupt data);
    a JPEG is decoded straight at a reduced scale in the DCT (draft), much faster than in full.
    """
    from PIL import PngImagePlugin

    try:
        if image.format == "PNG":
            image.verify()  # leaves this image unusable, so decode from a fresh one
            image = _eight_bit(PngImagePlugin.PngImageFile(io.BytesIO(data)))
        elif image.format == "JPEG":
            width, height = image.size
            image.draft("RGB", _fit_within(width, height, side))
        image.load()
    except _DECODE_ERRORS as error:
        raise _invalid_image(field) from error
    return image


# 16-bit greyscale is unpacked straight to 8 bits (the high byte of each sample) instead of to 32-bit
# integers: a quarter of the bytes to write and no full-size conversion afterwards. (Pillow has no such
# unpacker for 16-bit grey+alpha, which it unpacks to 8-bit RGBA.)
_EIGHT_BIT_DECODE = {"I;16B": ("L", "L;16B")}


def _eight_bit(image: Image.Image) -> Image.Image:
    from PIL import ImageFile

    if len(image.tile) != 1 or "transparency" in image.info:
        return image
    tile = image.tile[0]
    cheaper = _EIGHT_BIT_DECODE.get(tile.args if isinstance(tile.args, str) else None)
    if cheaper is not None:
        mode, rawmode = cheaper
        image._mode = mode
        image.tile = [ImageFile._Tile(tile.codec_name, tile.extents, tile.offset, rawmode)]
    return image


def _orient(image: Image.Image) -> Image.Image:
    """Apply the EXIF orientation in place; an unreadable EXIF block is ignored, not refused."""
    from PIL import ImageOps

    try:
        ImageOps.exif_transpose(image, in_place=True)
    except _DECODE_ERRORS:
        pass
    return image


def _fit_within(width: int, height: int, side: int) -> tuple[int, int]:
    """Size that fits in a side x side box, keeping the aspect ratio, never upscaling."""
    scale = min(1.0, side / max(width, height))
    return max(1, round(width * scale)), max(1, round(height * scale))


def _shrink(image: Image.Image, side: int) -> Image.Image:
    """Downscale to fit in side x side, in a mode Pillow resamples well (RGB, RGBA, L or CMYK)."""
    from PIL import Image

    image = _resamplable(image)
    # A box reduce() by an integer factor first (as JPEG's draft does in the DCT), then BICUBIC:
    # visually the same as a full LANCZOS, about 3x faster on a 12 MP PNG.
    image.thumbnail((side, side), Image.Resampling.BICUBIC, reducing_gap=1.5)
    return image


def _resamplable(image: Image.Image) -> Image.Image:
    """Convert palette, 1-bit, 16-bit and transparent modes, which resize badly or not at all."""
    if image.mode.startswith("I"):  # 16/32-bit greyscale: scale down to 8 bits, don't clip
        return image.convert("I").point(lambda value: value / 256).convert("L")
    if image.mode in ("PA", "La", "RGBa") or "transparency" in image.info:
        return image.convert("RGBA")  # resized with premultiplied alpha, flattened afterwards
    if image.mode in ("RGB", "RGBA", "L", "LA", "CMYK"):  # LA: resized as is (half the bytes of RGBA)
        return image
    return image.convert("RGB")


def _to_rgb(image: Image.Image) -> Image.Image:
    """Convert to plain sRGB: colour-manage an embedded ICC profile, flatten any alpha onto white."""
    from PIL import Image

    image = _to_srgb(image)
    if image.mode == "RGB":
        return image
    if image.mode in ("RGBA", "LA") or "transparency" in image.info:
        image = image.convert("RGBA")
        flattened = Image.new("RGB", image.size, "white")
        flattened.paste(image, mask=image.getchannel("A"))
        return flattened
    return image.convert("RGB")


def _to_srgb(image: Image.Image) -> Image.Image:
    """Convert RGB/CMYK pixels from their embedded ICC profile to sRGB, since the profile is dropped.

    A missing, unusable or mismatching profile leaves the pixels unchanged.
    """
    icc_profile = image.info.get("icc_profile")
    if not icc_profile or image.mode not in ("RGB", "CMYK"):
        return image
    from PIL import ImageCms

    try:
        return ImageCms.profileToProfile(
            image, io.BytesIO(icc_profile), ImageCms.createProfile("sRGB"), outputMode="RGB"
        )
    except (ImageCms.PyCMSError, *_DECODE_ERRORS):
        return image


def _square(image: Image.Image, side: int) -> Image.Image:
    """Centre crop to a square and resize to side x side."""
    return _crop_to(image, (side, side))


def _crop_to(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """Centre crop to the aspect of ``size`` and resize to it."""
    from PIL import Image, ImageOps

    return ImageOps.fit(image, size, Image.Resampling.LANCZOS)


def _encode_jpeg(image: Image.Image) -> bytes:
    """Encode as a fresh JPEG with no EXIF, ICC profile, comment or other metadata."""
    image.info = {}
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=JPEG_QUALITY, optimize=False)
    return buffer.getvalue()
