"""The day itself on the guest's page: a going guest's check-in pass (its QR code, inline SVG) and the event's
album (thumbnails, and an "Add a photo" form while it is open), and the upload page that posts one photo straight
to S3. Without script: the upload is two plain forms (one to get a fresh presigned POST, one to S3, which sends
the browser back to the page). The album's pictures and the upload's form come from the bucket, so those pages'
Content-Security-Policy names its origin too. Their words are in the language of the page's ``said`` (English by
default)."""

from __future__ import annotations

from html import escape
from urllib.parse import urlsplit

from chalicelib.guest_page import pages
from chalicelib.languages.catalogues import N_, Words, words

UPLOADED = N_("Thanks! Your photo is on its way to the album (it shows once it is ready, in a few seconds).")
ALBUM_CLOSED = N_("The album is closed.")
ALBUM_NOT_YET = N_("The album opens when the event starts: come back on the day to add photos.")
NO_PHOTOS = N_("No photos yet.")


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


def pass_section(code: str, qr_svg: str, said: Words | None = None) -> str:
    """The QR code a host scans at the door, and the code under it for a host who types it."""
    said = said or words(None)
    heading, hint = escape(said._("Your pass")), escape(said._("Show this at the door."))
    label = escape(said._("Check-in QR code"))
    return f"""<section class="pass" aria-labelledby="pass-title">
<h2 id="pass-title">{heading}</h2>
<p class="hint">{hint}</p>
<div role="img" aria-label="{label}">{qr_svg}</div>
<p class="code">{escape(code)}</p>
</section>
"""


def album_section(code: str, shown: list[dict], state: str, token: str, up: str = "", said: Words | None = None) -> str:
    """The album's newest photos (``shown``: each with ``thumb_url`` and ``url``) and, while ``state`` is
    ``open``, the form that starts an upload."""
    said = said or words(None)
    alt = escape(said._("A photo from the event"))
    items = "\n".join(
        f'<li><a href="{escape(photo["url"])}"><img src="{escape(photo["thumb_url"])}" alt="{alt}"'
        ' loading="lazy"></a></li>'
        for photo in shown
    )
    grid = f'<ul class="album">\n{items}\n</ul>' if shown else f'<p class="hint">{escape(said._(NO_PHOTOS))}</p>'
    if state == "open":
        add = escape(said._("Add a photo"))
        action = f"""<form method="post" action="{up}{escape(code)}/photos">
<input type="hidden" name="csrf" value="{escape(token)}">
<div class="buttons"><button type="submit" class="decline">{add}</button></div>
</form>"""
    else:
        action = f'<p class="hint">{escape(said._(ALBUM_NOT_YET if state == "not_yet" else ALBUM_CLOSED))}</p>'
    heading = escape(said._("Photos"))
    return f"""<section aria-labelledby="album-title">
<h2 id="album-title">{heading}</h2>
{grid}
{action}
</section>
"""


def upload_page(code: str, title: str, upload_url: str, fields: dict, said: Words | None = None) -> str:
    """One photo's upload form, posted straight to S3 (JPEG, PNG or WebP up to 15 MB)."""
    said = said or words(None)
    choose = escape(said._("Choose a photo (JPEG, PNG or WebP, up to 15 MB)"))
    upload, back = escape(said._("Upload")), escape(said._("Back to the invitation"))
    lasts = escape(said._("This form works for 15 minutes."))
    hidden = "\n".join(
        f'<input type="hidden" name="{escape(name)}" value="{escape(value)}">' for name, value in fields.items()
    )
    body = f"""<h1 dir="auto">{escape(title)}</h1>
<form method="post" action="{escape(upload_url)}" enctype="multipart/form-data">
{hidden}
<label for="file">{choose}</label>
<input type="file" id="file" name="file" accept="image/jpeg,image/png,image/webp" required>
<div class="buttons"><button type="submit" class="accept">{upload}</button></div>
</form>
<p class="hint">{lasts} <a href="../{escape(code)}">{back}</a></p>"""
    heading = said._("Add a photo")
    return pages.document(f"{heading} \u00b7 {title}", body, said, f"../{escape(code)}")


def sections(page, token: str, now, said: Words | None = None) -> tuple[str, str | None]:
    """The pass and the album of the page's guest when they are going (else nothing), and the bucket's origin
    when the album shows pictures from it."""
    from chalicelib.services.the_day import check_ins, photos  # S3 and segno: only for a going guest's page

    found = check_ins.page_pass(page.event, page.invitation)
    html = pass_section(found.code, found.qr_svg, said) if found else ""
    album = photos.page_album(page.event, page.invitation, now)
    if album is None:
        return html, None
    shown, state = album
    html += album_section(page.code, shown, state, token, said=said)
    return html, origin_of(shown[0]["url"]) if shown else None
