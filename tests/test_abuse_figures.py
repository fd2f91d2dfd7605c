"""scripts/abuse_figures.py in a small size: it still runs and each reproduction gets the answer the limits give.

Only statuses are asserted; the timings are for people (README, issue notes), not for a test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> dict:
    done = subprocess.run(
        [sys.executable, "scripts/abuse_figures.py", *args], cwd=ROOT, check=True, capture_output=True, text=True
    )
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith('{"') and '"msg"' not in line]
    return {key: value for line in lines for key, value in line.items()}


def test_figures_smoke_run():
    figures = _run("multipart", "suggestions", "--parts", "100", "--suggestions", "3")
    assert figures["multipart"]["status"] == 400 and "Too many parts." in figures["multipart"]["answer"]
    assert figures["suggestions"]["status"] == 200
    small = _run("favorites", "--photos", "2", "--megapixels", "0.05", "--kind", "png8")
    assert small["favorites"]["status"] == 200
    refused = _run("favorites", "--photos", "21", "--megapixels", "0.01")
    assert refused["favorites"]["status"] == 400


def test_round_two_smoke_run():
    figures = _run(
        "round2",
        *("--nested-parts", "200", "--new-numbers", "60", "--rounds", "2", "--events", "3"),
        *("--image-megapixels", "0.5"),
    )
    assert figures["quota"]["texts_sent"] == 50
    assert figures["nested"]["status"] == 400
    assert figures["invite-cost"]["status"] == 201 and figures["invite-cost"]["dynamodb_calls"] <= 25
    assert figures["devices"]["answers_500"] == {}
    assert figures["pins"]["pins_in_4_seconds_across_a_quarter_hour"] == 5
    # a registered invitee shows as the spec shows them (name, is_active); what bounds enumeration is the
    # allowance invites share with lookups: once it is spent, both answer 429
    assert figures["enumeration"]["lookup_after_allowance"] == 429
    assert figures["enumeration"]["invite_after_allowance"] == 429
    assert figures["events-per-owner"]["created"] == 3
    assert figures["nul"]["nul"]["status"] == 400 and figures["nul"]["surrogate"]["status"] == 400
    assert figures["unicode"]["composed_then_decomposed"] == [201, 400]
    assert all(figures["image-cpu"][mode]["status"] == 200 for mode in ("grey16", "grey_alpha16", "palette", "rgb8"))
