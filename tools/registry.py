"""The tool registry: validate the input against the schema the model saw and the tool's own
check, only then ask before destructive calls, run the one handler, and turn every failure into an
`is_error` result that names the field. What each tool is, as the model and the guard see it, is
its spec (`tools.specs`); what runs for it is its behaviour, bound here by name (`BEHAVIOURS`).
A registry is handed the catalog and the behaviours it runs (the app's by default), so a test
runs one more tool by handing both, with nothing global to patch.

Validation uses the very JSON schemas sent to the model (through `jsonschema`), so what the model
is told and what is enforced cannot drift apart.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

import fastjsonschema
from jsonschema import Draft202012Validator, FormatChecker  # type: ignore[import-untyped]

from tools import calendars_tool, handlers, series_scope
from tools import confirmations as confirm
from tools.backends.base import CalendarError
from tools.backends.errors import is_database_failure, service_error
from tools.calendar.events import EventCard, EventFieldError
from tools.context import Confirmation, ToolCall, ToolContext, ToolResult
from tools.free_time_tool import find_free_time
from tools.locations import GeocoderError
from tools.specs import SpecRegistry, ToolSpec, all_specs

__all__ = ["BEHAVIOURS", "Behaviours", "ToolBehaviour", "ToolRegistry", "destructive_reasons",
           "tool_definitions", "validation_error"]

Handler = Callable[[ToolContext, dict[str, Any]], ToolResult]
Check = Callable[[ToolContext, dict[str, Any]], None]


def _nothing_to_check(ctx: ToolContext, args: dict[str, Any]) -> None:
    """A read has nothing to check beyond its schema before it runs."""


@dataclass(frozen=True)
class ToolBehaviour:
    """What runs for one tool of the catalog. `check` validates an input fully without writing
    (raising `EventFieldError` or `CalendarError`); the registry runs it before asking for a yes,
    so nothing invalid is ever put to the person. `destructive` says why a call needs that yes
    (none: it needs none) and `summary` the words it is asked in (`tools.confirmations`)."""

    handler: Handler
    check: Check = _nothing_to_check
    destructive: confirm.Reasons = confirm.no_reasons
    summary: confirm.Summary = confirm.plain_summary


Behaviours = Mapping[str, ToolBehaviour]
"""What runs for each tool, by the name of its spec."""

BEHAVIOURS: Behaviours = MappingProxyType({
    "list_calendars": ToolBehaviour(calendars_tool.list_calendars),
    "list_events": ToolBehaviour(calendars_tool.list_events),
    "calculate_datetime": ToolBehaviour(handlers.calculate_datetime),
    "create_calendar_event": ToolBehaviour(
        handlers.create_calendar_event, check=handlers.check_create,
        destructive=confirm.create_reasons, summary=confirm.create_summary),
    "update_calendar_event": ToolBehaviour(
        series_scope.update_calendar_event, check=series_scope.check_update,
        destructive=confirm.update_reasons, summary=confirm.update_summary),
    "bulk_update_calendar_events": ToolBehaviour(
        handlers.bulk_update_calendar_events, check=handlers.check_bulk_update,
        destructive=confirm.bulk_update_reasons, summary=confirm.bulk_update_summary),
    "delete_calendar_event": ToolBehaviour(
        series_scope.delete_calendar_event, check=series_scope.check_delete,
        destructive=confirm.delete_reasons, summary=confirm.delete_summary),
    "get_location_info": ToolBehaviour(handlers.get_location_info),
    "get_location_suggestions": ToolBehaviour(handlers.get_location_suggestions),
    "find_free_time": ToolBehaviour(find_free_time),
})
"""Each tool's code, by the name of its spec: the one place a tool name meets what it runs.
Read-only: a registry with one more tool is handed `{**BEHAVIOURS, name: behaviour}`."""


# The formats the schemas name are enforced, not just described: the registry validates with
# this checker. Its "email" is stricter than jsonschema's default (which only wants an "@"):
# one "@", a dot in the domain, no spaces, commas or angle brackets (not "Sam <sam@x.com>").
FORMAT_CHECKER = FormatChecker(formats=())
_EMAIL_RE = re.compile(r"^[^@\s<>,;\"]+@[^@\s<>,;\"]+\.[^@\s<>,;\".]+$")


def _is_email(value: object) -> bool:
    return not isinstance(value, str) or bool(_EMAIL_RE.match(value))


FORMAT_CHECKER.checks("email")(_is_email)

_VALIDATORS: dict[int, tuple[ToolSpec, Draft202012Validator]] = {}
_ACCEPTORS: dict[int, tuple[ToolSpec, Callable[[Any], Any] | None]] = {}


def _validator(spec: ToolSpec) -> Draft202012Validator:
    """The schema the model saw, enforced with the same formats (made once per spec)."""
    known = _VALIDATORS.get(id(spec))
    if known is None or known[0] is not spec:
        known = _VALIDATORS[id(spec)] = (spec, Draft202012Validator(spec.input_schema,
                                                                    format_checker=FORMAT_CHECKER))
    return known[1]


def _acceptor(spec: ToolSpec) -> Callable[[Any], Any] | None:
    """The same schema compiled to Python by fastjsonschema (once per spec), used only to say
    yes quickly: jsonschema's interpreter spent 1.1 ms on a 50-item bulk update, as much as the
    database write, and the compiled check takes 0.04 ms. A no, or a schema it cannot compile,
    goes to jsonschema, so the verdict on an invalid call and its wording are jsonschema's.
    Never fills in defaults: a validator must not change the call it judges."""
    known = _ACCEPTORS.get(id(spec))
    if known is None or known[0] is not spec:
        try:
            compiled: Callable[[Any], Any] | None = fastjsonschema.compile(
                spec.input_schema, formats={"email": _is_email}, use_default=False)
        except fastjsonschema.JsonSchemaDefinitionException:
            compiled = None
        known = _ACCEPTORS[id(spec)] = (spec, compiled)
    return known[1]


def _accepted(spec: ToolSpec, args: dict[str, Any]) -> bool:
    """Whether the compiled schema accepts `args` (False: ask jsonschema why, or whether)."""
    accept = _acceptor(spec)
    if accept is None:
        return False
    try:
        accept(args)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def tool_definitions(catalog: SpecRegistry | None = None) -> list[dict[str, Any]]:
    """The definitions the model sees (of the app's catalog unless another is given), as
    `calendar-assistant tools` prints them."""
    return (catalog or all_specs()).definitions()


def validation_error(name: str, args: Any, catalog: SpecRegistry | None = None) -> str | None:
    """The first schema violation, phrased with the field path, or None."""
    specs = catalog or all_specs()
    spec = specs.get(name)
    if spec is None:
        return f"unknown tool {name!r}; tools are {', '.join(specs.names())}"
    if not isinstance(args, dict):
        return "the input must be a JSON object"
    if _accepted(spec, args):
        return _unstorable_field(args)
    errors = sorted(_validator(spec).iter_errors(args), key=lambda e: list(e.absolute_path))
    if not errors:
        return _unstorable_field(args)
    err = errors[0]
    path = ".".join(str(p) for p in err.absolute_path) or "input"
    if err.validator == "additionalProperties":
        extra = sorted(set(err.instance) - set(err.schema.get("properties", {})))
        return f"{path}: unknown {'field' if len(extra) == 1 else 'fields'} {', '.join(extra)}"
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


def destructive_reasons(call: ToolCall, ctx: ToolContext,
                        behaviours: Behaviours = BEHAVIOURS) -> list[str]:
    """Why a call needs the person's yes (CONTRACT section 3), as its behaviour says: no
    rollback takes an email back, and deleting several events or a whole series is more than
    most requests mean."""
    behaviour = behaviours.get(call.name)
    return behaviour.destructive(call, ctx) if behaviour is not None else []


def _is_delete(spec: ToolSpec | None) -> bool:
    return spec is not None and spec.guard_kind == "delete"


class ToolRegistry:
    """Runs tool calls for one turn against one context, with the tools of `catalog` and the
    code of `behaviours` (the app's when not given)."""

    def __init__(self, ctx: ToolContext, catalog: SpecRegistry | None = None,
                 behaviours: Behaviours | None = None) -> None:
        self.ctx = ctx
        self.catalog = catalog or all_specs()
        self.behaviours = BEHAVIOURS if behaviours is None else behaviours

    def run_batch(self, calls: list[ToolCall]) -> list[ToolResult]:
        """Run the calls of one model response in order. Several deletes in one response are
        put to the person once, together, rather than one surprise at a time; a delete that is
        invalid is not among them (it is refused on its own, without asking)."""
        deletes = [c for c in calls if _is_delete(self.catalog.get(c.name)) and self._valid(c)]
        granted: set[str] = set()
        if deletes and len(deletes) + self.ctx.deleted_in_turn > 1:
            summary = "\n".join(self._behaviour(c).summary(c, self.ctx) for c in deletes)
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

    def _spec(self, call: ToolCall) -> ToolSpec:
        spec = self.catalog.get(call.name)
        if spec is None:
            raise KeyError(call.name)
        return spec

    def _behaviour(self, call: ToolCall) -> ToolBehaviour:
        behaviour = self.behaviours.get(call.name)
        if behaviour is None:
            raise KeyError(call.name)
        return behaviour

    def _valid(self, call: ToolCall) -> bool:
        """The call passes its schema and its spec's full check (nothing is written)."""
        if validation_error(call.name, call.input, self.catalog) is not None:
            return False
        try:
            self._behaviour(call).check(self.ctx, call.input)
        except Exception:  # noqa: BLE001 - any problem is reported when the call runs alone
            return False
        return True

    def _refusal(self, call: ToolCall, behaviour: ToolBehaviour) -> ToolResult | None:
        """Ask for a yes when the tool finds the call destructive; the error if refused."""
        reasons = behaviour.destructive(call, self.ctx)
        if not reasons or self.ctx.confirm(Confirmation(call.name, behaviour.summary(call, self.ctx),
                                                        tuple(reasons))):
            return None
        return ToolResult.error("the person did not confirm this change ("
                                + "; ".join(reasons) + "); nothing was written")

    def run(self, call: ToolCall, pre_granted: bool = False) -> ToolResult:
        """Validate (schema, then the spec's full check), then confirm, then run: an invalid
        call is refused without the person being asked about it."""
        problem = validation_error(call.name, call.input, self.catalog)
        if problem:
            call.result = ToolResult.error(problem)
            return call.result
        spec = self._spec(call)
        behaviour = self._behaviour(call)
        journal = self.ctx.journal
        mark = journal.last_entry_id() if journal is not None and spec.writes else 0
        self.ctx.call_memo.clear()
        try:
            behaviour.check(self.ctx, call.input)
            refused = None if pre_granted else self._refusal(call, behaviour)
            call.result = refused if refused is not None else behaviour.handler(self.ctx, call.input)
            call.result.cards = self._named(call.result.cards)
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
        finally:
            self.ctx.call_memo.clear()
        return call.result

    def _named(self, cards: list[EventCard]) -> list[EventCard]:
        """Each card with its calendar's short name when the person reads several calendars
        (several accounts: "Leo", "Family (mom)"), so a change says whose event it is."""
        choice = self.ctx.calendars
        if not choice.ids or len(choice.ids) < 2:
            return cards
        return [replace(card, calendar=choice.name(card.event.calendar_id)) for card in cards]

    def _unexpected(self, call: ToolCall, mark: int, problem: str) -> ToolResult:
        """A handler failed in a way it did not foresee: undo whatever this call wrote (its own
        journal entries, the ones after `mark`) and say so in one line."""
        journal = self.ctx.journal
        if journal is None or not self.catalog.is_write(call.name):
            return ToolResult.error(problem)
        mine = journal.entries_after(self.ctx.turn_id, mark)
        if not mine:
            return ToolResult.error(f"{problem}; nothing was written")
        undo = journal.rollback_entries(self.ctx.turn_id, mine)
        if undo.complete and not undo.conflicts:
            return ToolResult.error(f"{problem}; what it had written was undone")
        return ToolResult.error(f"{problem}; undoing it: {undo.summary()}")
