"""The guarded turn: tool loop, guard, exact rollback, one retry, confidence.

A turn runs an attempt (the model calls tools until it stops asking, bounded by rounds and a token
budget), then the guard judges the attempt's guarded calls against the person's own message. On
an error in the first attempt its writes are rolled back through the journal, the whole failed
exchange is left out of the history, a correction names what was wrong, and the model tries once
more. The second attempt is judged without rollback; its verdict sets the confidence.
"""
from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any

from assistant.guard_case import build_guard_case, judged_calls
from assistant.history import History
from assistant.model_client import ModelClient, ModelError
from assistant.prompts import correction_message, system_prompt
from assistant.records import TurnRecorder
from assistant.report import Attempt, NullObserver, TurnObserver, TurnReport
from assistant.services import Services
from reflection.case import GuardCase
from reflection.guard import GUARD_VERSION, Guard
from reflection.lessons.store import LessonStore
from tools.calendar.events import Event, zone
from tools.context import ConfirmCallback, DateCalculator, ToolCall, ToolContext, grant_all
from tools.journal.journal import RollbackReport
from tools.registry import ToolRegistry, tool_definitions
from tools.specs import is_write, status_line


class Agent:
    def __init__(self, services: Services, model: ModelClient, *, history: History, guard: Guard,
                 recorder: TurnRecorder | None = None, confirm: ConfirmCallback = grant_all,
                 now: Callable[[], datetime] | None = None, calculate: DateCalculator | None = None,
                 lessons: LessonStore | None = None) -> None:
        self.services = services
        self.settings = services.settings
        self.model = model
        self.history = history
        self.guard = guard
        self.recorder = recorder
        self.confirm = confirm
        self._now = now
        self.calculate = calculate
        self.lessons = lessons
        self.tools = tool_definitions()
        self.current_attempt = 0

    # ------------------------------------------------------------------ helpers
    def now(self) -> datetime:
        tz = zone(self.settings.timezone)
        return self._now().astimezone(tz) if self._now else datetime.now(tz)

    def agenda(self, days: int = 7) -> list[Event]:
        return self.services.agenda(self.now(), days)

    def history_for_display(self) -> list[tuple[str, str]]:
        return self.history.for_display()

    def undo_last(self) -> RollbackReport | None:
        return self.services.journal.undo_last()

    # ------------------------------------------------------------------ the turn
    def run_turn(self, message: str, observer: TurnObserver | None = None) -> TurnReport:
        observer = observer or NullObserver()
        started = time.perf_counter()
        turn_id = uuid.uuid4().hex[:16]
        report = TurnReport(turn_id, message)
        journal = self.services.journal
        journal.open_turn(turn_id)
        person = {"role": "user", "content": message}
        final_exchange: list[dict[str, Any]] = []
        try:
            observations = self._surface_lessons(message, report)
            system = system_prompt(self.settings, self.now(), self.services, observations)
            base = self.history.context(self.settings.context_token_budget)
            first, exchange = self._attempt(1, system, base + [person], observer, report)
            final_exchange = exchange
            self._judge(turn_id, first, message, observer)
            if first.verdict is not None and not first.verdict.valid:
                observer.on_draft_discarded()
                observer.on_status("correcting…")
                first.rollback = journal.rollback(turn_id, attempt=1)
                correction = {"role": "user", "content": correction_message(first, message)}
                second, exchange = self._attempt(2, system, base + [person, correction], observer, report)
                final_exchange = exchange
                self._judge(turn_id, second, message, observer)
        except ModelError as exc:
            # An attempt cut off by the model service was never judged: take its writes back.
            self._abort(report, str(exc))
            final_exchange = []
        except Exception as exc:  # noqa: BLE001 - whatever broke, no write is left unjudged
            self._abort(report, f"Something went wrong ({type(exc).__name__}: {exc}), so this "
                                "request was stopped.")
            final_exchange = []
        if report.error is None and not journal.close_turn(turn_id, "committed"):
            report.error = ("Another copy of the assistant took this request for abandoned and undid "
                            "its changes; please check the calendar and ask again.")
            final_exchange = []
        report.reply = self._reply(report)
        if report.error is None:
            self.history.append([person] + final_exchange, turn_id)
        report.latency_ms = (time.perf_counter() - started) * 1000
        if self.recorder is not None:
            self.recorder.record(report)
        self._learn(report)
        return report

    def _abort(self, report: TurnReport, problem: str) -> None:
        """Roll the whole turn back and say in one line what happened and what is left."""
        try:
            undo = self.services.journal.rollback(report.turn_id)
        except Exception as exc:  # noqa: BLE001 - the journal keeps the turn for the next start
            report.error = (f"{problem} Its changes could not be undone now ({type(exc).__name__}); "
                            "they will be undone at the next start.")
            return
        if undo.clean:
            report.error = f"{problem} Nothing was changed."
        else:
            report.error = f"{problem} I could not put everything back: {undo.summary()}."
        if report.attempts and report.attempts[-1].rollback is None and (undo.restored or not undo.clean):
            report.attempts[-1].rollback = undo

    def _attempt(self, number: int, system: list[str], messages: list[dict[str, Any]],
                 observer: TurnObserver, report: TurnReport) -> tuple[Attempt, list[dict[str, Any]]]:
        attempt = Attempt(number)
        spent_before = sum(a.main_usage.total for a in report.attempts)
        report.attempts.append(attempt)  # recorded even if the model service fails mid-attempt
        self.current_attempt = number
        ctx = ToolContext(backend=self.services.backend, journal=self.services.journal,
                          calendar_id=self.services.calendar_id, timezone=self.settings.timezone,
                          locations=self.services.locations, turn_id=report.turn_id, attempt=number,
                          confirm=self.confirm, calculate=self.calculate, now=self.now)
        registry = ToolRegistry(ctx)
        convo = list(messages)
        exchange: list[dict[str, Any]] = []
        wrote = False
        for round_number in range(self.settings.max_rounds + 1):
            if round_number == self.settings.max_rounds:
                attempt.stopped = f"stopped after {self.settings.max_rounds} rounds of tool calls"
                break
            spent = spent_before + attempt.main_usage.total
            if spent >= self.settings.turn_token_budget:
                attempt.stopped = (f"stopped: this request used its token budget "
                                   f"({spent} of {self.settings.turn_token_budget} tokens)")
                break
            observer.on_status("thinking…" if number == 1 else "correcting…")
            response = self.model.stream(
                system=system, messages=convo, tools=self.tools,
                on_text=None if wrote else observer.on_text_delta,
                on_tool_start=observer.on_draft_discarded)
            attempt.main_usage.add(response.usage)
            attempt.stop_reason = response.stop_reason
            if response.stop_reason is None:
                # The stream ended before its stop reason (message_delta): an unfinished answer.
                raise ModelError("The model's answer was cut off before it finished.")
            if response.stop_reason in ("refusal", "max_tokens"):
                # Never run the tool calls of a response that was cut off or refused.
                text_blocks = [b for b in response.content if b.get("type") == "text" and b.get("text")]
                if text_blocks:
                    exchange.append({"role": "assistant", "content": text_blocks})
                attempt.reply = response.text
                attempt.stopped = ("the model declined this request" if response.stop_reason == "refusal"
                                   else "the answer was cut off before it finished")
                skipped = len(response.tool_uses)
                if skipped:
                    attempt.stopped += f"; its {skipped} tool call(s) were not run"
                break
            exchange.append({"role": "assistant", "content": response.content})
            convo.append(exchange[-1])
            if response.stop_reason != "tool_use" or not response.tool_uses:
                attempt.reply = response.text
                break
            calls = [ToolCall(b["id"], b["name"], b.get("input") or {}) for b in response.tool_uses]
            observer.on_status(status_line(calls[0].name))
            registry.run_batch(calls)
            attempt.calls.extend(calls)
            if any(is_write(c.name) and c.result and not c.result.is_error for c in calls):
                wrote = True
            results = {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": c.id, "content": c.result.text if c.result else "",
                 **({"is_error": True} if c.result and c.result.is_error else {})} for c in calls]}
            exchange.append(results)
            convo.append(results)
        if attempt.stopped and not attempt.reply:
            exchange.append({"role": "assistant", "content": [{"type": "text", "text": f"({attempt.stopped})"}]})
        return attempt, exchange

    # ------------------------------------------------------------------ guard
    def guard_case(self, turn_id: str, attempt: Attempt, message: str,
                   judged: list[ToolCall] | None = None) -> GuardCase:
        """The attempt as the guard sees it (`assistant.guard_case`, shared with the MCP server)."""
        return build_guard_case(self.services, turn_id, attempt.number, attempt.calls, message,
                                self.now(), judged)

    @staticmethod
    def judged_calls(attempt: Attempt) -> list[ToolCall]:
        """The calls of the attempt the guard judges (`assistant.guard_case.judged_calls`)."""
        return judged_calls(attempt.calls)

    def _judge(self, turn_id: str, attempt: Attempt, message: str, observer: TurnObserver) -> None:
        calls = self.judged_calls(attempt)
        if not calls:
            return
        observer.on_status("checking the change…")
        started = time.perf_counter()
        case = self.guard_case(turn_id, attempt, message, calls)
        model_seconds = 0.0
        usage = attempt.reflection_usage

        def timed_reflect(system: str, prompt: str, schema: dict[str, Any]) -> str:
            nonlocal model_seconds
            t0 = time.perf_counter()
            try:
                return self.model.reflect(system, prompt, schema, usage_sink=usage)
            finally:
                model_seconds += time.perf_counter() - t0

        run = self.guard.judge(case, reflect=timed_reflect)
        attempt.verdict = run.verdict
        attempt.guard_ms = (time.perf_counter() - started - model_seconds) * 1000

    # ------------------------------------------------------------------ reply, lessons
    def _reply(self, report: TurnReport) -> str:
        final = report.final
        if report.error:
            return report.error
        text = (final.reply if final else "") or ""
        if final and final.stopped and final.stopped not in text:
            text = (text + "\n\n" if text else "") + f"({final.stopped})"
        if not text and final and final.cards:
            text = "Done."
        if report.conflicts:
            text += ("\n\nI could not put everything back: " + "; ".join(report.conflicts)
                     + ". Please check those events.")
        return text

    def _surface_lessons(self, message: str, report: TurnReport) -> str | None:
        if self.lessons is None:
            return None
        try:
            selection = self.lessons.select(message, self.now())
            self.lessons.record_recall(report.turn_id, selection.ids, selection.candidates)
        except Exception:  # noqa: BLE001 - a lesson store problem must never block a turn
            return None
        report.lessons_surfaced = selection.ids
        report.lesson_candidates = selection.candidates
        return self.lessons.render_observations(selection.surfaced) if selection.surfaced else None

    def _learn(self, report: TurnReport) -> None:
        if self.lessons is None or not report.attempts:
            return
        findings = []
        final = report.final
        if report.corrected and final and final.verdict and final.verdict.valid:
            first = report.attempts[0]
            findings += [f for f in (first.verdict.errors if first.verdict else [])]
        if final and final.verdict:
            findings += [f for f in final.verdict.warnings if f.type != "reflection_unavailable"]
        if not findings:
            return
        try:
            self.lessons.learn(report.turn_id, findings, guard_version=GUARD_VERSION, when=self.now(),
                               message=report.user_message)
        except Exception:  # noqa: BLE001 - learning is best effort; the turn already stands
            return

