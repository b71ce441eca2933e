"""One guarded attempt: the same object under the chat's turn, `ask`, `replay` and every MCP call.

Why one class: "no wrong change is left behind" is a sequence whose order is the guarantee. The
turn is opened in the journal before anything is written; the calls run through the registry
(each write journaled first); what they wrote is judged against the person's own words; what is
wrong is rolled back before anyone reads a reply, and so is what is unverified and destructive
(CONTRACT 5: then the person is asked); the turn is closed only when nothing of it is left to
undo; lessons come from what code proved. Written once per door, the copies drifted (the chat
and the MCP server had two). Each door now says only what is its own: where the calls come
from (a model loop, one MCP call), who is asked (a dialog, `--yes`, `confirmed: true`) and how
the outcome is worded.

    attempt = GuardedAttempt(services, guard, turn_id=..., now=..., confirm=...)
    attempt.open()
    attempt.run(calls)              # as often as the door has calls
    attempt.judge(message, reflection)
    attempt.settle()                # roll back / hold and ask / keep
    attempt.finish()                # commit, or leave the turn for recovery
    attempt.learn(message)
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from assistant.guard_case import build_guard_case, judged_calls
from assistant.report import Attempt, Hold
from assistant.services import Services
from assistant.session.words import doubt_words, hold_reasons, hold_summary
from reflection.case import GuardCase
from reflection.findings import Finding, Verdict
from reflection.guard import GUARD_VERSION, Guard, destructive_unverified
from reflection.lessons.store import LessonStore
from reflection.reflect import ReflectionCall
from tools.context import (
    Confirmation,
    ConfirmCallback,
    DateCalculator,
    ToolCall,
    ToolContext,
    ToolResult,
    grant_all,
)
from tools.journal.journal import RollbackReport
from tools.registry import ToolRegistry

Settled = Literal["unjudged", "stands", "rolled_back", "held", "confirmed", "unfinished"]
"""What settling an attempt came to: nothing was written to judge (`unjudged`); its writes stand
(`stands`: right, not verified, or wrong on a last attempt that is judged without rollback);
they were wrong and are undone (`rolled_back`); unverified and destructive, undone and not
confirmed (`held`) or confirmed and made again (`confirmed`); a rollback that could not finish
(`unfinished`: the turn waits for the next start)."""

Finished = Literal["committed", "rolled_back", "unfinished", "lost"]
"""How the journal turn was closed: its changes stand (`committed`), everything it wrote was
undone (`rolled_back`), left for the next start to finish undoing (`unfinished`), or taken by
start-up recovery in another process meanwhile (`lost`: nothing of it stands)."""

ReflectionSource = Callable[[], ReflectionCall | None]
"""Gives the reflection call for one judgement (None: no model). Asked only when a write is
judged and the guard may call a model: resolving the configured one loads its SDK."""


@dataclass(frozen=True)
class UnverifiedChange(Confirmation):
    """The question put to the person when a change that no rollback after the fact makes safe
    (a delete, a bulk change, an invitation) could not be verified: do it anyway? `summary`
    says what it does, `reasons` why it needs a yes and why it is not verified."""

    doubts: tuple[str, ...] = ()


class GuardedAttempt:
    """One attempt of one journal turn (a chat turn has one or two; an MCP call has one)."""

    def __init__(self, services: Services, guard: Guard, *, turn_id: str, now: Callable[[], datetime],
                 number: int = 1, calculate: DateCalculator | None = None,
                 confirm: ConfirmCallback = grant_all, lessons: LessonStore | None = None,
                 roll_back_errors: bool = True, confirmed: bool = False,
                 record: Attempt | None = None) -> None:
        """`roll_back_errors`: False for the chat's retry, which is judged without rollback (its
        verdict sets the confidence). `confirmed`: the person already said yes to exactly this
        change (MCP's `confirmed: true`), so an unverified destructive one stands, said to be
        unverified, instead of being held again."""
        self.services = services
        self.guard = guard
        self.turn_id = turn_id
        self.now = now
        self.calculate = calculate
        self.confirm = confirm
        self.lessons = lessons
        self.roll_back_errors = roll_back_errors
        self.confirmed = confirmed
        self.record = record if record is not None else Attempt(number)
        self.case: GuardCase | None = None
        self.settled: Settled | None = None
        self.registry = ToolRegistry(self._context(confirm), services.catalog, services.behaviours)

    @property
    def number(self) -> int:
        return self.record.number

    @property
    def verdict(self) -> Verdict | None:
        return self.record.verdict

    def _context(self, confirm: ConfirmCallback) -> ToolContext:
        s = self.services
        return ToolContext(backend=s.backend, journal=s.journal, calendar_id=s.calendar_id,
                           timezone=s.settings.timezone, locations=s.locations,
                           turn_id=self.turn_id, attempt=self.number, confirm=confirm,
                           calculate=self.calculate, now=self.now, calendars=s.calendars)

    # ------------------------------------------------------------------ open, run
    def open(self) -> None:
        """Record the turn as open and ours before anything is written, so a process killed
        mid-attempt leaves a turn the next start rolls back."""
        self.services.journal.open_turn(self.turn_id)

    def run(self, calls: list[ToolCall]) -> list[ToolResult]:
        """Run one batch of calls (one model response, or one MCP call) in order."""
        results = self.registry.run_batch(calls)
        self.record.calls.extend(calls)
        return results

    def include(self, calls: Sequence[ToolCall]) -> None:
        """Calls already run elsewhere that belong to this attempt, before its own (an MCP
        client's reads since its last guarded call: a date worked out, a place looked up)."""
        self.record.calls[:0] = list(calls)

    @property
    def wrote(self) -> bool:
        """Whether a write of this attempt succeeded (there is something to judge)."""
        return any(self.services.catalog.is_write(c.name) and c.result is not None and not c.result.is_error
                   for c in self.record.calls)

    # ------------------------------------------------------------------ judge
    def judge(self, message: str, reflection: ReflectionSource | None = None) -> Verdict | None:
        """The guard's verdict on what this attempt wrote, against the person's own `message`
        (None when no write succeeded: there is nothing to vouch for). The reflection model's
        time is kept out of `guard_ms`."""
        judged = judged_calls(self.record.calls, self.services.catalog)
        if not judged:
            return None
        started = time.perf_counter()
        self.case = build_guard_case(self.services, self.turn_id, self.number, self.record.calls,
                                     message, self.now(), judged)
        source = reflection() if reflection is not None and self.guard.mode != "symbolic" else None
        model_seconds = 0.0
        timed: ReflectionCall | None = None
        if source is not None:
            call = source

            def timed(system: str, prompt: str, schema: dict[str, Any]) -> str:
                nonlocal model_seconds
                t0 = time.perf_counter()
                try:
                    return call(system, prompt, schema)
                finally:
                    model_seconds += time.perf_counter() - t0

        run = self.guard.judge(self.case, reflect=timed)
        self.record.verdict = run.verdict
        self.record.guard_ms = (time.perf_counter() - started - model_seconds) * 1000
        return run.verdict

    # ------------------------------------------------------------------ settle
    def settle(self) -> Settled:
        """Act on the verdict: roll back an error; hold an unverified destructive change (undo
        it and ask the person; on yes, make it again); keep the rest."""
        verdict = self.record.verdict
        if verdict is None:
            self.settled = "unjudged"
        elif not verdict.valid:
            if self.roll_back_errors:
                undo = self._roll_back()
                self.settled = "rolled_back" if undo.complete else "unfinished"
            else:
                self.settled = "stands"
        elif verdict.unverified and not self.confirmed and self.case is not None and \
                (reasons := destructive_unverified(self.case)):
            self.settled = self._hold(reasons, verdict)
        else:
            self.settled = "stands"
        return self.settled

    def _roll_back(self) -> RollbackReport:
        """Undo this attempt's writes (the turn stays open for a retry or for its close)."""
        undo = self.services.journal.rollback(self.turn_id, attempt=self.number)
        self.record.rollback = undo
        return undo

    def _hold(self, reasons: list[str], verdict: Verdict) -> Settled:
        """CONTRACT 5: an unverified destructive change is rolled back and the person asked.
        Asked only once it is fully undone (an unfinished undo waits for the next start); a yes
        makes the same calls again with the guard skipped for that confirmed change, journaled
        under this attempt like any write."""
        undo = self._roll_back()
        hold = Hold(list(reasons), doubt_words(verdict.doubts), undo, list(self.record.calls))
        self.record.hold = hold
        if not undo.complete:
            return "unfinished"
        writes = [c for c in hold.calls if self.services.catalog.is_write(c.name) and c.result is not None
                  and not c.result.is_error]
        tz_name = self.services.settings.timezone
        question = UnverifiedChange(writes[0].name if writes else "", hold_summary(undo, tz_name),
                                    tuple(hold_reasons(hold.reasons, hold.doubts)),
                                    tuple(hold.doubts))
        if not self.confirm(question):
            return "held"
        hold.confirmed = True
        again = [ToolCall(f"{c.id}-confirmed", c.name, dict(c.input)) for c in writes]
        ToolRegistry(self._context(grant_all), self.services.catalog,
                     self.services.behaviours).run_batch(again)  # the person just said yes
        made = {id(c) for c in writes}
        self.record.calls = [c for c in hold.calls if id(c) not in made] + again
        self.record.rollback = None
        return "confirmed"

    # ------------------------------------------------------------------ finish
    @property
    def unfinished(self) -> bool:
        """This attempt's rollback could not finish: its turn must wait for recovery."""
        return self.record.unfinished

    def finish(self) -> Finished:
        """Close the journal turn. A rollback that could not finish leaves it `unfinished` (and
        released) for the next start, never committed as if its changes stood; a turn whose
        writes were all undone is closed as rolled back; otherwise it is committed."""
        journal = self.services.journal
        if self.unfinished:
            rollback = self.record.rollback
            why = rollback.summary() if rollback is not None else "the rollback did not finish"
            return "unfinished" if journal.keep_for_recovery(self.turn_id, why) else "lost"
        standing = journal.entries(self.turn_id)
        undone = journal.entries(self.turn_id, states=("rolled_back", "conflict"))
        if undone and not standing:
            return "rolled_back" if journal.close_turn(self.turn_id, "rolled_back") else "lost"
        return "committed" if journal.close_turn(self.turn_id, "committed") else "lost"

    def abort(self, problem: str) -> str:
        """Something broke mid-attempt (the model service, a backend, a bug): roll the whole turn
        back and say in one line what happened and what is left."""
        try:
            undo = self.services.journal.rollback(self.turn_id)
        except Exception as exc:  # noqa: BLE001 - the journal keeps the turn for the next start
            return (f"{problem} Its changes could not be undone now ({type(exc).__name__}); "
                    "they will be undone at the next start.")
        if self.record.rollback is None and (undo.restored or not undo.clean):
            self.record.rollback = undo
        if undo.clean:
            return f"{problem} Nothing was changed."
        return f"{problem} I could not put everything back: {undo.summary()}."

    # ------------------------------------------------------------------ learn
    def learn(self, message: str, corrected: Sequence[Finding] = ()) -> None:
        """Lessons from what code proved: the errors of an earlier attempt at the same request
        (`corrected`) once this one passes, and this attempt's warnings, never "reflection
        unavailable" (a fact about the service, not about the change). Best effort."""
        verdict = self.record.verdict
        if self.lessons is None or verdict is None:
            return
        findings = list(corrected) if verdict.valid else []
        findings += [f for f in verdict.warnings if f.type != "reflection_unavailable"]
        if not findings:
            return
        try:
            self.lessons.learn(self.turn_id, findings, guard_version=GUARD_VERSION, when=self.now(),
                               message=message)
        except Exception:  # noqa: BLE001 - learning is best effort; the change already stands
            return
