"""The tool registry: validate the input against the schema the model saw and the tool's own
check, only then ask before destructive calls, run the one handler, and turn every failure into an
`is_error` result that names the field. What each tool is and does is its spec (`tools.specs`).

Validation uses the very JSON schemas sent to the model (through `jsonschema`), so what the model
is told and what is enforced cannot drift apart.
"""
from __future__ import annotations

import re
from typing import Any

from tools.backend import CalendarError
from tools.context import Confirmation, ToolCall, ToolContext, ToolResult
from tools.events import EventFieldError
from tools.locations import GeocoderError
from tools.service_errors import is_database_failure, service_error
from tools.specs import ToolSpec, all_specs, is_guarded, is_write, spec_for

__all__ = ["ToolRegistry", "destructive_reasons", "is_guarded", "is_write", "tool_definitions",
           "validation_error"]


def tool_definitions() -> list[dict[str, Any]]:
    """The definitions the model sees, as `calendar-assistant tools` prints them."""
    return [spec.definition() for spec in all_specs()]


def validation_error(name: str, args: Any) -> str | None:
    """The first schema violation, phrased with the field path, or None."""
    spec = spec_for(name)
    if spec is None:
        return f"unknown tool {name!r}; tools are {', '.join(all_specs().names())}"
    if not isinstance(args, dict):
        return "the input must be a JSON object"
    errors = sorted(spec.validator.iter_errors(args), key=lambda e: list(e.absolute_path))
    if not errors:
        return _unstorable_field(args)
    err = errors[0]
    path = ".".join(str(p) for p in err.absolute_path) or "input"
    if err.validator == "additionalProperties":
        extra = sorted(set(err.instance) - set(err.schema.get("properties", {})))
        return f"{path}: unknown field(s) {', '.join(extra)}"
    return f"{path}: {err.message}"


_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def _unstorable(text: str) -> str | None:
    """Why no calendar can store `text`, or None: a NUL (PostgreSQL refuses it outright) or a
    lone surrogate (half of a UTF-16 pair: it has no UTF-8 form, so every store and every wire
    format fails on it)."""
    if "\x00" in text:
        return "contains a NUL character"
    if _SURROGATE_RE.search(text):
        return "contains a broken character (half of a UTF-16 pair)"
    return None


def _unstorable_field(value: Any, path: str = "input") -> str | None:
    """The first text in the input that no calendar stores, named by its field, so the call is
    refused whole instead of failing half-way in a backend (a bulk update half written)."""
    if isinstance(value, str):
        why = _unstorable(value)
        return f"{path}: {why}" if why else None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _unstorable_field(item, str(key) if path == "input" else f"{path}.{key}")
        if found:
            return found
    return None


def destructive_reasons(call: ToolCall, ctx: ToolContext) -> list[str]:
    """Why a call needs the person's yes (CONTRACT section 3), as its spec says: no rollback
    takes an email back, and deleting several events or a whole series is more than most
    requests mean."""
    spec = spec_for(call.name)
    return spec.destructive(call, ctx) if spec is not None else []


def _is_delete(spec: ToolSpec | None) -> bool:
    return spec is not None and spec.guard_kind == "delete"


class ToolRegistry:
    """Runs tool calls for one turn against one context."""

    def __init__(self, ctx: ToolContext) -> None:
        self.ctx = ctx

    def run_batch(self, calls: list[ToolCall]) -> list[ToolResult]:
        """Run the calls of one model response in order. Several deletes in one response are
        put to the person once, together, rather than one surprise at a time; a delete that is
        invalid is not among them (it is refused on its own, without asking)."""
        deletes = [c for c in calls if _is_delete(spec_for(c.name)) and self._valid(c)]
        granted: set[str] = set()
        if deletes and len(deletes) + self.ctx.deleted_in_turn > 1:
            summary = "\n".join(self._spec(c).summary(c, self.ctx) for c in deletes)
            ok = self.ctx.confirm(Confirmation(deletes[0].name, summary,
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

    @staticmethod
    def _spec(call: ToolCall) -> ToolSpec:
        spec = spec_for(call.name)
        if spec is None:
            raise KeyError(call.name)
        return spec

    def _valid(self, call: ToolCall) -> bool:
        """The call passes its schema and its spec's full check (nothing is written)."""
        if validation_error(call.name, call.input) is not None:
            return False
        try:
            self._spec(call).check(self.ctx, call.input)
        except Exception:  # noqa: BLE001 - any problem is reported when the call runs alone
            return False
        return True

    def _refusal(self, call: ToolCall, spec: ToolSpec) -> ToolResult | None:
        """Ask for a yes when the spec finds the call destructive; the error if refused."""
        reasons = spec.destructive(call, self.ctx)
        if not reasons or self.ctx.confirm(Confirmation(call.name, spec.summary(call, self.ctx),
                                                        tuple(reasons))):
            return None
        return ToolResult.error("the person did not confirm this change ("
                                + "; ".join(reasons) + "); nothing was written")

    def run(self, call: ToolCall, pre_granted: bool = False) -> ToolResult:
        """Validate (schema, then the spec's full check), then confirm, then run: an invalid
        call is refused without the person being asked about it."""
        problem = validation_error(call.name, call.input)
        if problem:
            call.result = ToolResult.error(problem)
            return call.result
        spec = self._spec(call)
        journal = self.ctx.journal
        mark = journal.last_entry_id() if journal is not None and spec.writes else 0
        try:
            spec.check(self.ctx, call.input)
            refused = None if pre_granted else self._refusal(call, spec)
            call.result = refused if refused is not None else spec.handler(self.ctx, call.input)
        except EventFieldError as exc:
            call.result = ToolResult.error(f"{exc.field}: {exc.message}; nothing was written")
        except (CalendarError, GeocoderError) as exc:
            call.result = ToolResult.error(f"{exc}; nothing was written" if spec.writes
                                           else str(exc))
        except OverflowError:
            call.result = self._unexpected(call, mark, "a date or duration is out of the range "
                                                       "a calendar can hold")
        except Exception as exc:  # noqa: BLE001 - any fault becomes a result; writes are undone
            if is_database_failure(exc):  # the store's server failed, not this call
                call.result = self._unexpected(call, mark, str(service_error("database", exc)))
            else:
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
