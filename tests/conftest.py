"""Test harness: settings first, then moto, then the app.

Every test gets a fresh in-process moto (tables built from the PynamoDB models, the avatar bucket
and the APNS platform application), a `chalice.test.Client`, and a counter of the AWS calls the
service made. moto's actions run under one lock, so conditional writes are as atomic as DynamoDB's
and race tests fail only for the service's sake (README, "Run it locally").
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from pathlib import Path

from tests.utils.aws_env import (  # noqa: F401
    ACCOUNT,
    APNS_APP,
    REGION,
    back_up_tables_once_per_transaction,
    create_resources,
    honour_client_request_tokens,
    use_test_environment,
)

use_test_environment()

import pytest  # noqa: E402
from moto import mock_aws  # noqa: E402
from moto.core.responses import BaseResponse  # noqa: E402

from chalicelib import inline_queue, jobs  # noqa: E402

inline_queue.register(jobs.handle_here)  # tests without the app still handle what they queue, as app.py does

pytest_plugins = [
    "tests.utils.browser",  # the `chromium` fixture of the browser tests
    "tests.utils.pin_key",  # `deployed_stage`: a stage whose pin key is in SSM
    "tests.utils.iam",  # `iam`: each function runs under its own deployed policy
]

# The slow groups, by file (or file::test) under tests/: each test there gets these markers and `slow`, which
# `make test-fast` leaves out (-m "not slow"); `make test` runs everything. Markers are registered in
# pyproject.toml. A test marked with one of the group markers anywhere else is slow too.
SLOW_GROUPS = {
    "test_local_stack.py": ("e2e",),
    "services/replies/test_waitlist_live.py": ("e2e",),
    "services/guards/test_ratelimit_live.py": ("e2e",),
    "messaging/test_sms_budget_live.py": ("e2e",),
    "guest_page/test_page_browser.py": ("e2e", "browser"),
    "guest_page/test_account_delete_browser.py": ("e2e", "browser"),
    "guest_page/test_page_scripts_browser.py": ("browser",),
    "guest_page/test_the_day_browser.py": ("browser",),
    "contract/test_docs_browser.py": ("e2e", "browser"),
    "contract/test_schemathesis.py": ("e2e", "schemathesis"),
    "contract/test_generated_clients.py": ("generated_clients",),
    "infra/test_package.py": ("packaging", "cfn_lint"),
    "infra/test_deploy_rehearsal.py": ("packaging",),
    "infra/test_arm64_imports.py": ("packaging",),  # emulated aarch64 Python, about 2 minutes
    "infra/test_snapstart_switch.py::test_the_switched_on_template_lints_clean": ("cfn_lint",),
    "infra/test_inbound_sms_script.py": ("e2e",),  # the local stack in an emulator, the script as a process
    "infra/test_template.py::test_cfn_lint_passes": ("cfn_lint",),
    # 500 invitees written and notified through moto: a minute on a busy machine, alone longer than the rest
    "api/test_notifications_cancel.py::test_cancel_with_500_invitees_costs_what_cancel_with_5_does": ("scale",),
    "services/account/test_account_deletion_scale.py": ("scale",),
    "api/test_fault_matrix.py": ("faults",),
    "api/test_load_on_one_event.py": ("faults",),
    "jobs/test_job_fault_matrix.py::test_every_aws_error_a_job_meets_ends_in_its_work_done_once": ("faults",),
    "test_bench.py": ("scripts",),
    "test_abuse_figures.py": ("scripts",),
}
SLOW_MARKERS = {
    "e2e", "browser", "schemathesis", "generated_clients", "packaging", "cfn_lint", "scripts", "scale", "faults"
}
TESTS_DIR = Path(__file__).resolve().parent


# The process's own environment: what a subprocess inherits.
PROCESS_ENVIRON = os.environ


@pytest.fixture(autouse=True)
def inline_queue_emptied():
    """Messages the in-process queue kept for later never reach the next test."""
    yield
    inline_queue.discard_put_off()


@pytest.fixture(autouse=True)
def process_environment_kept():
    """chalice.test.Client swaps ``os.environ`` for a dict copy during each request and puts back what it
    found, so two requests from threads can leave the copy in place; what a later test sets would then never
    reach its subprocesses (pip, chalice). Every test starts and ends with the process's own environment."""
    os.environ = PROCESS_ENVIRON  # noqa: B003 - the object is put back, nothing is meant to be cleared
    yield
    os.environ = PROCESS_ENVIRON  # noqa: B003 - the object is put back, nothing is meant to be cleared


def pytest_collection_modifyitems(config, items):
    for item in items:
        resolved = Path(item.path).resolve()
        path = resolved.relative_to(TESTS_DIR).as_posix() if resolved.is_relative_to(TESTS_DIR) else ""
        groups = SLOW_GROUPS.get(path, ()) + SLOW_GROUPS.get(f"{path}::{item.originalname}", ())
        for group in groups:
            item.add_marker(group)
        if SLOW_MARKERS & {mark.name for mark in item.iter_markers()}:
            item.add_marker("slow")


class AwsCalls:
    """Counts the AWS actions the service performs, e.g. ``calls["dynamodb:GetItem"]``."""

    def __init__(self):
        self.counts: Counter = Counter()
        self.lock = threading.RLock()

    def reset(self) -> None:
        self.counts.clear()

    def of(self, service: str) -> Counter:
        prefix = f"{service}:"
        return Counter({k[len(prefix) :]: v for k, v in self.counts.items() if k.startswith(prefix)})

    def total(self, service: str) -> int:
        return sum(self.of(service).values())


AWS_CALLS = AwsCalls()
_original_call_action = BaseResponse.call_action


def _serialised_call_action(self):
    with AWS_CALLS.lock:
        service = type(self).__module__.split(".")[1]
        action = self._get_action()
        AWS_CALLS.counts[f"{service}:{action}"] += 1
        return _original_call_action(self)


BaseResponse.call_action = _serialised_call_action
back_up_tables_once_per_transaction()
honour_client_request_tokens()


@pytest.fixture
def aws():
    """A fresh moto account with the service's resources; yields the call counter."""
    with mock_aws():
        create_resources()
        AWS_CALLS.reset()
        yield AWS_CALLS


@pytest.fixture
def app(aws):
    from app import app as chalice_app

    return chalice_app


@pytest.fixture
def client(app):
    from chalice.test import Client

    # The test client applies a stage's environment_variables of .chalice/config.json around every request
    # (stage "dev" by default). dev and prod carry deployed table names and placeholders; "local" only STAGE.
    with Client(app, stage_name="local") as test_client:
        yield test_client


@pytest.fixture
def override_settings(monkeypatch):
    """``override_settings(auth_sms_per_number_per_hour=2)``: changed settings for one test."""
    from chalicelib.config import get_settings

    def apply(**values):
        for name, value in values.items():
            monkeypatch.setenv(name.upper(), str(value))
        get_settings.cache_clear()

    yield apply
    get_settings.cache_clear()


@pytest.fixture
def fail_aws(monkeypatch):
    """``fail_aws("dynamodb", "BatchGetItem")``: that call answers ThrottlingException-like faults.

    moto cannot inject faults, so this patches botocore's API call for the named operation.
    """
    from botocore.client import BaseClient
    from botocore.exceptions import ClientError

    failing: dict[tuple[str, str], str] = {}
    original = BaseClient._make_api_call

    def patched(self, operation_name, api_params):
        service = self.meta.service_model.service_name
        code = failing.get((service, operation_name))
        if code:
            raise ClientError(
                {"Error": {"Code": code, "Message": "injected"}, "ResponseMetadata": {"HTTPStatusCode": 400}},
                operation_name,
            )
        return original(self, operation_name, api_params)

    monkeypatch.setattr(BaseClient, "_make_api_call", patched)

    def fail(service: str, operation: str, code: str = "ThrottlingException"):
        failing[(service, operation)] = code

    return fail


@pytest.fixture
def break_aws(monkeypatch):
    """``break_aws("UpdateItem", make_error)``: that botocore operation raises ``make_error(operation_name)``.

    For faults ``fail_aws`` cannot express: read timeouts, cancelled transactions with their reasons, and
    errors carrying a message (tests/utils/aws_faults.py makes them).
    """
    from botocore.client import BaseClient

    failing = {}
    original = BaseClient._make_api_call

    def patched(self, operation_name, api_params):
        make = failing.get(operation_name)
        if make is not None:
            raise make(operation_name)
        return original(self, operation_name, api_params)

    monkeypatch.setattr(BaseClient, "_make_api_call", patched)
    return failing.__setitem__
