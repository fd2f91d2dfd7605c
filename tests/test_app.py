"""The app module itself: what a cold start imports, and the routes it registers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json, sys
import app
from chalicelib import aws
heavy = ["boto3", "PIL", "phonenumbers"]
made = sorted(aws._clients) + (["session"] if aws._session is not None else [])
print(json.dumps({"loaded": [m for m in heavy if m in sys.modules], "made": made, "routes": sorted(app.app.routes)}))
"""


def test_importing_the_app_makes_no_client_and_loads_no_route_only_library():
    from tests.utils.aws_env import TEST_ENVIRONMENT

    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=TEST_ENVIRONMENT | {"PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["loaded"] == []
    assert report["made"] == []
    assert "/events/{event_id}" in report["routes"] and "/auth" in report["routes"]


def test_every_registered_path_answers_every_method():
    from app import app

    for path, methods in app.routes.items():
        assert set(methods) >= {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"}, path


# What the first answer of GET /events/{id} has no use for: a cold start of that route must not load it.
NOT_ON_THE_READ_PATH = (
    "PIL",
    "phonenumbers",
    "boto3",
    "chalicelib.messaging",
    "chalicelib.messaging.notifications",
    "chalicelib.messaging.sms_sender",
    "chalicelib.services.push.devices",
    "chalicelib.services.hosting.events",
    "chalicelib.services.replies.replies",
    "chalicelib.services.guards.ratelimit",
    "chalicelib.services.identity.auth",  # logging in: the pin key, the texts, the rolling limits
    "chalicelib.services.contacts.contacts",
    "chalicelib.services.conversation.conversation",
    "chalicelib.services.media.avatars",
    "chalicelib.services.media.images",
    "chalicelib.services.identity.social",
    "chalicelib.api.contacts_input",
    "chalicelib.api.multipart",
    "chalicelib.guest_page.pages",
    "chalicelib.services.web.guest_answers",
    "chalicelib.guest_page.ics",
    "chalicelib.pinkey",
    "chalicelib.services.account.account_deletion",
    "chalicelib.services.account.data_export",
    "chalicelib.services.web.web_account",
    "chalicelib.guest_page.account_pages",
    "chalicelib.limits",
    "chalicelib.store.rate_logs",
    "chalicelib.domain.rolling_window",
    "zoneinfo",
    "babel",  # CLDR dates and language names: pages and texts in the guest's language only
    "chalicelib.languages",
    "gettext",
)

# Everything of the app's own that the first answer of GET /events/{id} loads: the wiring and the route table (every
# route declared, no handler loaded), the request plumbing, authentication, the route's own handler module, the
# event's read, its store and models. A module another route needs, imported by the handler module of this route,
# lands outside this set and fails the test: move the handler that needs it to a module of its own (routes.py names
# it), or add the module here if the answer itself needs it.
READ_PATH_MODULES = frozenset(
    {
        "chalicelib",
        "chalicelib.api",
        "chalicelib.api.access_log",
        "chalicelib.api.blueprint",
        "chalicelib.api.dispatch",
        "chalicelib.api.error_responses",
        "chalicelib.api.events",  # the route's own handler module, loaded by its first call
        "chalicelib.api.idempotency",
        "chalicelib.api.request",
        "chalicelib.api.responses",
        "chalicelib.api.routes",
        "chalicelib.aws",
        "chalicelib.aws_errors",
        "chalicelib.config",
        "chalicelib.domain",
        "chalicelib.domain.answers",  # each row's answer in one word (going, maybe, ...)
        "chalicelib.domain.event_fields",
        "chalicelib.domain.invitation_insight",  # how each invitation reached its person, for the hosts
        "chalicelib.domain.questions",  # the answers a detail shows
        "chalicelib.domain.visibility",  # what the caller may see of the event
        "chalicelib.domain.roles",
        "chalicelib.domain.waitlist",
        "chalicelib.errors",
        "chalicelib.ids",
        "chalicelib.inline_queue",
        "chalicelib.jobs",
        "chalicelib.loading",
        "chalicelib.localtime",
        "chalicelib.models",
        "chalicelib.models.auth",
        "chalicelib.models.base",
        "chalicelib.models.events",
        "chalicelib.models.item_access",
        "chalicelib.models.model_meta",
        "chalicelib.models.users",
        "chalicelib.parallel",
        "chalicelib.phones",
        "chalicelib.retry",
        "chalicelib.services",
        "chalicelib.services.identity",
        "chalicelib.services.identity.tokens",
        "chalicelib.services.identity.users",
        "chalicelib.services.participants",
        "chalicelib.services.participants.event_reads",
        "chalicelib.services.participants.representations",
        "chalicelib.snapstart",
        "chalicelib.store",
        "chalicelib.store.batch",
        "chalicelib.store.events",
        "chalicelib.store.invitations",
        "chalicelib.store.once",  # the writes applied once, imported with the store's event writes (a few lines)
        "chalicelib.store.records",
        "chalicelib.store.tokens",
        "chalicelib.store.users",
        "chalicelib.timeutil",
        "chalicelib.validation",
        "chalicelib.wiring",
        "chalicelib.write_tokens",  # every request starts a unit of work for its transactions' tokens
    }
)

FIRST_ANSWER = """
import gc, json, sys
import app
answer = app.app(json.loads(sys.argv[1]), None)
print(json.dumps({
    "status": answer["statusCode"],
    "body": json.loads(answer["body"]),
    "loaded": sorted(m for m in sys.modules if m.startswith(tuple(sys.argv[2:]))),
    "app_modules": sorted(m for m in sys.modules if m == "chalicelib" or m.startswith("chalicelib.")),
    "collector": {"enabled": gc.isenabled(), "frozen": gc.get_freeze_count()},
}))
"""


def test_a_cold_start_answers_an_event_without_loading_what_only_other_routes_need():
    """A fresh interpreter imports the app and answers one GET /events/{id} through the Lambda handler,
    against moto server; afterwards none of the modules only writes, texts, contacts, conversation,
    avatars or the guest page use is loaded."""
    from scripts.cold_start import _SEED, moto_server, proxy_event
    from tests.utils.aws_env import TEST_ENVIRONMENT

    with moto_server() as endpoint:
        env = TEST_ENVIRONMENT | {"PATH": "", "AWS_ENDPOINT_URL": endpoint, "PYTHONPATH": str(ROOT)}
        seeded = subprocess.run(
            [sys.executable, "-c", _SEED], cwd=ROOT, env=env, capture_output=True, text=True, check=True
        )
        seed = json.loads(seeded.stdout.strip().splitlines()[-1])
        event = json.dumps(proxy_event(seed["event_id"], seed["token"]))
        done = subprocess.run(
            [sys.executable, "-c", FIRST_ANSWER, event, *NOT_ON_THE_READ_PATH],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["status"] == 200
    assert report["body"]["id"] == seed["event_id"] and report["body"]["title"] == "Party"
    assert report["loaded"] == []
    # nor anything of the app's own beyond the wiring, the route table and what the answer uses
    unexpected = set(report["app_modules"]) - READ_PATH_MODULES
    assert not unexpected, f"loaded by the first GET /events/{{id}} but not used by it: {sorted(unexpected)}"
    # the collector is back on, and what the import made is out of its way
    assert report["collector"]["enabled"] and report["collector"]["frozen"] > 0


def test_the_queue_worker_takes_one_message_per_invocation():
    # a batch that times out comes back whole: with one message each, a heavy deletion has the whole 15 s and
    # only a failed message is delivered again
    from app import app

    (source,) = [s for s in app.event_sources if s.name == "send_notifications"]
    assert source.batch_size == 1


def test_the_entry_point_only_re_exports_the_wiring():
    # app.py cannot sit in an import contract (import-linter takes packages): it imports the wiring and nothing
    # else of the app, so the contracts over chalicelib cover everything it reaches
    import ast

    tree = ast.parse((ROOT / "app.py").read_text())
    imported = {
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in tree.body
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert imported == {"gc", "chalicelib.wiring"}
    defined = [node.name for node in tree.body if isinstance(node, ast.FunctionDef | ast.ClassDef)]
    assert defined == []
