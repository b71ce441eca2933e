"""The tool specs are the one catalog: what every request pays for them stays within a budget, and
a tool added as a spec (and its behaviour bound in the registry) is seen by every layer (the
model's tool list, the registry and its confirmation, the agent's status line, the guard and the
lessons) with no other file touched. The catalog is handed to those layers, so the tests here
hand them one with a throwaway tool added: nothing global is patched."""
from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from assistant.app import build_agent
from assistant.scripted.fake_anthropic import FakeAnthropicServer
from assistant.services import build_services
from assistant.settings import Settings
from reflection.case import GuardCall, GuardCase
from reflection.guard import is_high_stakes
from reflection.lessons.store import message_entities
from reflection.symbolic import check_symbolic
from tools.calendar.events import Event, event_from_contract, zone
from tools.context import Confirmation, ToolCall, ToolContext, ToolResult
from tools.registry import BEHAVIOURS, ToolBehaviour, ToolRegistry, tool_definitions
from tools.specs import ToolSpec, all_specs

TZ = "America/Los_Angeles"
NOW = datetime(2025, 10, 20, 8, 0, tzinfo=zone(TZ))
MAIN = "specs-main"
SWIM = {"id": "ev_swim1", "title": "Swim lesson", "start": "2025-10-21T17:00:00-07:00",
        "end": "2025-10-21T17:45:00-07:00", "timezone": TZ}
ROOT = Path(__file__).resolve().parents[2]
TOKEN_BUDGET = 3300


def test_the_tools_every_request_carries_stay_within_their_token_budget() -> None:
    """Every request to the model carries all tool definitions, so their size is paid on every
    call. Estimate: characters / 4 of the compact JSON (`separators=(",", ":")`) of
    `tool_definitions()`. Today (9 tools) that is 12,922 characters, about 3,231 tokens; the
    budget is 3,300 (raised from 2,700 for find_free_time and the advice to look before
    creating: about 275 tokens; then for `scope`, about 160, and for `reminders` and
    `end_timezone`, two fields sent three times, in the create, the update and each bulk item,
    about 255: issue 26), so a new tool or a longer description has to earn its place."""
    sent = json.dumps(tool_definitions(), separators=(",", ":"), ensure_ascii=False)
    assert len(sent) / 4 <= TOKEN_BUDGET, f"{len(sent) / 4:.0f} tokens > {TOKEN_BUDGET}"


# --------------------------------------------------------------------------- a throwaway tool
ASKED: list[Confirmation] = []


def _tentative(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    """Writes nothing: the layers around it are under test, not a backend."""
    event = ctx.backend.get_event(ctx.calendar_id, args["event_id"])
    assert event is not None
    return ToolResult(text="Marked tentative", data=event.to_contract())


THROWAWAY = ToolSpec(
    name="mark_tentative", description="Mark an event tentative.",
    input_schema={"type": "object", "properties": {"event_id": {"type": "string"}},
                  "required": ["event_id"], "additionalProperties": False},
    status="pencilling it in…", topic="update", guarded=True, writes=True, guard_kind="update")
THROWAWAY_BEHAVIOUR = ToolBehaviour(_tentative, destructive=lambda call, ctx: ["it is only a test"],
                                    summary=lambda call, ctx: "Pencil in the swim lesson")
CATALOG = all_specs().with_specs([THROWAWAY])
RUNS = {**BEHAVIOURS, THROWAWAY.name: THROWAWAY_BEHAVIOUR}


@pytest.fixture
def server() -> Iterator[FakeAnthropicServer]:
    made = FakeAnthropicServer({MAIN: []}).start()
    yield made
    made.close()


def _agent(tmp_path: Path, server: FakeAnthropicServer, asked: list[Confirmation]) -> Any:
    from tools.backends.local import LocalBackend

    home = tmp_path / "home"
    settings = Settings(home=home, timezone=TZ, model=MAIN, reflection_model="unused",
                        api_key="test-key")
    backend = LocalBackend(home / "calendar.db", TZ)
    backend.create_event("primary", event_from_contract(SWIM, TZ))
    services = dataclasses.replace(build_services(settings, backend=backend), catalog=CATALOG,
                                   behaviours=RUNS)
    return build_agent(settings, base_url=server.base_url, services=services, reflection_mode="symbolic",
                       now=lambda: NOW, confirm=lambda c: asked.append(c) or True,
                       lessons=False, max_retries=0)


class Statuses:
    def __init__(self) -> None:
        self.seen: list[str] = []

    def on_status(self, text: str) -> None:
        self.seen.append(text)

    def on_text_delta(self, text: str) -> None:
        pass

    def on_draft_discarded(self) -> None:
        pass


def test_a_spec_alone_reaches_the_model_the_agent_the_confirmation_and_the_guard(
        tmp_path: Path, server: FakeAnthropicServer) -> None:
    server.add(MAIN, {"content": [{"type": "tool_use", "name": "mark_tentative",
                                   "input": {"event_id": "ev_swim1"}}]},
               {"content": [{"type": "text", "text": "Done."}]})
    asked: list[Confirmation] = []
    statuses = Statuses()
    report = _agent(tmp_path, server, asked).run_turn("pencil in the swim lesson", statuses)
    sent = [t["name"] for t in server.requests[0].body["tools"]]
    assert sent[-1] == "mark_tentative"
    assert "pencilling it in…" in statuses.seen
    assert [c.summary for c in asked] == ["Pencil in the swim lesson"]
    attempt = report.attempts[0]
    assert not attempt.calls[0].result.is_error
    assert attempt.verdict is not None  # a guarded write that succeeded is judged


def _case(calls: list[GuardCall], catalog: Any = None) -> GuardCase:
    piano = Event(id="ev_piano", title="Piano", start=datetime(2025, 10, 22, 16, tzinfo=zone(TZ)),
                  end=datetime(2025, 10, 22, 17, tzinfo=zone(TZ)), timezone=TZ,
                  recurrence=("RRULE:FREQ=WEEKLY",))
    case = GuardCase(user_message="pencil in piano", now=NOW, timezone=TZ, home_address=None,
                     calendar=[piano], tool_calls=calls)
    return dataclasses.replace(case, catalog=catalog) if catalog is not None else case


def test_the_guard_reads_a_new_tool_by_its_guard_kind() -> None:
    case = _case([GuardCall("mark_tentative", {"event_id": "ev_piano"}, {"id": "ev_piano"})], CATALOG)
    assert is_high_stakes(case)  # an update of a whole series, because the spec says "update"
    symbolic = check_symbolic(case)
    assert list(symbolic.calls) == [0]  # guarded, so the symbolic layer judges it


def test_without_its_spec_the_guard_does_not_know_the_tool() -> None:
    case = _case([GuardCall("mark_tentative", {"event_id": "ev_piano"}, {"id": "ev_piano"})])
    assert not is_high_stakes(case)
    assert check_symbolic(case).calls == {}


def test_the_registry_asks_with_the_new_specs_own_reasons_and_words(tmp_path: Path) -> None:
    from conftest import make_context

    from tools.backends.local import LocalBackend

    backend = LocalBackend(tmp_path / "calendar.db", TZ)
    backend.create_event("primary", event_from_contract(SWIM, TZ))
    asked: list[Confirmation] = []
    ctx = make_context(backend, None, "turn-s", confirm=lambda c: asked.append(c) or False)
    result = ToolRegistry(ctx, CATALOG, RUNS).run(ToolCall("1", "mark_tentative", {"event_id": "ev_swim1"}))
    assert result.is_error and "did not confirm" in result.text
    assert [(c.summary, c.reasons) for c in asked] == [("Pencil in the swim lesson",
                                                         ("it is only a test",))]


def test_lessons_file_a_new_tools_name_under_its_topic() -> None:
    assert "tool:update" in message_entities("why did mark_tentative run?", CATALOG)
    assert "tool:update" not in message_entities("why did mark_tentative run?")  # not the app's


# --------------------------------------------------------------------------- no names left
def test_every_spec_has_one_behaviour_and_every_behaviour_a_spec() -> None:
    """The registry binds code to the catalog by name, the one place a tool name is written
    outside its spec: a spec without code, or code without a spec, is a tool half added."""
    assert list(BEHAVIOURS) == all_specs().names()


_CONSUMERS = ("assistant/agent.py", "reflection/guard.py", "reflection/symbolic.py",
              "reflection/lessons/store.py", "reflection/checks/places.py")


@pytest.mark.parametrize("path", _CONSUMERS)
def test_consumers_ask_specs_for_facts_not_for_tool_names(path: str) -> None:
    """A tool name written into a consumer is a fact kept outside the tool's spec."""
    source = (ROOT / path).read_text(encoding="utf-8")
    names = [name for name in all_specs().names() if re.search(rf"[\"']{name}[\"']", source)]
    assert names == []


def test_the_write_tools_take_reminders_and_an_end_zone_and_say_what_they_mean() -> None:
    """Issue 26: create, update and each bulk item carry `reminders` (minutes before the start)
    and `end_timezone` (the end's zone when not the start's), described for the model."""
    specs = all_specs()
    create = specs.get("create_calendar_event")
    update = specs.get("update_calendar_event")
    bulk = specs.get("bulk_update_calendar_events")
    assert create is not None and update is not None and bulk is not None
    item = bulk.input_schema["properties"]["updates"]["items"]["properties"]
    for props in (create.input_schema["properties"], update.input_schema["properties"], item):
        assert "minutes before the start" in props["reminders"]["description"].lower()
        assert "[] none" in props["reminders"]["description"]
        assert props["reminders"]["items"] == {"type": "integer", "minimum": 0, "maximum": 40320}
        assert "zone of the end" in props["end_timezone"]["description"].lower()
