"""Helpers for avatar and contact-photo tests: the multipart upload a mobile client sends, and what S3 holds."""

from __future__ import annotations

from tests.utils.aws_env import TEST_ENVIRONMENT, aws_client

AVATAR_BUCKET = TEST_ENVIRONMENT["AVATAR_BUCKET"]
CDN = TEST_ENVIRONMENT["AVATAR_BASE_URL"] + "/"  # photo URLs start with it; the object key follows


def stored_objects() -> list[str]:
    """Every object key in the avatar bucket, sorted."""
    listing = aws_client("s3").list_objects_v2(Bucket=AVATAR_BUCKET)
    return sorted(item["Key"] for item in listing.get("Contents", []))


def multipart(data: bytes, field: str = "photo", filename: str = "me.jpg", content_type: str = "image/jpeg"):
    """A multipart/form-data body with one file part; returns (body, headers)."""
    boundary = "----invites-test-boundary"
    payload = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; filename="{filename}"\r\n'
            f"Content-Type: {content_type}\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return payload, {"Content-Type": f"multipart/form-data; boundary={boundary}"}


def upload_avatar(client, token: str, data: bytes, **part):
    """POST /users/change_avatar with ``data`` as the photo part (``part``: field, filename, content_type)."""
    payload, headers = multipart(data, **part)
    headers["Authorization"] = f"Bearer {token}"
    return client.http.post("/users/change_avatar", body=payload, headers=headers)


def remove_avatar(client, token: str):
    return client.http.post("/users/remove_avatar", headers={"Authorization": f"Bearer {token}"})
