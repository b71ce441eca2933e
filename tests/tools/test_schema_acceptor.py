"""The compiled schema check (`tools.registry._accepted`) says yes exactly when jsonschema
finds no error, for every tool the model sees: it is only a shortcut, and a shortcut that
accepted what jsonschema refuses would let an invalid call reach a handler."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tools.registry import _accepted, _validator, validation_error
from tools.specs import all_specs

SPECS = all_specs()

_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-3, max_value=3000),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from(["", "x", "2026-11-27T17:00:00", "sam@example.com", "Sam <sam@x.com>",
                     "09:00-17:00", "9-5", "ev_1", "RRULE:FREQ=WEEKLY", "a" * 501]),
)
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.sampled_from(["event_id", "title", "start", "x"]),
                                         inner, max_size=3), max_leaves=6)


@st.composite
def _inputs(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A tool name and an input built from that tool's own field names (plus a stranger one),
    each holding a value of any JSON type: near-valid inputs, where the two checks could
    disagree, rather than noise both refuse."""
    name = draw(st.sampled_from(SPECS.names()))
    fields = sorted(SPECS.get(name).input_schema.get("properties", {})) + ["surprise"]
    chosen = draw(st.lists(st.sampled_from(fields), unique=True, max_size=5))
    args: dict[str, Any] = {}
    for key in chosen:
        if key == "updates":
            item = {"event_id": draw(st.sampled_from(["ev_1", ""]))}
            item.update(draw(st.dictionaries(st.sampled_from(["title", "start", "attendees", "x"]),
                                             _values, max_size=2)))
            args[key] = draw(st.sampled_from([[item], [], item]))
        else:
            args[key] = draw(_values)
    return name, args


@pytest.mark.slow  # a property test
@settings(max_examples=300)
@given(_inputs())
def test_the_compiled_check_accepts_exactly_what_jsonschema_accepts(case: tuple[str, dict[str, Any]]) -> None:
    name, args = case
    spec = SPECS.get(name)
    assert spec is not None
    jsonschema_says_valid = not any(True for _ in _validator(spec).iter_errors(args))
    assert _accepted(spec, args) == jsonschema_says_valid


def test_a_valid_bulk_update_takes_the_compiled_path_and_is_left_as_given() -> None:
    spec = SPECS.get("bulk_update_calendar_events")
    assert spec is not None
    args = {"updates": [{"event_id": "ev_1", "title": "Swim", "attendees": ["sam@example.com"]}]}
    assert _accepted(spec, args)
    assert validation_error("bulk_update_calendar_events", args) is None
    assert args == {"updates": [{"event_id": "ev_1", "title": "Swim", "attendees": ["sam@example.com"]}]}


def test_an_invalid_call_is_still_worded_by_jsonschema() -> None:
    args = {"updates": [{"event_id": "ev_1", "attendees": ["Sam <sam@x.com>"]}]}
    assert validation_error("bulk_update_calendar_events", args) == \
        "updates.0.attendees.0: 'Sam <sam@x.com>' is not a 'email'"
