"""What the MCP tests share: a home seeded with the test module's calendar, and a result's text.

Each MCP test module binds the fixtures by name (`settings = mcp_support.settings`), and pytest
finds them there as it finds its own. The `settings` fixture seeds the requesting module's
`CALENDAR` (CONTRACT section 2 objects) into a fresh home in `tmp_path`, with the environment
cleared of anything that would point the app elsewhere (an API key, another backend or
calendar), and gives the module's `HOME` as the home address.
"""
from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from mcp import types

from assistant.settings import Settings
from tools.backends.local import LocalBackend
from tools.calendar.events import event_from_contract, zone

TZ = "America/Los_Angeles"
NOW = datetime(2025, 10, 23, 9, 0, tzinfo=zone(TZ))  # a Thursday


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
             request: pytest.FixtureRequest) -> Iterator[Settings]:
    """A home in `tmp_path` holding the module's `CALENDAR`, judged in Los Angeles."""
    home = seeded_home(tmp_path, monkeypatch, request.module.CALENDAR)
    yield Settings(home=home, timezone=TZ, home_address=request.module.HOME)


def seeded_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, calendar: list[dict[str, Any]]) -> Path:
    """A home folder with `calendar` on its local calendar, the environment pointing at it (and
    at no real model or other backend)."""
    home = tmp_path / "home"
    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(home))
    monkeypatch.setenv("CALENDAR_ASSISTANT_TIMEZONE", TZ)
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "CALENDAR_ASSISTANT_BACKEND",
                 "CALENDAR_ASSISTANT_CALENDAR"):
        monkeypatch.delenv(name, raising=False)
    backend = LocalBackend(home / "calendar.db", TZ)
    for raw in calendar:
        backend.create_event("primary", event_from_contract(raw, TZ))
    backend.close()
    return home


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, types.TextContent))
