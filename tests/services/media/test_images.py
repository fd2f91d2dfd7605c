"""process_image: type sniffing, size limits, bombs, corrupt files, orientation, metadata, modes, sizes."""

from __future__ import annotations

import functools
import io
import struct
import subprocess
import sys
import time
import warnings
import zlib
from pathlib import Path

import pytest
from PIL import Image, ImageCms, ImageDraw, features

from chalicelib.api.error_responses import body_of, status_of
from chalicelib.errors import PayloadTooLarge, ValidationError
from chalicelib.services.media.images import ProcessedImage, process_image
from tests.utils.images import PNG_SIGNATURE, png_chunk, png_claiming

MAX_BYTES = 5 * 1024 * 1024
MAX_PIXELS = 40_000_000
INVALID_MESSAGE = "Upload a valid image. The file you uploaded was either not an image or a corrupted image."
INVALID_BODY = {"photo": [INVALID_MESSAGE]}
MEGAPIXELS_BODY = {"photo": ["Image is too large: at most 40 megapixels."]}

ORIENTATION_TAG = 0x0112
GPS_IFD_TAG = 0x8825


def process(data: bytes, **overrides) -> ProcessedImage:
    return process_image(data, **{"max_bytes": MAX_BYTES, "max_pixels": MAX_PIXELS, **overrides})


def encode(image: Image.Image, image_format: str, **options) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=image_format, **options)
    return buffer.getvalue()


def textured(size: tuple[int, int], mode: str = "RGB") -> Image.Image:
    """A picture with shapes and noise (flat colour would hide resampling and decoding problems)."""
    width, height = size
    image = Image.merge(
        "RGB",
        [
            Image.linear_gradient("L").resize(size),
            Image.radial_gradient("L").resize(size),
            Image.effect_noise(size, 50),
        ],
    )
    draw = ImageDraw.Draw(image)
    draw.ellipse((width // 4, height // 4, 3 * width // 4, 3 * height // 4), fill=(200, 40, 40))
    return image.convert(mode)


def open_jpeg(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "JPEG"
    image.load()
    return image


def assert_valid_result(result: ProcessedImage, big_size: tuple[int, int]) -> None:
    assert result.content_type == "image/jpeg"
    big, small = open_jpeg(result.big), open_jpeg(result.small)
    assert (big.size, big.mode) == (big_size, "RGB")
    assert (small.size, small.mode) == ((200, 200), "RGB")


def rejection(data: bytes, **overrides) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        process(data, **overrides)
    return caught.value


# --- valid uploads and sizes -----------------------------------------------------------------------


def test_large_jpeg_is_scaled_to_1024_on_its_longest_side():
    result = process(encode(textured((4000, 3000)), "JPEG", quality=90))

    assert_valid_result(result, big_size=(1024, 768))


def test_large_png_is_scaled_to_1024_on_its_longest_side():
    data = encode(textured((3000, 4000)), "PNG", compress_level=1)  # noisy, so about 25 MB

    result = process(data, max_bytes=len(data))

    assert_valid_result(result, big_size=(768, 1024))


@pytest.mark.parametrize("image_format", ["JPEG", "PNG"])
def test_small_image_is_not_upscaled(image_format):
    result = process(encode(textured((300, 200)), image_format))

    assert_valid_result(result, big_size=(300, 200))


def test_tiny_image_still_gives_a_200_square():
    result = process(encode(textured((40, 30)), "PNG"))

    assert_valid_result(result, big_size=(40, 30))


def test_panorama_small_is_a_centre_crop():
    panorama = Image.new("RGB", (3000, 600), "blue")
    # Red over the middle 30%: the square crop keeps the middle 20% (600 of 3000 px), so only red.
    ImageDraw.Draw(panorama).rectangle((1050, 0, 1949, 599), fill="red")

    result = process(encode(panorama, "JPEG", quality=95))

    assert_valid_result(result, big_size=(1024, 205))
    small = open_jpeg(result.small)
    for point in [(0, 100), (100, 100), (199, 100)]:
        red, green, blue = small.getpixel(point)
        assert red > 200 and blue < 60, point


def test_upload_exactly_at_the_limits_is_accepted():
    data = encode(textured((200, 100)), "PNG")

    result = process(data, max_bytes=len(data), max_pixels=200 * 100)

    assert_valid_result(result, big_size=(200, 100))


# --- orientation and metadata ----------------------------------------------------------------------


def left_red_right_blue(size: tuple[int, int]) -> Image.Image:
    width, height = size
    image = Image.new("RGB", size, "blue")
    ImageDraw.Draw(image).rectangle((0, 0, width // 2 - 1, height - 1), fill="red")
    return image


def exif_with_gps(orientation: int) -> Image.Exif:
    exif = Image.Exif()
    exif[ORIENTATION_TAG] = orientation
    exif[0x010F] = "PhoneMaker"  # Make
    exif[0x0131] = "CameraApp 1.0"  # Software
    gps = exif.get_ifd(GPS_IFD_TAG)
    gps[1] = "N"  # GPSLatitudeRef
    gps[2] = (48.0, 51.0, 29.0)  # GPSLatitude
    gps[3] = "E"
    gps[4] = (2.0, 17.0, 40.0)
    return exif


def test_exif_orientation_6_is_applied():
    """Orientation 6 means "rotate 90 degrees clockwise to display": the left half ends up on top."""
    data = encode(left_red_right_blue((300, 200)), "JPEG", quality=95, exif=exif_with_gps(6))

    result = process(data)

    assert_valid_result(result, big_size=(200, 300))
    big = open_jpeg(result.big)
    top_red, _, top_blue = big.getpixel((100, 30))
    bottom_red, _, bottom_blue = big.getpixel((100, 270))
    assert top_red > 200 and top_blue < 60
    assert bottom_blue > 200 and bottom_red < 60


def test_exif_orientation_is_applied_to_a_large_jpeg():
    data = encode(textured((4000, 3000)), "JPEG", quality=85, exif=exif_with_gps(8))

    assert_valid_result(process(data), big_size=(768, 1024))


def test_metadata_is_stripped_from_both_outputs():
    srgb_profile = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    data = encode(
        left_red_right_blue((300, 200)),
        "JPEG",
        exif=exif_with_gps(6),
        icc_profile=srgb_profile,
        comment=b"taken at home",
        dpi=(300, 300),
    )
    assert b"PhoneMaker" in data and b"taken at home" in data

    result = process(data)

    for output in (result.big, result.small):
        image = open_jpeg(output)
        assert dict(image.getexif()) == {}
        assert image.getexif().get_ifd(GPS_IFD_TAG) == {}
        assert not {"exif", "icc_profile", "comment", "xmp"} & set(image.info)
        assert b"Exif\x00\x00" not in output
        assert b"PhoneMaker" not in output and b"taken at home" not in output


def test_png_text_chunks_and_exif_are_stripped():
    from PIL import PngImagePlugin

    text = PngImagePlugin.PngInfo()
    text.add_text("Author", "Secret Person")
    text.add_itxt("Location", "Rue de Rivoli", zip=True)
    data = encode(textured((300, 200)), "PNG", pnginfo=text, exif=exif_with_gps(1))

    result = process(data)

    for output in (result.big, result.small):
        assert b"Secret Person" not in output and b"Exif\x00\x00" not in output
        assert dict(open_jpeg(output).getexif()) == {}


def test_unreadable_icc_profile_and_exif_do_not_refuse_the_photo():
    data = encode(textured((300, 200)), "JPEG", icc_profile=b"not a profile", exif=b"Exif\x00\x00garbage")

    assert_valid_result(process(data), big_size=(300, 200))


# --- colour modes ----------------------------------------------------------------------------------


def test_transparent_png_is_flattened_on_white():
    image = Image.new("RGBA", (300, 200), (0, 0, 0, 0))
    ImageDraw.Draw(image).rectangle((0, 0, 99, 199), fill=(0, 0, 255, 255))

    result = process(encode(image, "PNG"))

    assert_valid_result(result, big_size=(300, 200))
    big = open_jpeg(result.big)
    assert all(channel > 245 for channel in big.getpixel((250, 100)))  # transparent -> white, not black
    red, green, blue = big.getpixel((50, 100))
    assert blue > 230 and red < 30 and green < 30


def test_palette_png_with_transparency_is_flattened_on_white():
    image = Image.new("P", (300, 200), 0)
    image.putpalette([0, 0, 0, 255, 0, 0] + [0] * 762)
    ImageDraw.Draw(image).rectangle((0, 0, 99, 199), fill=1)

    result = process(encode(image, "PNG", transparency=0))

    big = open_jpeg(result.big)
    assert all(channel > 245 for channel in big.getpixel((250, 100)))
    red, green, blue = big.getpixel((50, 100))
    assert red > 230 and green < 30 and blue < 30


@pytest.mark.parametrize(("mode", "transparent_colour"), [("RGB", (0, 0, 0)), ("L", 0)])
def test_png_with_a_transparent_colour_key_is_flattened_on_white(mode, transparent_colour):
    image = Image.new("RGB", (300, 200), "black")
    ImageDraw.Draw(image).rectangle((0, 0, 99, 199), fill="white")
    ImageDraw.Draw(image).rectangle((40, 80, 59, 119), fill="grey")

    result = process(encode(image.convert(mode), "PNG", transparency=transparent_colour))

    big = open_jpeg(result.big)
    assert all(channel > 245 for channel in big.getpixel((250, 100)))  # transparent black -> white
    assert all(110 < channel < 145 for channel in big.getpixel((50, 100)))  # opaque grey stays grey


def test_sixteen_bit_greyscale_png_is_scaled_not_clipped():
    image = Image.new("I;16", (300, 200), 32768)  # mid grey on a 0..65535 scale

    result = process(encode(image, "PNG"))

    big = open_jpeg(result.big)
    assert all(120 <= channel <= 136 for channel in big.getpixel((150, 100)))


@pytest.mark.parametrize(
    ("depth", "colour_type", "most"),
    [(16, 6, "15"), (16, 2, "20"), (16, 4, "30"), (8, 6, "30")],  # RGBA, RGB, grey+alpha, RGBA
)
def test_a_png_whose_pixels_inflate_past_the_decoding_budget_is_refused_before_decoding(depth, colour_type, most):
    # 40 MP in 16-bit took 3.6-3.9 s of CPU (8-bit RGB: 2.0 s); the decoding cost follows the inflated bytes
    data = png_claiming(7300, 5479, depth=depth, colour_type=colour_type)
    assert body_of(rejection(data)) == {"photo": [f"Image is too large: at most {most} megapixels in this mode."]}


def test_sixteen_bit_grey_with_alpha_is_taken():
    # mid grey, opaque, two bytes a sample
    pixels = b"".join(b"\x00" + b"\x80\x00\xff\xff" * 300 for _ in range(200))
    header = struct.pack(">IIBBBBB", 300, 200, 16, 4, 0, 0, 0)
    data = PNG_SIGNATURE + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", zlib.compress(pixels))
    data += png_chunk(b"IEND", b"")
    big = open_jpeg(process(data).big)
    assert all(120 <= channel <= 136 for channel in big.getpixel((150, 100)))


@pytest.mark.parametrize(
    ("mode", "image_format"),
    [
        ("L", "JPEG"),
        ("CMYK", "JPEG"),
        ("1", "PNG"),
        ("L", "PNG"),
        ("LA", "PNG"),
        ("P", "PNG"),
        ("RGBA", "PNG"),
    ],
)
def test_other_colour_modes_become_rgb(mode, image_format):
    result = process(encode(textured((600, 400), mode), image_format))

    assert_valid_result(result, big_size=(600, 400))


# --- refused uploads -------------------------------------------------------------------------------


def gif_bytes() -> bytes:
    return encode(textured((64, 64), "P"), "GIF")


def webp_bytes() -> bytes:
    if not features.check("webp"):
        pytest.skip("Pillow built without WebP")
    return encode(textured((64, 64)), "WEBP")


@pytest.mark.parametrize(
    "make_data",
    [
        pytest.param(lambda: b"", id="empty"),
        pytest.param(lambda: b"hello, this is a text file\n" * 10, id="text"),
        pytest.param(lambda: b"<svg xmlns='http://www.w3.org/2000/svg'/>", id="svg"),
        pytest.param(gif_bytes, id="gif"),
        pytest.param(webp_bytes, id="webp"),
        pytest.param(lambda: encode(textured((64, 64)), "BMP"), id="bmp"),
        pytest.param(lambda: PNG_SIGNATURE + b"\x00" * 100, id="png-signature-then-garbage"),
        pytest.param(lambda: b"\xff\xd8\xff" + b"\x00" * 100, id="jpeg-signature-then-garbage"),
    ],
)
def test_non_jpeg_png_uploads_are_refused(make_data):
    assert body_of(rejection(make_data())) == INVALID_BODY


def test_error_is_keyed_by_the_given_field():
    assert body_of(rejection(b"not an image", field="avatar")) == {"avatar": [INVALID_MESSAGE]}


@pytest.mark.parametrize("image_format", ["JPEG", "PNG"])
@pytest.mark.parametrize("kept_fraction", [0.3, 0.7])
def test_truncated_files_are_refused(image_format, kept_fraction):
    data = encode(textured((600, 400)), image_format)

    error = rejection(data[: int(len(data) * kept_fraction)])

    assert body_of(error) == INVALID_BODY


def test_jpeg_with_headers_but_no_scan_data_is_refused():
    data = encode(textured((600, 400)), "JPEG")
    start_of_scan = data.index(b"\xff\xda")
    (segment_length,) = struct.unpack(">H", data[start_of_scan + 2 : start_of_scan + 4])

    error = rejection(data[: start_of_scan + 2 + segment_length])

    assert body_of(error) == INVALID_BODY


def test_png_with_header_but_no_pixel_data_is_refused():
    data = encode(textured((600, 400)), "PNG")

    error = rejection(data[: data.index(b"IDAT") + 4])

    assert body_of(error) == INVALID_BODY


@pytest.mark.parametrize("position", [0.25, 0.5, 0.75])
def test_png_with_corrupt_pixel_data_is_refused(position):
    """Caught by the chunk checksum: Pillow's decoder alone accepts some corrupt streams."""
    data = bytearray(encode(textured((600, 400)), "PNG"))
    data[int(len(data) * position)] ^= 0xFF

    assert body_of(rejection(bytes(data))) == INVALID_BODY


# --- size limits and bombs -------------------------------------------------------------------------


@functools.cache
def png_bomb(side: int) -> bytes:
    """A complete, valid side x side 1-bit PNG of all-black rows: 30000 px square is about 100 KB."""
    row = bytes(1 + (side + 7) // 8)  # filter byte + 1 bit per pixel
    compressor = zlib.compressobj(9)
    pixels = b"".join(compressor.compress(row) for _ in range(side)) + compressor.flush()
    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)  # 1-bit greyscale
    chunks = [
        png_chunk(b"IHDR", header),
        png_chunk(b"IDAT", pixels),
        png_chunk(b"IEND", b""),
    ]
    return PNG_SIGNATURE + b"".join(chunks)


# 10000 px square (100 MP) is where Pillow only warns; 30000 px square (900 MP) is where Image.open raises.
@pytest.mark.parametrize("side", [10_000, 30_000])
def test_png_bomb_is_refused_quickly_without_decoding(side):
    bomb = png_bomb(side)
    assert len(bomb) < 200_000

    started = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no DecompressionBombWarning (nor any other warning) may escape
        error = rejection(bomb)
    elapsed = time.perf_counter() - started

    assert body_of(error) == MEGAPIXELS_BODY
    assert elapsed < 0.5


def test_pixel_limit_does_not_depend_on_pillow_global(monkeypatch):
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", None)

    assert body_of(rejection(png_bomb(10_000))) == MEGAPIXELS_BODY


def test_jpeg_over_the_pixel_limit_is_refused():
    data = encode(textured((200, 100)), "JPEG")

    error = rejection(data, max_pixels=200 * 100 - 1)

    assert body_of(error) == {"photo": ["Image is too large: at most 0.02 megapixels."]}


def test_pixel_limit_message_uses_max_pixels():
    error = rejection(encode(textured((300, 200)), "PNG"), max_pixels=25_000, field="avatar")

    assert body_of(error) == {"avatar": ["Image is too large: at most 0.03 megapixels."]}


def test_upload_over_max_bytes_is_refused_before_decoding():
    with pytest.raises(PayloadTooLarge) as caught:
        process(b"\x00" * (MAX_BYTES + 1))  # not even an image: size is checked first

    assert status_of(caught.value) == 413
    assert body_of(caught.value) == {"detail": "File too large. Maximum size is 5 MB."}


def test_max_bytes_message_uses_max_bytes():
    max_bytes = int(2.5 * 1024 * 1024)

    with pytest.raises(PayloadTooLarge) as caught:
        process(encode(textured((300, 200)), "PNG") + b"\x00" * max_bytes, max_bytes=max_bytes)

    assert body_of(caught.value) == {"detail": "File too large. Maximum size is 2.5 MB."}


# --- cold start ------------------------------------------------------------------------------------


def test_importing_the_module_does_not_import_pillow():
    project_root = Path(__file__).resolve().parents[3]
    check = "import sys, chalicelib.services.media.images; print('PIL' in sys.modules)"

    completed = subprocess.run(
        [sys.executable, "-c", check], cwd=project_root, capture_output=True, text=True, check=True
    )

    assert completed.stdout.strip() == "False"
