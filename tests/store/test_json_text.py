"""`tools.store.json_text.dumps` writes exactly what `json.dumps` writes, and `loads` reads
exactly what `json.loads` reads (and fails where it fails): the journal's stored texts keep
their spelling (a rollback compares an intent's text with the event's to the letter, and older
versions read these texts), only the cost per call changes."""
from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tools.store.json_text import dumps, loads

_SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=5)
                       | st.dictionaries(st.text(), inner, max_size=5), max_leaves=30)


@pytest.mark.slow  # a property test, 300 examples
@settings(max_examples=300, deadline=None)
@given(_VALUES)
def test_the_same_text_as_json_dumps(value: Any) -> None:
    assert dumps(value) == json.dumps(value)


def test_the_journal_s_texts_and_what_cannot_be_written() -> None:
    record = {"title": "Piano \u00e9 <b>", "start": "2025-10-24T15:00:00-07:00", "all_day": False,
              "attendees": '["a@example.com"]', "location": None, "version": "3",
              "reminders": [10, 1440], "nan": float("nan"), "big": 1e300, (1): "int key"}
    assert dumps(record) == json.dumps(record)
    assert dumps("a\u2028b\"") == json.dumps("a\u2028b\"")
    with pytest.raises(TypeError):
        dumps({"when": object()})


def _same_reading(text: object) -> None:
    try:
        expected = json.loads(text)  # type: ignore[arg-type]
    except (ValueError, TypeError) as exc:
        with pytest.raises(type(exc)) as got:
            loads(text)
        assert str(got.value) == str(exc)
        return
    assert json.dumps(loads(text)) == json.dumps(expected)


@pytest.mark.slow  # a property test, 300 examples
@settings(max_examples=300, deadline=None)
@given(_VALUES, st.sampled_from(["", " ", "\n", "x", "]", "\ufeff"]))
def test_the_same_reading_as_json_loads(value: Any, noise: str) -> None:
    text = json.dumps(value)
    for variant in (text, text + noise, noise + text, text[: len(text) // 2]):
        _same_reading(variant)


def test_odd_texts_fail_as_json_loads_fails() -> None:
    for odd in ("", "{", "\ufeff{}", "[1,]", "NaN", "nul", b"[1]", None, 5):
        _same_reading(odd)
