"""GET /openapi.json and GET /docs: served without authentication, from the package (no CDN)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from tests.utils.api import body

ROOT = Path(__file__).resolve().parents[2]
BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"


def test_openapi_json_is_the_document_and_needs_no_token(client):
    response = client.http.get("/openapi.json")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/json"
    assert json.loads(response.body) == yaml.safe_load((ROOT / "openapi.yaml").read_text())


def test_docs_page_needs_no_token_and_loads_only_its_own_assets(client):
    response = client.http.get("/docs", headers={"Accept": BROWSER_ACCEPT})
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/html; charset=utf-8"
    page = response.body.decode()
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page), "no asset may come from elsewhere"
    assets = re.findall(r"""(?:src|href)="(docs/assets/[^"]+)\"""", page)
    assert sorted(assets) == ["docs/assets/swagger-ui-bundle.js", "docs/assets/swagger-ui.css"]
    assert 'url: "openapi.json"' in page
    for asset in assets:
        served = client.http.get(f"/{asset}", headers={"Accept": "*/*"})
        assert served.status_code == 200, asset
        assert served.headers["Cache-Control"] == "public, max-age=86400"
        assert len(served.body) > 100_000
    js = client.http.get("/docs/assets/swagger-ui-bundle.js").headers["Content-Type"]
    css = client.http.get("/docs/assets/swagger-ui.css").headers["Content-Type"]
    assert (js, css) == ("text/javascript; charset=utf-8", "text/css; charset=utf-8")


def test_docs_license_files_are_served(client):
    for name in ("LICENSE", "NOTICE", "swagger-ui-bundle.js.LICENSE.txt"):
        response = client.http.get(f"/docs/assets/{name}")
        assert response.status_code == 200 and response.headers["Content-Type"] == "text/plain; charset=utf-8"


def test_unknown_asset_is_404_and_no_path_escapes_the_folder(client):
    for name in ("nope.js", "..%2F..%2Fopenapi.json", "docs.html", "VERSION"):
        response = client.http.get(f"/docs/assets/{name}")
        assert response.status_code == 404, name
        assert body(response) == {"detail": "Not found."}


def test_head_answers_without_a_body_and_versions_follow_the_rule(client):
    for path in ("/openapi.json", "/docs", "/docs/assets/swagger-ui.css"):
        head = client.http.request("HEAD", path)
        assert head.status_code == 200 and head.body == b"", path
        assert client.http.get(path, headers={"Accept": "application/json; version=2.0"}).status_code == 406
    assert client.http.request("DELETE", "/docs").status_code == 405
