"""Assembles an `Agent` from settings: the one recipe the TUI, `replay` and the tests share."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from assistant.agent import Agent
from assistant.date_tool import date_calculator
from assistant.history import ConversationKind, History
from assistant.model_client import ModelClient
from assistant.records import TurnRecorder
from assistant.services import Services, build_services, open_lessons
from assistant.settings import Settings
from reflection.findings import GuardMode
from reflection.guard import Guard
from tools.backends.base import CalendarBackend
from tools.calendar.events import zone
from tools.context import ConfirmCallback, grant_all


def build_agent(settings: Settings, *, confirm: ConfirmCallback = grant_all,
                now: Callable[[], datetime] | None = None, backend: CalendarBackend | None = None,
                base_url: str | None = None, reflection_mode: GuardMode | None = None,
                services: Services | None = None, history_kind: ConversationKind = "chat",
                resume: bool = True, lessons: bool = True, max_retries: int = 2,
                guard: Guard | None = None, door: str = "chat") -> Agent:
    """`guard` replaces the configured one (tests: a guard that fails or whose turn is taken
    meanwhile). `door` is how replies tell the person to undo or to say yes: "chat" (keys) or
    "cli" (commands)."""
    services = services or build_services(settings, backend=backend)
    state = services.stores.state
    model = ModelClient(settings, base_url=base_url, max_retries=max_retries)
    mode = reflection_mode or settings.reflection_mode
    guard = guard or Guard(mode=mode, votes=settings.reflection_votes)
    clock = now or (lambda: datetime.now(zone(settings.timezone)))
    return Agent(services, model, history=History(state, kind=history_kind, resume=resume),
                 guard=guard, recorder=TurnRecorder(state), confirm=confirm, now=clock,
                 calculate=date_calculator(settings.timezone, clock),
                 lessons=open_lessons(settings, state) if lessons else None, door=door)
