"""Launch glue for `calendar-assistant` / `chat` and `calendar-assistant demo` (their commands are
`assistant.commands.chat` and `.demo`).

Kept out of `app.py` so the app itself never reads the environment or starts servers: tests
build `CalendarApp` with whatever session they like, and these two functions are the only places
that decide which agent a person's session runs on.
"""
from __future__ import annotations

import dataclasses
import shutil
import tempfile
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.session.chat import AgentSession
from assistant.settings import Settings, load_settings, save_setting
from assistant.tui.app import CalendarApp
from tools.context import ConfirmCallback

if TYPE_CHECKING:
    from assistant.scripted.demo import DemoPlan
    from assistant.scripted.fake_anthropic import FakeAnthropicServer

DEMO_MAIN_MODEL = "demo-main-model"
DEMO_REFLECTION_MODEL = "demo-reflection-model"


def chat_app(settings: Settings, *, animate: bool = True,
             settle: Callable[[], None] = lambda: None) -> CalendarApp:
    """The chat on the configured calendar; the setup screen first when there is no key.
    `animate` off (tests) keeps the cursor and the spinner still. `settle` runs once the
    assistant is built (the `chat` command: `assistant.heap.settle_start_up`)."""
    from assistant.settings import has_credentials  # not the model client: no SDK to load here

    def factory(confirm: ConfirmCallback) -> AgentSession:
        from assistant.app import build_agent

        session = AgentSession(build_agent(settings, confirm=confirm))
        settle()
        return session

    return CalendarApp(settings, factory, needs_setup=not has_credentials(settings), animate=animate,
                       save_key=lambda key: save_setting(settings, "api_key", key),
                       save_theme=lambda name: save_setting(settings, "theme", name))


@dataclasses.dataclass
class DemoRig:
    """Everything a demo run owns, so it can be torn down (and tests can look inside)."""

    app: CalendarApp
    server: FakeAnthropicServer
    home: Path
    settings: Settings
    plan: DemoPlan
    request: str
    steps: list[str]

    def close(self) -> None:
        self.server.failures.clear()
        self.server.close()
        shutil.rmtree(self.home, ignore_errors=True)


def demo_rig(now: datetime | None = None, *, tz_name: str | None = None, chunk_delay: float = 0.03,
             animate: bool = True, home: Path | None = None, script_path: Path | None = None) -> DemoRig:
    """A temporary home with the sample calendar, the fake Anthropic server playing the
    scripted model, and the app wired to both (the real agent, guard, journal and rollback)."""
    from assistant.app import build_agent
    from assistant.scripted.demo import build_demo, demo_banner, demo_router
    from assistant.scripted.fake_anthropic import FakeAnthropicServer
    from assistant.settings import system_timezone
    from tools.backends.local import LocalBackend
    from tools.calendar.events import zone

    tz_name = tz_name or _person_zone() or system_timezone()
    clock_now = now
    start = (now or datetime.now(zone(tz_name))).astimezone(zone(tz_name))
    events, script = build_demo(start, tz_name, chunk_delay=chunk_delay, script_path=script_path)
    home = home or Path(tempfile.mkdtemp(prefix="calendar-assistant-demo-"))
    settings = Settings(home=home, timezone=tz_name, home_address=script["home_address"],
                        api_key="demo", model=DEMO_MAIN_MODEL, reflection_model=DEMO_REFLECTION_MODEL,
                        reflection_mode="symbolic").validate()
    home.mkdir(parents=True, exist_ok=True)
    backend = LocalBackend(settings.calendar_db, tz_name)
    calendar_id = backend.primary_calendar_id()
    for event in events:
        backend.create_event(calendar_id, event.with_changes(calendar_id=calendar_id))
    server = FakeAnthropicServer(script["queues"])
    steps = [step["request"] for step in script["steps"]]
    server._router = demo_router(server, steps, script["fallback"])
    server.start()

    def factory(confirm: ConfirmCallback) -> AgentSession:
        return AgentSession(build_agent(settings, confirm=confirm, backend=backend, base_url=server.base_url,
                                        reflection_mode="symbolic", lessons=False, max_retries=0,
                                        now=(lambda: clock_now) if clock_now else None))

    app = CalendarApp(settings, factory, demo=True, prefill=steps[0], animate=animate,
                      demo_steps=steps, demo_banner=demo_banner(steps))
    app.title = "calendar-assistant · DEMO"
    return DemoRig(app, server, home, settings, script["plan"], script["request"], steps)


def _person_zone() -> str | None:
    """The zone the person configured (env or config), if any; the demo shows times in it."""
    try:
        return load_settings().timezone
    except Exception:  # noqa: BLE001 - a broken config must not stop the demo
        return None

