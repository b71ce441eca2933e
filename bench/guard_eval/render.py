"""Writing scenarios as CONTRACT §5 guard cases, with the calls in equivalent forms."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .model import Call, Literal, Scenario
from .zones import iso_naive, iso_offset, iso_utc

#: Equivalent ways to write the same instants.
FORMS = ("utc", "offset", "naive_tz")
#: Families whose correct cases carry ``expect_warning_types``.
WARNING_FAMILIES = ("conflict", "duplicate", "free_time_words")
#: Families whose cases carry ``error_types`` ([] when correct; the one type a labelled mutation is).
ERROR_TYPE_FAMILIES = ("free_time_words", "created_values", "duplicate_once")
#: The one error type a mutation is (CONTRACT §5), where the contract names it; others are unlabelled.
ERROR_TYPES: dict[str, tuple[str, ...]] = {
    "overlaps_busy": ("conflict",), "runs_into_busy": ("conflict",), "title_other_person": ("other",),
    "span_shorter": ("date",), "span_longer": ("date",), "one_wrong_day": ("date",),
    "copy_created": ("duplicate",), "created_twice": ("duplicate",),
}


def value(v: object, form: str, zone: str, home_zone: str) -> object:
    """One input value in ``form``: datetimes as UTC ``Z``, with an offset, or naive local."""
    if isinstance(v, Literal):
        return v.text
    if isinstance(v, datetime):
        if form == "utc":
            return iso_utc(v)
        if form == "naive_tz":
            return iso_naive(v, zone)
        if form == "offset_home":
            return iso_offset(v, home_zone)
        return iso_offset(v, zone)
    return v


def _base(form: str) -> str:
    """The datetime form inside a bulk form: ``bulk`` is offsets, ``bulk_utc`` UTC, ``bulk_naive_tz`` naive."""
    if form == "bulk":
        return "offset"
    return form.removeprefix("bulk_")


def call_input(call: Call, form: str, home_zone: str) -> dict[str, Any]:
    """A call's input in ``form``; naive local times carry the zone they are read in."""
    base = _base(form)
    inp = {k: value(v, base, call.zone, home_zone) for k, v in call.input.items() if v is not None}
    if form == "date_tz" and call.input.get("all_day"):
        inp["timezone"] = call.zone  # an all-day event's dates, with the zone named or not
    if base == "naive_tz" and any(isinstance(v, datetime) for v in call.input.values()):
        inp["timezone"] = call.zone
    return inp


def tool_calls(calls: list[Call], form: str, home_zone: str) -> list[dict[str, Any]]:
    """The calls as §5 ``tool_calls``; a ``bulk`` form folds the updates into one bulk call (other
    calls, such as a create a mutation added, follow it as calls of their own)."""
    if form.startswith("bulk"):
        updates = [c for c in calls if c.name == "update_calendar_event"]
        rest = [c for c in calls if c.name != "update_calendar_event"]
        out: list[dict[str, Any]] = []
        if updates:
            out.append({"name": "bulk_update_calendar_events",
                        "input": {"updates": [call_input(c, form, home_zone) for c in updates]}})
        return out + [{"name": c.name, "input": call_input(c, _base(form), home_zone)} for c in rest]
    return [{"name": c.name, "input": call_input(c, form, home_zone)} for c in calls]


def forms_for(sc: Scenario) -> list[str]:
    """Forms that differ for this scenario's calls (a scenario may name its own, e.g. bulk only)."""
    if sc.info.get("forms"):
        return list(sc.info["forms"])
    if not any(isinstance(v, datetime) for c in sc.calls for v in c.input.values()):
        return ["plain"]
    forms = list(FORMS)
    if sc.info.get("city"):
        forms.append("offset_home")
    if len(sc.calls) > 1 and all(c.name == "update_calendar_event" for c in sc.calls):
        forms.append("bulk")
    return forms


def case(case_id: str, sc: Scenario, calls: list[Call], form: str, valid: bool, mutation: str | None,
         backend: str, prelude: list[dict[str, Any]]) -> dict[str, Any]:
    """One §5 input line plus its ``expect``."""
    expect: dict[str, Any] = {"valid": valid, "family": sc.family, "scenario": sc.scenario, "mutation": mutation,
                              "form": form, "date_kind": sc.setting.date_kind, "zone": sc.setting.zone}
    if valid and sc.family in WARNING_FAMILIES and sc.expect_warnings is not None:
        expect["expect_warning_types"] = list(sc.expect_warnings)
    if sc.family in ERROR_TYPE_FAMILIES or (mutation is not None and mutation in ERROR_TYPES):
        if valid:
            expect["error_types"] = []
        elif mutation in ERROR_TYPES:
            expect["error_types"] = list(ERROR_TYPES[mutation])
    return {
        "id": case_id,
        "user_message": sc.message,
        "now": sc.setting.now.replace(tzinfo=None).isoformat(timespec="seconds"),
        "timezone": sc.setting.zone,
        "home_address": sc.home,
        "backend": backend,
        "calendar": [e.to_json() for e in sc.calendar],
        "tool_calls": prelude + tool_calls(calls, form, sc.setting.zone),
        "expect": expect,
    }
