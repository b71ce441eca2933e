"""The guard: symbolic checks, then (when judgement is needed) the reflection model, one verdict.

Modes: `symbolic` never calls the model; `always` calls it for every guarded attempt; `auto` (the
default) skips it when the symbolic layer verified every guarded call in full. If the call fails
or its answer cannot be read, the symbolic verdict stands with a `reflection_unavailable` warning:
never a silent "valid".
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from reflection.case import GuardCase
from reflection.findings import GUARD_MODES, Confidence, Finding, GuardMode, Verdict, median_confidence
from reflection.reflect import (
    REFLECTION_SCHEMA,
    SYSTEM_PROMPT,
    ReflectionCall,
    ReflectionUnavailable,
    build_prompt,
    filter_findings,
    findings_from_answer,
    majority,
    parse_reflection,
    stated_confidence,
)
from reflection.symbolic import SymbolicResult, check_symbolic

GUARD_VERSION = "1"
_NOT_GIVEN: Any = object()


@dataclass
class GuardRun:
    """A verdict and what it cost: how many reflection calls, with which prompts."""

    verdict: Verdict
    symbolic: SymbolicResult
    prompts: list[str] = field(default_factory=list)
    answers: list[str | None] = field(default_factory=list)
    dropped: list[tuple[Finding, str]] = field(default_factory=list)


def is_high_stakes(case: GuardCase) -> bool:
    """Several deletes, or a change to a whole recurring series (read through each tool's spec)."""
    kinds = [case.catalog.guard_kind(c.name) for c in case.tool_calls]
    if kinds.count("delete") > 1:
        return True
    for call, kind in zip(case.tool_calls, kinds, strict=True):
        event = case.event(str(call.input.get("event_id") or ""))
        if event is not None and event.recurrence and kind in ("update", "delete"):
            return True
    return False


_EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")


def destructive_unverified(case: GuardCase) -> list[str]:
    """What in the attempt no rollback after the fact makes safe to leave unverified (CONTRACT 5:
    an unverified destructive change is rolled back and the person asked): a delete, a bulk
    change, an invitation to an address the person's message does not give. In words; empty
    when there is none."""
    said = {m.casefold() for m in _EMAIL_RE.findall(case.user_message)}
    reasons: list[str] = []
    for call in case.tool_calls:
        kind = case.catalog.guard_kind(call.name)
        if call.failed:
            continue
        if kind == "delete":
            reasons.append("it removes an event")
        elif kind == "bulk_update":
            reasons.append("it changes several events at once")
        if kind in ("create", "update", "bulk_update"):
            items = call.input.get("updates") if kind == "bulk_update" else [call.input]
            for item in items if isinstance(items, list) else []:
                invited = item.get("attendees") if isinstance(item, dict) else None
                before = case.event(str(item.get("event_id") or "")) if isinstance(item, dict) else None
                known = said | {a.casefold() for a in (before.attendees if before else ())}
                for address in invited if isinstance(invited, list) else []:
                    if str(address).casefold() not in known:
                        reasons.append("it invites an address your message did not give")
                        break
    return list(dict.fromkeys(reasons))


class Guard:
    def __init__(self, mode: GuardMode = "auto", reflect: ReflectionCall | None = None,
                 votes: int = 1) -> None:
        if mode not in GUARD_MODES:  # the type is not checked at run time; a caller may pass any str
            raise ValueError(f"unknown guard mode {mode!r}")
        self.mode: GuardMode = mode
        self.reflect = reflect
        self.votes = max(1, votes)

    def judge(self, case: GuardCase, replayed: Any = _NOT_GIVEN,
              reflect: ReflectionCall | None = None) -> GuardRun:
        """`replayed`: a recorded reflection answer to use instead of a live call (a string, or
        None for "the service was down"); always applied when given. `reflect` overrides the
        guard's own call for this judgement (the agent times and meters it per attempt)."""
        reflect = reflect or self.reflect
        symbolic = check_symbolic(case)
        doubts = list(dict.fromkeys(why for c in symbolic.calls.values() for why in c.unsure))
        verdict = Verdict(findings=list(symbolic.findings), facts=list(symbolic.facts),
                          llm_needed=symbolic.llm_needed, doubts=doubts)
        run = GuardRun(verdict, symbolic)
        if replayed is not _NOT_GIVEN:
            self._apply_answers(run, case, [replayed])
            return run
        wants_call = self.mode == "always" or (self.mode == "auto" and symbolic.llm_needed)
        if not wants_call or not symbolic.calls:
            return run
        if reflect is None:
            self._unavailable(run, "no reflection model is configured")
            return run
        prompt = build_prompt(case, symbolic)
        votes = self.votes if is_high_stakes(case) else 1
        answers: list[str | None] = []
        for _ in range(votes):
            run.prompts.append(prompt)
            try:
                answers.append(reflect(SYSTEM_PROMPT, prompt, REFLECTION_SCHEMA))
            except Exception as exc:  # noqa: BLE001 - any failure of the call means "unavailable"
                answers.append(None)
                run.answers.append(f"<failed: {exc}>")
        self._apply_answers(run, case, answers, prompt_built=prompt)
        return run

    def _apply_answers(self, run: GuardRun, case: GuardCase, answers: list[str | None],
                       prompt_built: str | None = None) -> None:
        parsed: list[list[Finding]] = []
        confidences: list[Confidence] = []
        for text in answers:
            try:
                answer = parse_reflection(text)
                parsed.append(findings_from_answer(answer))
                conf = stated_confidence(answer)
                if conf:
                    confidences.append(conf)
            except ReflectionUnavailable:
                continue
            run.answers.append(text)
        run.verdict.llm_used = bool(parsed)
        if not parsed:
            self._unavailable(run, "the reflection answer could not be had or read")
            return
        combined = majority(parsed)
        outcome = filter_findings(combined, case, run.symbolic)
        run.dropped = outcome.dropped
        symbolic_keys = {(f.type, f.call_index, f.issue) for f in run.verdict.findings}
        proven = {f.call_index for f in run.verdict.findings if f.is_error}
        for finding in outcome.kept:
            if finding.is_error and finding.call_index in proven and finding.call_index is not None:
                # one finding per problem: code already proved this call wrong
                run.dropped.append((finding, "the call already has an error computed by code"))
                continue
            if (finding.type, finding.call_index, finding.issue) not in symbolic_keys:
                run.verdict.findings.append(finding)
        if confidences:
            run.verdict.llm_confidence = median_confidence(confidences)

    @staticmethod
    def _unavailable(run: GuardRun, why: str) -> None:
        run.verdict.findings.append(Finding(
            "reflection_unavailable", "warning",
            f"{why}; only the checks computed in code were applied",
            "double-check the change yourself", "symbolic"))
