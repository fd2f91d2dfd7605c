"""The data export's file as its owner gets it: the link of `GET /users/me/export` opened without a bearer token,
then the S3 object its redirect names."""

from __future__ import annotations

import json
from urllib.parse import unquote, urlsplit

from tests.utils.avatars import AVATAR_BUCKET
from tests.utils.aws_env import aws_client


def download_location(client, link: str) -> str:
    """Where opening the link redirects: a fresh S3 URL of the file."""
    opened = client.http.get(urlsplit(link).path)
    assert opened.status_code == 303, opened.body
    return opened.headers["Location"]


def exported_file(client, link: str) -> dict:
    location = download_location(client, link)
    key = "exports/" + unquote(urlsplit(location).path).split("/exports/", 1)[1]
    return json.loads(aws_client("s3").get_object(Bucket=AVATAR_BUCKET, Key=key)["Body"].read())
