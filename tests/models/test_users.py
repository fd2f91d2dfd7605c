"""The users table's model module knows every kind of item the table holds."""

from __future__ import annotations

import json
import subprocess
import sys

# A fresh interpreter: nothing but the model module is imported, so no other module can register a kind.
_KINDS = (
    "import json; from chalicelib.models.users import UsersTable; "
    "print(json.dumps(sorted(UsersTable._get_discriminator_attribute()._discriminator_map)))"
)


def test_a_users_partition_read_needs_only_the_models_module_to_know_each_item():
    printed = subprocess.run([sys.executable, "-c", _KINDS], check=True, capture_output=True, text=True).stdout
    kinds = json.loads(printed)
    assert {"user", "token", "device", "favorite", "invited", "export", "deletion_job"} <= set(kinds)
