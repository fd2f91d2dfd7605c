"""Schemathesis hooks for tests/contract/test_schemathesis.py, loaded by the CLI through SCHEMATHESIS_HOOKS.

The test logs people in and makes events on the live stack, then passes them in CONTRACT_FIXTURES
(JSON). These hooks put the bearer token on every request and mix real ids into the generated path
parameters, so the operations on an event reach their 200s and 4xx rules, not only 404:

- ``owned``: events of the caller's; ``invited``: events the caller is invited to;
- ``disposable``: an event of the caller's that ``cancel_event`` may cancel (the others stay live);
- ``invitation_ids``: the caller's invitation in an invited event, and another person's;
- ``plans_owned``, ``plans_invited``, ``plans_disposable``: plans of the caller's, one they are asked to vote
  in, and one ``DELETE /plans/{plan_id}`` may drop.

``/auth/logout`` gets a token of its own, so revoking it leaves the others working; so does
``DELETE /users/me`` (an account of its own to delete).
"""

from __future__ import annotations

import json
import os

import schemathesis
from hypothesis import strategies as st

FIXTURES = json.loads(os.environ.get("CONTRACT_FIXTURES") or "{}")


@schemathesis.auth()
class BearerToken:
    def get(self, case, context):
        return FIXTURES["token"]

    def set(self, case, data, context):
        token = FIXTURES["logout_token"] if case.operation.path == "/auth/logout" else data
        if case.operation.path == "/users/me" and case.operation.method.upper() == "DELETE":
            token = FIXTURES["deletable_token"]
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}


def _plan_ids(context, path_parameters):
    """Real plans for ``{plan_id}``: the caller's and one they are invited to; ``DELETE`` drops a disposable one."""
    generated = path_parameters["plan_id"]
    if context.operation.method.upper() == "DELETE":
        plan_ids = FIXTURES["plans_disposable"] + [generated]
    else:
        plan_ids = FIXTURES["plans_owned"] + FIXTURES["plans_invited"] + [generated]
    return st.fixed_dictionaries(
        {**{k: st.just(v) for k, v in path_parameters.items()}, "plan_id": st.sampled_from(plan_ids)}
    )


@schemathesis.hook
def flatmap_path_parameters(context, path_parameters):
    if path_parameters and "plan_id" in path_parameters:
        return _plan_ids(context, path_parameters)
    if not path_parameters or "event_id" not in path_parameters:
        return st.just(path_parameters)
    generated = path_parameters["event_id"]
    if context.operation.path.endswith("/cancel_event"):
        # Schemathesis also reuses ids seen in responses: keep the events the other operations need live.
        keep = set(FIXTURES["owned"] + FIXTURES["invited"])
        event_ids = FIXTURES["disposable"] + ([generated] if generated not in keep else [])
    else:
        event_ids = FIXTURES["owned"] + FIXTURES["invited"] + [generated]
    choices = {"event_id": st.sampled_from(event_ids)}
    if "invitation_id" in path_parameters:
        choices["invitation_id"] = st.sampled_from([*FIXTURES["invitation_ids"], path_parameters["invitation_id"]])
    return st.fixed_dictionaries({**{k: st.just(v) for k, v in path_parameters.items()}, **choices})
