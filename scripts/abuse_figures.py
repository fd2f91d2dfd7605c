"""Figures of the adversarial runs' reproductions, in process (moto + chalice.test.Client, no network).

    python scripts/abuse_figures.py                      # the first run's three figures
    python scripts/abuse_figures.py multipart favorites  # some of them
    python scripts/abuse_figures.py suggestions --suggestions 1500
    python scripts/abuse_figures.py round2               # the second run's ten (scripts/abuse_round2.py)
    python scripts/abuse_figures.py round2 --code /tmp/old-tree   # the same, against another checkout

- ``multipart``: wall time until ``POST /users/change_avatar`` with 80,000 tiny parts is answered;
- ``favorites``: CPU seconds of ``POST /users/favorite_contacts`` with 20 photos of 12 MP each (16-bit
  RGBA PNGs by default, the costliest kind to decode; ``--kind``, ``--photos``, ``--megapixels`` change
  that), the whole request and the image work alone;
- ``suggestions``: median time of ``GET /events/{id}`` when the event holds the most time
  suggestions allowed (``--suggestions``, default the setting) with 500-character comments.

CPU is this process's (``time.process_time``): moto runs in it too, so the request figure includes the
emulator's work; the image figure is the CPU of the threads that ran ``process_image``.
"""

from __future__ import annotations

import argparse
import base64
import importlib.util
import json
import statistics
import struct
import sys
import threading
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import abuse_round2  # noqa: E402  (next to this script)

JSON = {"Content-Type": "application/json"}


def png_rgba(width: int, height: int, depth: int = 16) -> bytes:
    """A valid, all-black RGBA PNG: tiny on the wire, 8 (16-bit) or 4 bytes a pixel to decode."""
    row = b"\x00" + bytes(width * 4 * depth // 8)
    compressor = zlib.compressobj(9)
    data = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()

    def chunk(kind: bytes, payload: bytes) -> bytes:
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))

    header = struct.pack(">IIBBBBB", width, height, depth, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def many_parts(count: int, boundary: str = "xyz") -> bytes:
    part = f'--{boundary}\r\nContent-Disposition: form-data; name="x"\r\n\r\na\r\n'.encode()
    return part * count + f"--{boundary}--\r\n".encode()


def _login(client) -> tuple[str, int]:
    from tests.utils.factories import make_person

    person = make_person("Measurer")
    return person.token, person.id


def multipart(client, parts: int) -> dict:
    token, _ = _login(client)
    body = many_parts(parts)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "multipart/form-data; boundary=xyz"}
    started = time.perf_counter()
    response = client.http.post("/users/change_avatar", headers=headers, body=body)
    elapsed = time.perf_counter() - started
    return {
        "parts": parts,
        "body_bytes": len(body),
        "status": response.status_code,
        "seconds": round(elapsed, 2),
        "answer": response.body.decode()[:120],
    }


def photo_of(kind: str, width: int, height: int) -> tuple[bytes, str]:
    if kind == "jpeg":
        import io

        from PIL import Image

        bands = [Image.linear_gradient("L"), Image.radial_gradient("L"), Image.linear_gradient("L").rotate(90)]
        picture = Image.merge("RGB", bands).resize((width, height))
        buffer = io.BytesIO()
        picture.save(buffer, "JPEG", quality=85)  # smooth: 20 of them fit in one request body
        return buffer.getvalue(), "JPEG (gradients, quality 85)"
    depth = 16 if kind == "png16" else 8
    return png_rgba(width, height, depth), f"{depth}-bit RGBA PNG"


def favorites(client, photos: int, megapixels: float, kind: str) -> dict:
    from chalicelib.services.media import images

    token, _ = _login(client)
    width = int((megapixels * 1_000_000 * 4 / 3) ** 0.5)
    height = int(megapixels * 1_000_000 // width)
    data, described = photo_of(kind, width, height)
    photo = base64.b64encode(data).decode()
    body = [{"phone_number": f"+1202555{7000 + n:04d}", "contact_name": f"C{n}", "photo": photo} for n in range(photos)]
    payload = json.dumps(body).encode()

    image_cpu = []
    lock = threading.Lock()
    original = images.process_image

    def timed(*args, **kwargs):
        started = time.thread_time()
        try:
            return original(*args, **kwargs)
        finally:
            with lock:
                image_cpu.append(time.thread_time() - started)

    images.process_image = timed
    try:
        cpu, wall = time.process_time(), time.perf_counter()
        response = client.http.post(
            "/users/favorite_contacts", headers={**JSON, "Authorization": f"Bearer {token}"}, body=payload
        )
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    finally:
        images.process_image = original
    return {
        "photos": photos,
        "image": f"{width}x{height} {described}",
        "body_bytes": len(payload),
        "status": response.status_code,
        "request_cpu_s": round(cpu, 2),
        "image_cpu_s": round(sum(image_cpu), 2),
        "wall_s": round(wall, 2),
        "answer": response.body.decode()[:120],
    }


def suggestions(client, count: int, repeats: int = 15) -> dict:
    from chalicelib.models.events import SUGGESTION_PREFIX, TimeSuggestion, event_pk
    from chalicelib.timeutil import utcnow
    from tests.utils.factories import future, make_event, make_person

    owner = make_person("Owner")
    event = make_event(owner)
    now = utcnow()
    with TimeSuggestion.batch_write() as batch:  # stored directly: the API refuses past its limit
        for n in range(count):
            batch.save(
                TimeSuggestion(
                    event_pk(event.id),
                    f"{SUGGESTION_PREFIX}{n + 1:016d}",
                    id=n + 1,
                    user_id=owner.id,
                    suggested_time=future(),
                    comment="x" * 500,
                    created=now,
                )
            )
    headers = {"Authorization": f"Bearer {owner.token}"}
    times, size = [], 0
    for _ in range(repeats):
        started = time.perf_counter()
        response = client.http.get(f"/events/{event.id}", headers=headers)
        times.append(time.perf_counter() - started)
        size = len(response.body)
    return {
        "suggestions": count,
        "status": response.status_code,
        "median_ms": round(statistics.median(times) * 1000, 1),
        "body_bytes": size,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("figures", nargs="*", default=["multipart", "favorites", "suggestions"])
    parser.add_argument("--parts", type=int, default=80_000)
    parser.add_argument("--photos", type=int, default=20)
    parser.add_argument("--megapixels", type=float, default=12)
    parser.add_argument("--kind", choices=["png16", "png8", "jpeg"], default="png16")
    parser.add_argument("--suggestions", type=int, default=None)
    parser.add_argument(
        "--moto-as-shipped", action="store_true", help="moto backing up a table once per transaction item (slow)"
    )
    abuse_round2.add_options(parser)
    args = parser.parse_args(argv)
    if args.code:  # measure that checkout: its app, services and test factories (none imported yet)
        sys.path.insert(0, str(Path(args.code).resolve()))
    from tests.utils.aws_env import create_resources, use_test_environment

    if not args.moto_as_shipped:  # this checkout's harness fix, whichever code is measured
        spec = importlib.util.spec_from_file_location("harness_aws_env", ROOT / "tests" / "utils" / "aws_env.py")
        harness = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(harness)
        harness.back_up_tables_once_per_transaction()

    use_test_environment()
    abuse_round2.count_and_serialise_aws_calls()
    from chalice.test import Client
    from moto import mock_aws

    from app import app
    from chalicelib.config import get_settings

    count = args.suggestions or getattr(get_settings(), "time_suggestions_per_event", 50)
    runs = {
        "multipart": lambda client: multipart(client, args.parts),
        "favorites": lambda client: favorites(client, args.photos, args.megapixels, args.kind),
        "suggestions": lambda client: suggestions(client, count),
        **abuse_round2.runs(args),
    }
    names = [name for figure in args.figures for name in (abuse_round2.runs(args) if figure == "round2" else [figure])]
    for name in names:
        with mock_aws():
            create_resources()
            with Client(app, stage_name="local") as client:
                print(json.dumps({name: runs[name](client)}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
