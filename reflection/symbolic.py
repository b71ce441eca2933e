"""The symbolic layer: every check code can settle, with no model call.

It reads the request first (`read_request`: which events each part names, what happens to each,
which phrases say where), then runs the named checks of `reflection.checks` over the attempt's
writes. An error is raised only for a contradiction the code can prove (CONTRACT section 5,
"Certainty"); where it cannot bind a phrase or an event to a call with certainty, the call is left
unverified and `llm_needed` is true, so the reflection model decides in `auto` mode.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from reflection.case import GuardCall, GuardCase
from reflection.checks import CHECKS, Check
from reflection.checks.allowed import Allowed, describe, slots_for
from reflection.checks.context import CallCheck, CheckContext, WriteCall
from reflection.dates.resolver import Resolution, resolve
from reflection.findings import Fact, Finding
from reflection.reading.calendars import calendar_book
from reflection.reading.corrections import without_withdrawn
from reflection.reading.request import RequestReading, read_request
from reflection.wording import WEEKDAYS, describe_day
from tools.calendar.occurrences import series_of

log = logging.getLogger(__name__)

__all__ = ["WEEKDAYS", "SymbolicResult", "CallCheck", "check_symbolic"]


@dataclass
class SymbolicResult:
    findings: list[Finding] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    calls: dict[int, CallCheck] = field(default_factory=dict)
    resolution: Resolution | None = None
    reading: RequestReading | None = None
    ids_source: Callable[[], Container[str]] | None = field(default=None, repr=False, compare=False)

    @cached_property
    def existing_ids(self) -> Container[str]:
        """The ids of the window's events, gathered on the first ask: only a reflection answer's
        findings ask (a case read in part, issue 25, asks its window for each id)."""
        return self.ids_source() if self.ids_source is not None else set()

    @property
    def has_error(self) -> bool:
        return any(f.is_error for f in self.findings)

    @property
    def llm_needed(self) -> bool:
        return self.has_error or any(not c.verified for c in self.calls.values())

    def dates_verified(self, index: int | None) -> bool:
        """Whether the dates of a call (or, with no index, of every dated call) were verified. A
        call with no start (an end-only change, an occurrence delete) is verified when every value
        it writes is (CONTRACT 5)."""
        if index is not None and index in self.calls:
            c = self.calls[index]
            return (c.dates_checked and c.dates_ok) or (not c.writes_start and c.verified)
        dated = [c for c in self.calls.values() if c.dates_checked]
        undated = [c for c in self.calls.values() if not c.dates_checked]
        if not dated:
            return bool(undated) and all(not c.writes_start and c.verified for c in undated)
        return all(c.dates_ok for c in dated) and all(c.verified for c in undated if not c.writes_start)

    def is_named(self, event_id: str) -> bool:
        """The message names this event (or its series) and no other for that part."""
        if self.reading is None:
            return False
        key = series_of(event_id) or event_id
        return self.reading.certainly_names(key) or self.reading.certainly_names(event_id)


def _writes(case: GuardCase) -> list[WriteCall]:
    """Every write of the attempt, read through its tool's spec; a bulk update's items count one
    by one, each as an update with its own result."""
    out: list[WriteCall] = []
    for index, call in enumerate(case.tool_calls):
        spec = case.catalog.get(call.name)
        kind = spec.guard_kind if spec is not None else None
        if kind == "bulk_update" and spec is not None:
            results = call.result.get("events") if isinstance(call.result, dict) else None
            failed = call.result if isinstance(call.result, dict) and "error" in call.result else None
            for k, item in enumerate(spec.items(call.input)):
                sub = results[k] if isinstance(results, list) and k < len(results) else failed
                out.append(WriteCall(index, GuardCall(call.name, item, sub), k, "update"))
        elif kind in ("create", "update", "delete"):
            out.append(WriteCall(index, call, None, kind))
    return out


def _reading_facts(ctx: CheckContext) -> None:
    for phrase in ctx.reading.phrases:
        expr = phrase.expression
        if expr is not None and expr.contradiction:
            ctx.facts.append(Fact("reading", expr.span, f"'{expr.span}' is impossible: {expr.contradiction}"))
            continue
        if expr is None or not expr.candidates:
            continue
        allowed = Allowed()
        slots_for(phrase, None, ctx.tz, allowed, False)
        ctx.facts.append(Fact("reading", expr.span, f"'{expr.span}' means {describe(allowed, ctx.tz)}"
                              + (" (ambiguous)" if expr.ambiguous else ""), {"relative": expr.relative}))
    now = ctx.case.now.astimezone(ctx.tz)
    ctx.facts.append(Fact("relation", "now", f"now is {describe_day(ctx.today)} {now:%H:%M} in "
                          f"{ctx.case.timezone}"))


def _writes_start(call: GuardCall) -> bool:
    updates = call.input.get("updates")
    items: list[object] = list(updates) if isinstance(updates, list) else [call.input]
    return any(isinstance(item, dict) and "start" in item for item in items)


def _guarded_calls(case: GuardCase) -> dict[int, CallCheck]:
    """A blank record for each guarded call of the case, by its position."""
    return {i: CallCheck(i, writes_start=_writes_start(c)) for i, c in enumerate(case.tool_calls)
            if case.catalog.is_guarded(c.name)}


def check_symbolic(case: GuardCase, checks: Sequence[tuple[str, Check]] = CHECKS) -> SymbolicResult:
    """The checks over one case. A fault inside a check never decides a verdict and never stops a
    turn: every guarded call is then left unverified (the reflection model decides, or the person
    is told), with the fault logged for us (CONTRACT 5: code unsure says so)."""
    try:
        return _check_symbolic(case, checks)
    except Exception:  # noqa: BLE001 - a checker bug must not become a verdict
        log.exception("a symbolic check failed on this case; the calls are left unverified")
        calls = _guarded_calls(case)
        for call in calls.values():
            call.unsure.append("the checks could not finish")
        return SymbolicResult(calls=calls)


def _check_symbolic(case: GuardCase, checks: Sequence[tuple[str, Check]]) -> SymbolicResult:
    said = without_withdrawn(case.user_message, lambda text: resolve(text, case.now, case.timezone))
    resolution = resolve(said, case.now, case.timezone)
    book = calendar_book(case)
    reading = read_request(said, resolution, case.calendar, book.owner_words(), book.named_in(said))
    calls = _guarded_calls(case)
    ctx = CheckContext(case=case, resolution=resolution, reading=reading, writes=_writes(case), calls=calls,
                       book=book)
    _reading_facts(ctx)
    for name, check in checks:
        ctx.check_name = name
        check(ctx)
    for write in ctx.writes:
        if write.failed:
            ctx.unsure(write, "the call failed")
    return SymbolicResult(findings=_one_per_problem(ctx.findings), facts=ctx.facts, calls=calls,
                          resolution=resolution, reading=reading,
                          ids_source=lambda: ctx.existing_ids)


def _one_per_problem(findings: list[Finding]) -> list[Finding]:
    """One error per call and type (the first, most specific check wins), no repeated warnings."""
    seen: set[tuple[int | None, str, str]] = set()
    out: list[Finding] = []
    for finding in findings:
        key = (finding.call_index, finding.type, "" if finding.is_error else finding.issue)
        if key in seen:
            continue
        seen.add(key)
        out.append(finding)
    return out
