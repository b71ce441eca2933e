"""The long-lived doors freeze what start-up built out of the collector (issue 25:
`assistant.heap.settle_start_up`), once their services are built, and only those doors."""
from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import mcp_support
import pytest
from mcp import Client
from mcp_support import NOW, TZ, text_of

import assistant.heap as heap
import assistant.mcp.server as mcp_server
import assistant.tui.launch as launch
from assistant.cli import main as cli_main
from assistant.settings import Settings

anyio_backend = mcp_support.anyio_backend
settings = mcp_support.settings
CALENDAR = [{"id": "ev_swim1", "title": "Swim lesson", "start": "2025-10-24T17:00:00-07:00",
             "end": "2025-10-24T17:45:00-07:00", "timezone": TZ, "attendees": []}]
HOME = "77 Cedar Ln, Springfield, IL"
RANGE = {"start": "2025-10-20", "end": "2025-11-10"}


@pytest.fixture
def unfrozen() -> Iterator[None]:
    """What a test freezes goes back to the collector after it."""
    yield
    gc.unfreeze()


def test_settle_start_up_freezes_what_is_alive(unfrozen: None) -> None:
    kept = [object() for _ in range(10)]  # alive at start-up: frozen
    gc.unfreeze()
    heap.settle_start_up()
    assert gc.get_freeze_count() > len(kept)


@pytest.mark.anyio
async def test_the_mcp_server_settles_once_its_services_are_built(settings: Settings) -> None:
    settled: list[bool] = []
    server = mcp_server.build_server(settings, now=lambda: NOW, configured=lambda: None,
                                     settle=lambda: settled.append(settings.state_db.exists()))
    async with Client(server) as client:
        await client.list_tools()
        assert settled == []  # the tool list alone builds nothing
        for _ in range(2):
            result = await client.call_tool("list_events", RANGE)
            assert not result.is_error, text_of(result)
    assert settled == [True]  # after the store was opened, once


def test_the_long_lived_commands_pass_settle_start_up(settings: Settings,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """`chat` and `mcp` hand their doors `settle_start_up`; the doors' own default settles
    nothing (tests and library callers build many in one process)."""
    given: dict[str, Any] = {}

    class Door:
        def run(self) -> int:
            return 0

    def chat_app(_settings: Settings, **kwargs: Any) -> Door:
        given["chat"] = kwargs.get("settle")
        return Door()

    def build_server(_settings: Settings, **kwargs: Any) -> Door:
        given["mcp"] = kwargs.get("settle")
        return Door()

    monkeypatch.setattr(launch, "chat_app", chat_app)
    monkeypatch.setattr(mcp_server, "build_server", build_server)
    monkeypatch.setattr(mcp_server, "serve", lambda *_args: None)
    assert cli_main(["chat"]) == 0
    assert cli_main(["mcp"]) == 0
    assert given == {"chat": heap.settle_start_up, "mcp": heap.settle_start_up}


def test_the_chat_settles_once_its_assistant_is_built(settings: Settings) -> None:
    settled: list[str] = []
    app = launch.chat_app(settings, animate=False, settle=lambda: settled.append("settled"))
    session = app.session_factory(lambda _call: True)
    assert settled == ["settled"]
    session.agent.services.close()
