"""openapi.yaml and openapi-pages.yaml: valid OpenAPI 3.1, the first in step with the JSON the bundle serves,
and together exactly the routes the app registers: the JSON API in openapi.yaml (what client generators
take), the pages for people (HTML, the documentation) in openapi-pages.yaml."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from openapi_spec_validator import validate

ROOT = Path(__file__).resolve().parents[2]


def _load_build_script():
    spec = importlib.util.spec_from_file_location("build_openapi", ROOT / "scripts" / "build_openapi.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build_openapi = _load_build_script()
OPERATIONS = ("get", "head", "post", "put", "patch", "delete")


PAGES_PATH = ROOT / "openapi-pages.yaml"


@pytest.fixture(scope="module")
def document() -> dict:
    return build_openapi.load_source()


@pytest.fixture(scope="module")
def pages() -> dict:
    return build_openapi.load_source(PAGES_PATH)


def operations(document: dict):
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method in OPERATIONS:
                yield path, method, operation


def documented_operations(document: dict) -> set[tuple[str, str]]:
    return {
        (path, method.upper()) for path, item in document["paths"].items() for method in item if method in OPERATIONS
    }


def declared_routes() -> dict[str, dict]:
    """{path: {method: RouteSpec}} of the declared routes (GET brings HEAD, PATCH brings POST)."""
    from app import API_BLUEPRINTS

    routes: dict[str, dict] = {}
    for blueprint in API_BLUEPRINTS:
        for path, specs in blueprint.specs_by_path().items():
            routes.setdefault(path, {}).update(specs)
    return routes


def test_the_documents_are_valid_openapi_3_1(document, pages):
    for each in (document, pages):
        assert each["openapi"].startswith("3.1.")
        validate(each)


def test_the_served_json_is_built_from_the_yaml():
    assert build_openapi.main(["--check"]) == 0, "chalicelib/openapi.json is stale: run scripts/build_openapi.py"


def test_every_route_the_app_registers_is_documented_and_nothing_else():
    from app import app

    declared = declared_routes()
    # Chalice registers every method on every path; the ones no route declares only answer 405.
    registered = {
        (path, method) for path, methods in app.routes.items() for method in methods if method in declared.get(path, {})
    }
    assert set(app.routes) == set(declared), "a route registered outside the API blueprints"
    api = documented_operations(build_openapi.load_source())
    pages = documented_operations(build_openapi.load_source(PAGES_PATH))
    assert api & pages == set(), "a route in both documents"
    documented = api | pages
    # HEAD is one general rule of the introduction, not an operation per path (see the test below).
    served = {(path, method) for path, method in registered if method != "HEAD"}
    assert sorted(served - documented) == [], "undocumented routes"
    assert sorted(documented - served) == [], "documented routes the app does not serve"
    assert {(path, "HEAD") for path, method in documented if method == "GET"} <= registered


def test_head_is_one_rule_of_the_introduction_and_post_as_patch_is_listed_with_its_route(document, pages):
    assert "Every GET operation also answers HEAD" in document["info"]["description"]
    for path, item in {**document["paths"], **pages["paths"]}.items():
        assert "head" not in item, f"HEAD {path} is listed: the introduction's rule covers it"
        if "patch" in item:
            assert "post" in item, f"POST {path}"
            assert item["post"]["responses"] == item["patch"]["responses"], path
            assert item["post"]["requestBody"] == item["patch"]["requestBody"], path


def test_every_operation_documents_the_version_header_and_auth_as_the_routes_take_it(document, pages):
    """Each operation states its own security: generators type an operation to take an authenticated
    client only when the operation itself lists a requirement (the document-wide one is not enough)."""
    declared = declared_routes()
    for each in (document, pages):
        for path, method, operation in operations(each):
            where = f"{method.upper()} {path}"
            assert {"$ref": "#/components/parameters/Accept"} in operation["parameters"], where
            assert "406" in operation["responses"], where
            needs_auth = declared[path][method.upper()].auth
            assert operation["security"] == ([{"bearer": []}] if needs_auth else []), where
            assert ("401" in operation["responses"]) == needs_auth, where


# The API's file downloads: their 200 is the file, every other answer JSON.
DOWNLOADS = {("get", "/events/{event_id}/guests.csv"): "text/csv"}


def test_the_api_document_answers_only_json_and_the_pages_only_need_no_token(document, pages):
    for path, method, operation in operations(document):
        for status, response in operation["responses"].items():
            content = resolve(document, response).get("content", {})
            download = DOWNLOADS.get((method, path)) if status == "200" else None
            allowed = {download} if download else {"application/json"}
            assert set(content) <= allowed, f"{method.upper()} {path} {status}: {list(content)}"
    assert [(path, method) for path, method, operation in operations(pages) if operation["security"] != []] == []


def test_an_operation_answers_each_schema_under_one_status_only(document):
    """A generated client tells answers apart by their type: no two statuses of one operation share one,
    and every answer is a named schema (a model named for what it is, not for its position)."""
    for path, method, operation in operations(document):
        seen: dict[str, str] = {}
        for status, response in operation["responses"].items():
            schema = resolve(document, response).get("content", {}).get("application/json", {}).get("schema")
            if schema is None:
                continue
            members = schema.get("anyOf") or schema.get("oneOf") or [schema]
            names = [member.get("$ref") or member.get("items", {}).get("$ref") for member in members]
            assert None not in names, f"{method.upper()} {path} {status}: an unnamed schema"
            for name in names:
                assert name not in seen, f"{method.upper()} {path}: {name} under {seen.get(name)} and {status}"
                seen[name] = status


def resolve(document: dict, response: dict) -> dict:
    while "$ref" in response:
        response = document["components"]["responses"][response["$ref"].rsplit("/", 1)[-1]]
    return response


def test_operation_ids_are_unique(document, pages):
    ids = [operation["operationId"] for each in (document, pages) for _, _, operation in operations(each)]
    assert len(ids) == len(set(ids))


def test_no_file_points_outside_the_repository():
    """A clone of this repository alone has the whole contract: no file refers to documents beside it."""
    import subprocess

    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    outside = ("../" + "shared", "shared" + "/spec", "CONTRACT" + ".md", "DESIGN" + ".md", "api-v1" + ".md")
    pointing = [
        f"{name}: {needle}"
        for name in files
        if (ROOT / name).is_file() and not name.startswith("chalicelib/static/")
        for needle in outside
        if needle in (ROOT / name).read_text(encoding="utf-8", errors="ignore")
    ]
    assert pointing == []
