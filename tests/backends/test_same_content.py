"""`CalendarBackend.same_content` (asked twice per event of a rollback) says what comparing the
records without their server stamps (`strip_volatile`) says, for any records: stamps present
on one side only, on both with other values, a field that differs, a missing record."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tools.backends.base import VOLATILE_KEYS, CalendarBackend, Snapshot, strip_volatile

_KEYS = st.sampled_from(sorted(VOLATILE_KEYS) + ["title", "start", "location", "reminders"])
_VALUES = st.none() | st.booleans() | st.integers(-2, 2) | st.sampled_from(["a", "b", ""])
_RECORDS = st.none() | st.dictionaries(_KEYS, _VALUES, max_size=8)


def _snap(record: dict[str, Any] | None) -> Snapshot:
    return Snapshot("c", "e", record, None)


@pytest.mark.slow  # a property test
@settings(max_examples=500, deadline=None)
@given(_RECORDS, _RECORDS)
def test_what_stripping_the_stamps_says(a: dict[str, Any] | None, b: dict[str, Any] | None) -> None:
    assert CalendarBackend.same_content(_snap(a), _snap(b)) == (strip_volatile(a) == strip_volatile(b))
    if a is not None:  # the same record but for its stamps
        other = {**a, **{k: "changed" for k in VOLATILE_KEYS if k in a}, "etag": "x"}
        assert CalendarBackend.same_content(_snap(a), _snap(other))


def test_by_hand() -> None:
    same = CalendarBackend.same_content
    assert same(_snap(None), _snap(None))
    assert not same(_snap(None), _snap({})) and not same(_snap({}), _snap(None))
    assert same(_snap({"title": "a", "version": "1"}), _snap({"title": "a", "version": "2"}))
    assert same(_snap({"title": "a"}), _snap({"title": "a", "etag": "x", "updated": "y"}))
    assert not same(_snap({"title": "a"}), _snap({"title": "b", "version": "1"}))
    assert not same(_snap({"title": "a"}), _snap({"title": "a", "location": None}))
