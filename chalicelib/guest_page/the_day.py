"""The day itself on the guest's page: a going guest's check-in pass (its QR code, inline SVG) and the event's
album (thumbnails, and an "Add a photo" form while it is open), and the upload page that posts one photo straight
to S3. Without script: the upload is two plain forms (one to get a fresh presigned POST, one to S3, which sends
the browser back to the page). The album's pictures and the upload's form come from the bucket, so those pages'
Content-Security-Policy names its origin too."""

from __future__ import annotations

from html import escape
from urllib.parse import urlsplit

from chalicelib.guest_page import pages

UPLOADED = "Thanks! Your photo is on its way to the album (it shows once it is ready, in a few seconds)."
ALBUM_CLOSED = "The album is closed."
ALBUM_NOT_YET = "The album opens when the event starts: come back on the day to add photos."
NO_PHOTOS = "No photos yet."


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def security_headers(bucket_origin: str) -> dict[str, str]:
    """The page's headers, with the bucket's origin allowed for images and for the upload form's target."""
    headers = pages.security_headers()
    policy = headers["Content-Security-Policy"]
    policy = policy.replace("form-action 'self'", f"form-action 'self' {bucket_origin}")
    headers["Content-Security-Policy"] = f"{policy} {bucket_origin}"  # img-src comes last
    return headers


def pass_section(code: str, qr_svg: str) -> str:
    """The QR code a host scans at the door, and the code under it for a host who types it."""
    return f"""<section class="pass" aria-labelledby="pass-title">
<h2 id="pass-title">Your pass</h2>
<p class="hint">Show this at the door.</p>
<div role="img" aria-label="Check-in QR code">{qr_svg}</div>
<p class="code">{escape(code)}</p>
</section>
"""


def album_section(code: str, shown: list[dict], state: str, token: str, up: str = "") -> str:
    """The album's newest photos (``shown``: each with ``thumb_url`` and ``url``) and, while ``state`` is
    ``open``, the form that starts an upload."""
    items = "\n".join(
        f'<li><a href="{escape(photo["url"])}"><img src="{escape(photo["thumb_url"])}" alt="A photo from the event"'
        ' loading="lazy"></a></li>'
        for photo in shown
    )
    grid = f'<ul class="album">\n{items}\n</ul>' if shown else f'<p class="hint">{NO_PHOTOS}</p>'
    if state == "open":
        action = f"""<form method="post" action="{up}{escape(code)}/photos">
<input type="hidden" name="csrf" value="{escape(token)}">
<div class="buttons"><button type="submit" class="decline">Add a photo</button></div>
</form>"""
    else:
        action = f'<p class="hint">{ALBUM_NOT_YET if state == "not_yet" else ALBUM_CLOSED}</p>'
    return f"""<section aria-labelledby="album-title">
<h2 id="album-title">Photos</h2>
{grid}
{action}
</section>
"""


def upload_page(code: str, title: str, upload_url: str, fields: dict) -> str:
    """One photo's upload form, posted straight to S3 (JPEG, PNG or WebP up to 15 MB)."""
    hidden = "\n".join(
        f'<input type="hidden" name="{escape(name)}" value="{escape(value)}">' for name, value in fields.items()
    )
    body = f"""<h1 dir="auto">{escape(title)}</h1>
<form method="post" action="{escape(upload_url)}" enctype="multipart/form-data">
{hidden}
<label for="file">Choose a photo (JPEG, PNG or WebP, up to 15 MB)</label>
<input type="file" id="file" name="file" accept="image/jpeg,image/png,image/webp" required>
<div class="buttons"><button type="submit" class="accept">Upload</button></div>
</form>
<p class="hint">This form works for 15 minutes. <a href="../{escape(code)}">Back to the invitation</a></p>"""
    return pages.document(f"Add a photo \u00b7 {title}", body)


def sections(page, token: str, now) -> tuple[str, str | None]:
    """The pass and the album of the page's guest when they are going (else nothing), and the bucket's origin
    when the album shows pictures from it."""
    from chalicelib.services.the_day import check_ins, photos  # S3 and segno: only for a going guest's page

    found = check_ins.page_pass(page.event, page.invitation)
    html = pass_section(found.code, found.qr_svg) if found else ""
    album = photos.page_album(page.event, page.invitation, now)
    if album is None:
        return html, None
    shown, state = album
    html += album_section(page.code, shown, state, token)
    return html, origin_of(shown[0]["url"]) if shown else None
