"""Handlers named "module:function", loaded once on first use."""

from __future__ import annotations

import pytest

from chalicelib.loading import load_handler


def test_a_handler_is_loaded_once():
    first = load_handler("chalicelib.api.events:event_detail")
    assert load_handler("chalicelib.api.events:event_detail") is first
    assert first.__name__ == "event_detail" and first.__module__ == "chalicelib.api.events"


def test_a_handler_named_wrongly_is_refused_with_its_name():
    with pytest.raises(ValueError, match="module:function"):
        load_handler("chalicelib.api.events.event_detail")
    with pytest.raises(LookupError, match="no function nothing_here"):
        load_handler("chalicelib.api.events:nothing_here")
