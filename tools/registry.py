"""The tool registry: validate the input against the schema the model saw, ask before destructive
calls, run the one handler, and turn every failure into an `is_error` result that names the field.

Validation uses the very JSON schemas sent to the model (through `jsonschema`), so what the model
is told and what is enforced cannot drift apart.
"""
from __future__ import annotations

import json
from typing import Any

from jsonschema import Draft202012Validator

from tools.backend import CalendarError
from tools.context import Confirmation, ToolCall, ToolContext, ToolResult
from tools.definitions import (FORMAT_CHECKER, GUARDED_TOOLS, TOOL_DEFINITIONS, TOOLS_BY_NAME,
                               WRITE_TOOLS)
from tools.events import EventFieldError
from tools.handlers import HANDLERS, compact_row
from tools.locations import GeocoderError

_VALIDATORS = {t["name"]: Draft202012Validator(t["input_schema"], format_checker=FORMAT_CHECKER)
               for t in TOOL_DEFINITIONS}


def tool_definitions() -> list[dict[str, Any]]:
    """The definitions the model sees, as `calendar-assistant tools` prints them."""
    return [{"name": t["name"], "description": t["description"], "input_schema": t["input_schema"]}
            for t in TOOL_DEFINITIONS]


def is_guarded(name: str) -> bool:
    return name in GUARDED_TOOLS


def is_write(name: str) -> bool:
    return name in WRITE_TOOLS


def validation_error(name: str, args: Any) -> str | None:
    """The first schema violation, phrased with the field path, or None."""
    if name not in _VALIDATORS:
        return f"unknown tool {name!r}; tools are {', '.join(TOOLS_BY_NAME)}"
    if not isinstance(args, dict):
        return "the input must be a JSON object"
    errors = sorted(_VALIDATORS[name].iter_errors(args), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    err = errors[0]
    path = ".".join(str(p) for p in err.absolute_path) or "input"
    if err.validator == "additionalProperties":
        extra = sorted(set(err.instance) - set(err.schema.get("properties", {})))
        return f"{path}: unknown field(s) {', '.join(extra)}"
    if err.validator == "required":
        return f"{path}: {err.message}"
    return f"{path}: {err.message}"


def destructive_reasons(call: ToolCall, ctx: ToolContext, deletes_before: int) -> list[str]:
    """Why a call needs the person's yes (CONTRACT section 3): no rollback takes an email back,
    and deleting several events or a whole series is more than most requests mean."""
    reasons: list[str] = []
    args = call.input
    items = args.get("updates", []) if call.name == "bulk_update_calendar_events" else [args]
    for item in items:
        if item.get("notify_attendees"):
            reasons.append("sends email updates to the attendees")
        if call.name in ("update_calendar_event", "bulk_update_calendar_events",
                         "delete_calendar_event") and item.get("event_id"):
            event = ctx.backend.get_event(item.get("calendar_id") or ctx.calendar_id, item["event_id"])
            if event is not None and event.is_recurring_series:
                verb = "deletes" if call.name == "delete_calendar_event" else "changes"
                reasons.append(f"{verb} every occurrence of the recurring '{event.title}'")
    if call.name == "delete_calendar_event" and deletes_before >= 1:
        reasons.append(f"deletes more than one event in this request ({deletes_before + 1} so far)")
    return list(dict.fromkeys(reasons))


def _summary(call: ToolCall, ctx: ToolContext) -> str:
    args = call.input
    if call.name == "delete_calendar_event":
        event = ctx.backend.get_event(args.get("calendar_id") or ctx.calendar_id, args["event_id"])
        return "Delete " + (compact_row(event, ctx.timezone) if event else args["event_id"])
    if call.name == "bulk_update_calendar_events":
        return f"Change {len(args.get('updates', []))} events"
    return f"{call.name} {json.dumps(args)[:200]}"


class ToolRegistry:
    """Runs tool calls for one turn against one context."""

    def __init__(self, ctx: ToolContext) -> None:
        self.ctx = ctx

    def run_batch(self, calls: list[ToolCall]) -> list[ToolResult]:
        """Run the calls of one model response in order. Several deletes in one response are
        put to the person once, together, rather than one surprise at a time."""
        deletes = [c for c in calls if c.name == "delete_calendar_event"
                   and validation_error(c.name, c.input) is None]
        granted: set[str] = set()
        if len(deletes) + self.ctx.deleted_in_turn > 1:
            summary = "\n".join(_summary(c, self.ctx) for c in deletes)
            ok = self.ctx.confirm(Confirmation("delete_calendar_event", summary,
                                               (f"deletes {len(deletes) + self.ctx.deleted_in_turn} events",)))
            if ok:
                granted = {c.id for c in deletes}
            else:
                for c in deletes:
                    c.result = ToolResult.error("the person did not confirm deleting these events; "
                                                "nothing was deleted")
        results = []
        for call in calls:
            if call.result is None:
                call.result = self.run(call, pre_granted=call.id in granted)
            results.append(call.result)
        return results

    def run(self, call: ToolCall, pre_granted: bool = False) -> ToolResult:
        problem = validation_error(call.name, call.input)
        if problem:
            call.result = ToolResult.error(problem)
            return call.result
        if not pre_granted:
            reasons = destructive_reasons(call, self.ctx, self.ctx.deleted_in_turn)
            if reasons and not self.ctx.confirm(Confirmation(call.name, _summary(call, self.ctx),
                                                             tuple(reasons))):
                call.result = ToolResult.error("the person did not confirm this change ("
                                               + "; ".join(reasons) + "); nothing was written")
                return call.result
        journal = self.ctx.journal
        mark = journal.last_entry_id() if journal is not None and is_write(call.name) else 0
        try:
            call.result = HANDLERS[call.name](self.ctx, call.input)
        except EventFieldError as exc:
            call.result = ToolResult.error(f"{exc.field}: {exc.message}; nothing was written")
        except (CalendarError, GeocoderError) as exc:
            call.result = ToolResult.error(f"{exc}; nothing was written" if is_write(call.name)
                                           else str(exc))
        except OverflowError:
            call.result = self._unexpected(call, mark, "a date or duration is out of the range "
                                                       "a calendar can hold")
        except Exception as exc:  # noqa: BLE001 - any fault becomes a result; writes are undone
            call.result = self._unexpected(call, mark, f"an internal error stopped this call "
                                                       f"({type(exc).__name__}: {exc})")
        return call.result

    def _unexpected(self, call: ToolCall, mark: int, problem: str) -> ToolResult:
        """A handler failed in a way it did not foresee: undo whatever this call wrote (its own
        journal entries, the ones after `mark`) and say so in one line."""
        journal = self.ctx.journal
        if journal is None or not is_write(call.name):
            return ToolResult.error(problem)
        mine = journal.entries_after(self.ctx.turn_id, mark)
        if not mine:
            return ToolResult.error(f"{problem}; nothing was written")
        undo = journal.rollback_entries(self.ctx.turn_id, mine)
        if undo.complete and not undo.conflicts:
            return ToolResult.error(f"{problem}; what it had written was undone")
        return ToolResult.error(f"{problem}; undoing it: {undo.summary()}")
