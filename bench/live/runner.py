"""One request, k times, each on a fresh seeded calendar, through the agent loop `ask` runs.

Why the same code path as `calendar-assistant ask`: a score on a harness of our own would measure
the harness. Each run gets a temporary home (a local SQLite calendar seeded from the case, its own
journal and history), builds the agent with `assistant.app.build_agent` as `ask` does (the CLI's
door, confirmations granted as `ask --yes` grants them, the clock fixed at the case's "now"), runs
one turn, and reads the calendar back. Nothing is written outside the temporary directory.

A guard rollback is an attempt whose writes were undone. It is a false rollback when what that
attempt had left was already right: the state it had made is rebuilt from the rollback's own
record (each undone write's `wrong` event) over the calendar as it was before the turn.
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from bench.live.cases import Case
from bench.live.checks import end_state_problems
from tools.calendar.events import Event
from tools.journal.journal import RollbackReport

WINDOW_BEFORE = timedelta(days=30)
WINDOW_AFTER = timedelta(days=120)
"""The span read back after a run: every case's events fall well inside it."""


@dataclass
class Options:
    """How the model is reached: `base_url` (a local server) or the SDK's default, a model
    name (None: the project's default), and the guard's mode (None: the settings default)."""

    api_key: str
    base_url: str | None = None
    model: str | None = None
    reflection_model: str | None = None
    reflection_mode: str | None = None
    max_retries: int = 2


@dataclass
class RunResult:
    success: bool
    problems: list[str]
    rollbacks: int
    false_rollbacks: int
    input_tokens: int
    output_tokens: int
    error: str | None = None
    reply: str = ""

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens


@dataclass
class CaseResult:
    case_id: str
    request: str
    runs: list[RunResult] = field(default_factory=list)

    @property
    def successes(self) -> int:
        return sum(r.success for r in self.runs)

    @property
    def all_right(self) -> bool:
        """pass^k for this request: every one of its k runs ended right."""
        return bool(self.runs) and all(r.success for r in self.runs)


def _settings(case: Case, home: Path, options: Options) -> Any:
    from assistant.settings import Settings

    values: dict[str, Any] = {"home": home, "timezone": case.timezone, "api_key": options.api_key}
    if options.model:
        values["model"] = options.model
    if options.reflection_model:
        values["reflection_model"] = options.reflection_model
    if options.reflection_mode:
        values["reflection_mode"] = options.reflection_mode
    return Settings(**values).validate()


def _after_attempt(before: list[Event], rollback: RollbackReport) -> list[Event]:
    """The calendar as an attempt had left it, from what its rollback undid."""
    state = {e.id: e for e in before}
    for item in rollback.restored:
        if item.wrong is None:
            state.pop(item.event_id, None)
        else:
            state[item.event_id] = item.wrong
    return list(state.values())


def run_once(case: Case, options: Options) -> RunResult:
    """One turn of `case.request` on a freshly seeded calendar in a temporary home."""
    from assistant.app import build_agent
    from assistant.services import build_services
    from tools.context import grant_all

    with tempfile.TemporaryDirectory(prefix="calendar-assistant-live-") as tmp:
        settings = _settings(case, Path(tmp), options)
        services = build_services(settings)
        with services:
            for event in case.events(services.calendar_id):
                services.backend.create_event(services.calendar_id, event)
            start, end = case.now - WINDOW_BEFORE, case.now + WINDOW_AFTER
            before = services.backend.list_events(services.calendar_id, start, end)
            agent = build_agent(settings, confirm=grant_all, now=lambda: case.now,
                                base_url=options.base_url, services=services, lessons=False,
                                max_retries=options.max_retries, door="cli")
            report = agent.run_turn(case.request)
            final = services.backend.list_events(services.calendar_id, start, end)
    problems = end_state_problems(case.expect, before, final, case.timezone)
    if report.error:
        problems.insert(0, f"the turn failed: {report.error}")
    undone = [a.rollback for a in report.attempts if a.rollback is not None]
    false = sum(not end_state_problems(case.expect, before, _after_attempt(before, r), case.timezone)
                for r in undone)
    main, reflection = report.main_usage, report.reflection_usage
    return RunResult(not problems, problems, len(undone), false,
                     main.input_tokens + main.cache_creation_input_tokens + main.cache_read_input_tokens
                     + reflection.input_tokens + reflection.cache_creation_input_tokens
                     + reflection.cache_read_input_tokens,
                     main.output_tokens + reflection.output_tokens, report.error, report.reply)


def run_case(case: Case, k: int, options: Options) -> CaseResult:
    """`case` k times, each on its own fresh calendar."""
    return CaseResult(case.id, case.request, [run_once(case, options) for _ in range(k)])
