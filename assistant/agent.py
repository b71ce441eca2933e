"""The chat turn: the model's tool loop over guarded attempts, one retry, the reply.

A turn runs an attempt (`assistant.session.attempt.GuardedAttempt`: the model calls tools until
it stops asking, bounded by rounds and a token budget), which the guard judges against the
person's own message. On an error in the first attempt its writes are rolled back through the
journal, the whole failed exchange is left out of the history, a correction names what was
wrong, and the model tries once more; the second attempt is judged without rollback and its
verdict sets the confidence. When the first attempt's undo cannot finish (the calendar service
fails), there is no retry: the turn is left for the next start to finish, and the reply says so.
The reply never claims more than happened: a change held for the person's yes, or a turn whose
every write failed, is said to be so whatever the model wrote.
"""
from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any

from assistant.history import History
from assistant.model_client import ModelClient, ModelError
from assistant.prompts import correction_message, system_prompt
from assistant.records import TurnRecorder
from assistant.report import NullObserver, TurnObserver, TurnReport
from assistant.services import Services
from assistant.session.attempt import GuardedAttempt, Settled
from assistant.session.words import held_reply, nothing_written_notice, unfinished_reply
from reflection.findings import Finding
from reflection.guard import Guard
from reflection.lessons.store import LessonStore
from tools.backends.errors import person_message
from tools.calendar.events import Event, zone
from tools.context import ConfirmCallback, DateCalculator, ToolCall, grant_all
from tools.journal.changes import Changes
from tools.journal.journal import RollbackReport


class Agent:
    def __init__(self, services: Services, model: ModelClient, *, history: History, guard: Guard,
                 recorder: TurnRecorder | None = None, confirm: ConfirmCallback = grant_all,
                 now: Callable[[], datetime] | None = None, calculate: DateCalculator | None = None,
                 lessons: LessonStore | None = None, door: str = "chat") -> None:
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
        self.tools = services.catalog.definitions()
        self.current_attempt = 0
        self.door = door  # "chat" or "cli": how the replies tell the person to say yes or undo

    # ------------------------------------------------------------------ helpers
    def now(self) -> datetime:
        tz = zone(self.settings.timezone)
        return self._now().astimezone(tz) if self._now else datetime.now(tz)

    def agenda(self, days: int = 7) -> list[Event]:
        return self.services.agenda(self.now(), days)

    def history_for_display(self) -> list[tuple[str, str]]:
        return self.history.for_display()

    def undo_last(self) -> RollbackReport | None:
        """Take back the newest change that stands, as the person's undo (`tools.journal.changes`: the
        changes list shows it and redo can put it back)."""
        return Changes(self.services.journal).undo()

    # ------------------------------------------------------------------ the turn
    def _guarded(self, turn_id: str, number: int, report: TurnReport, *,
                 roll_back_errors: bool = True) -> GuardedAttempt:
        """The turn's next attempt (`assistant.session.attempt`), recorded in the report at once
        so an attempt cut off by the model service is still reported."""
        self.current_attempt = number
        attempt = GuardedAttempt(self.services, self.guard, turn_id=turn_id, number=number,
                                 now=self.now, calculate=self.calculate, confirm=self.confirm,
                                 lessons=self.lessons, roll_back_errors=roll_back_errors)
        report.attempts.append(attempt.record)
        return attempt

    def run_turn(self, message: str, observer: TurnObserver | None = None) -> TurnReport:
        observer = observer or NullObserver()
        started = time.perf_counter()
        turn_id = uuid.uuid4().hex[:16]
        report = TurnReport(turn_id, message)
        attempt = self._guarded(turn_id, 1, report)
        attempt.open()
        person = {"role": "user", "content": message}
        final_exchange: list[dict[str, Any]] = []
        corrected: list[Finding] = []
        try:
            observations = self._surface_lessons(message, report)
            system = system_prompt(self.settings, self.now(), self.services, observations)
            base = self.history.context(self.settings.context_token_budget)
            final_exchange = self._loop(attempt, system, base + [person], observer, report)
            if self._check(attempt, message, observer) == "rolled_back":
                # The first attempt was wrong and is fully undone: one retry, told what was
                # wrong. Never while its undo is unfinished (then the turn waits for recovery).
                first = attempt.record
                corrected = first.verdict.errors if first.verdict is not None else []
                correction = {"role": "user", "content": correction_message(first, message)}
                attempt = self._guarded(turn_id, 2, report, roll_back_errors=False)
                final_exchange = self._loop(attempt, system, base + [person, correction], observer,
                                            report)
                self._check(attempt, message, observer)
        except ModelError as exc:
            # An attempt cut off by the model service was never judged: take its writes back.
            report.error = attempt.abort(str(exc))
            final_exchange = []
        except Exception as exc:  # noqa: BLE001 - whatever broke, no write is left unjudged
            report.error = attempt.abort(f"{person_message(exc, 'carry out this request')} "
                                         "This request was stopped.")
            final_exchange = []
        if report.error is None and attempt.finish() == "lost":
            report.error = ("Another copy of the assistant took this request for abandoned and undid "
                            "its changes; please check the calendar and ask again.")
            final_exchange = []
        report.reply = self._reply(report)
        if report.error is None:
            if report.unfinished or report.held:
                # What the model said it did does not stand: remember what the person was told.
                final_exchange = [{"role": "assistant",
                                   "content": [{"type": "text", "text": report.reply}]}]
            self.history.append([person] + final_exchange, turn_id)
        report.latency_ms = (time.perf_counter() - started) * 1000
        if self.recorder is not None:
            self.recorder.record(report)
        attempt.learn(message, corrected)
        return report

    def _loop(self, guarded: GuardedAttempt, system: list[str], messages: list[dict[str, Any]],
              observer: TurnObserver, report: TurnReport) -> list[dict[str, Any]]:
        """The model's tool loop for one attempt, bounded by rounds and the turn's token budget;
        every call runs through the attempt. Returns the attempt's exchange (for the history)."""
        attempt = guarded.record
        number = attempt.number
        spent_before = sum(a.main_usage.total for a in report.attempts if a is not attempt)
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
                    attempt.stopped += ("; the step it asked for was not run" if skipped == 1 else
                                        f"; the {skipped} steps it asked for were not run")
                break
            exchange.append({"role": "assistant", "content": response.content})
            convo.append(exchange[-1])
            if response.stop_reason != "tool_use" or not response.tool_uses:
                attempt.reply = response.text
                break
            calls = [ToolCall(b["id"], b["name"], b.get("input") or {}) for b in response.tool_uses]
            observer.on_status(self.services.catalog.status_line(calls[0].name))
            guarded.run(calls)
            if any(self.services.catalog.is_write(c.name) and c.result and not c.result.is_error for c in calls):
                wrote = True
            results = {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": c.id, "content": c.result.text if c.result else "",
                 **({"is_error": True} if c.result and c.result.is_error else {})} for c in calls]}
            exchange.append(results)
            convo.append(results)
        if attempt.stopped and not attempt.reply:
            exchange.append({"role": "assistant", "content": [{"type": "text", "text": f"({attempt.stopped})"}]})
        return exchange

    # ------------------------------------------------------------------ guard
    def _check(self, guarded: GuardedAttempt, message: str, observer: TurnObserver) -> Settled:
        """Judge the attempt against the person's message and act on the verdict (the model's
        reflection calls metered into the attempt's usage)."""
        if guarded.wrote:
            observer.on_status("checking the change…")
        usage = guarded.record.reflection_usage

        def reflect(system: str, prompt: str, schema: dict[str, Any]) -> str:
            return self.model.reflect(system, prompt, schema, usage_sink=usage)

        verdict = guarded.judge(message, lambda: reflect)
        if verdict is not None and not verdict.valid and guarded.roll_back_errors:
            observer.on_draft_discarded()
            observer.on_status("correcting…")
        return guarded.settle()

    # ------------------------------------------------------------------ reply, lessons
    def _reply(self, report: TurnReport) -> str:
        """What the person reads: never more than happened. An unfinished undo or a change held
        for a yes replaces the model's words (they describe a change that does not stand); a
        turn whose every write failed says so first, whatever the model wrote."""
        final = report.final
        if report.error:
            return report.error
        tz_name = self.settings.timezone
        unfinished = next((a for a in report.attempts if a.unfinished), None)
        if unfinished is not None and unfinished.rollback is not None:
            return unfinished_reply(unfinished.rollback, tz_name, held=unfinished.hold is not None)
        if final is not None and final.held and final.hold is not None:
            return held_reply(final.hold.reasons, final.hold.doubts, final.hold.undone, tz_name,
                              self.door)
        text = (final.reply if final else "") or ""
        if final and final.stopped and final.stopped not in text:
            text = (text + "\n\n" if text else "") + f"({final.stopped})"
        if not text and final and final.cards:
            text = "Done."
        notice = nothing_written_notice(final.calls, self.services.catalog) if final is not None else None
        if notice:
            text = notice + ("\n\n" + text if text else "")
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
