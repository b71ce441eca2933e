"""Writing scenarios as CONTRACT §5 guard cases, with the calls in equivalent forms."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .model import Call, Literal, Scenario
from .zones import iso_naive, iso_offset, iso_utc

#: Equivalent ways to write the same instants.
FORMS = ("utc", "offset", "naive_tz")


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


def call_input(call: Call, form: str, home_zone: str) -> dict[str, Any]:
    """A call's input in ``form``; naive local times carry the zone they are read in."""
    base = "offset" if form == "bulk" else form
    inp = {k: value(v, base, call.zone, home_zone) for k, v in call.input.items() if v is not None}
    if base == "naive_tz" and any(isinstance(v, datetime) for v in call.input.values()):
        inp["timezone"] = call.zone
    return inp


def tool_calls(calls: list[Call], form: str, home_zone: str) -> list[dict[str, Any]]:
    """The calls as §5 ``tool_calls``; the ``bulk`` form folds several updates into one bulk call."""
    if form == "bulk":
        return [{"name": "bulk_update_calendar_events",
                 "input": {"updates": [call_input(c, form, home_zone) for c in calls]}}]
    return [{"name": c.name, "input": call_input(c, form, home_zone)} for c in calls]


def forms_for(sc: Scenario) -> list[str]:
    """Forms that differ for this scenario's calls."""
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
    if valid and sc.family in ("conflict", "duplicate") and sc.expect_warnings is not None:
        expect["expect_warning_types"] = list(sc.expect_warnings)
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
