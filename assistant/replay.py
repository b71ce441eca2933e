"""The replay engine: a scripted conversation through the real agent loop (the command line is
`assistant.commands.replay`).

The scripted main-model responses and reflection answers are served by the fake Anthropic server
from `assistant/scripted/`, so the real SDK, the real tool registry, journal, guard and rollback all run
(CONTRACT section 6). On the local backend the replay gets a fresh calendar of its own; lessons and
turn records go to the configured home as usual.
"""
from __future__ import annotations

import dataclasses
import json
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.settings import Settings
from reflection.findings import GuardMode
from tools.backends.base import CalendarBackend
from tools.calendar.events import Event, EventFieldError, event_from_contract, zone
from tools.calendar.patching import check_times
from tools.calendar.recurrence import check_recurrence

if TYPE_CHECKING:
    from assistant.services import Services

MAIN_MODEL = "replay-main-model"
REFLECTION_MODEL = "replay-reflection-model"
DOWN = {"fault": "status", "status": 503, "headers": {"x-should-retry": "false"},
        "body": {"type": "error", "error": {"type": "api_error", "message": "reflection service down (scripted)"}}}


class ScenarioError(ValueError):
    pass


def load_scenario(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"{path}: {exc}") from None
    except ValueError as exc:
        raise ScenarioError(f"{path}: not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise ScenarioError(f"{path}: expected a JSON object")
    for key in ("now", "timezone", "turns"):
        if key not in data:
            raise ScenarioError(f"{path}: missing field '{key}'")
    try:
        zone(data["timezone"])
    except EventFieldError:
        raise ScenarioError(f"{path}: timezone: unknown time zone {data['timezone']!r}") from None
    try:
        datetime.fromisoformat(str(data["now"]))
    except ValueError:
        raise ScenarioError(f"{path}: now: not an ISO datetime") from None
    if not isinstance(data["turns"], list):
        raise ScenarioError(f"{path}: turns: expected a list")
    for i, turn in enumerate(data["turns"]):
        if not isinstance(turn, dict) or not isinstance(turn.get("user"), str):
            raise ScenarioError(f"{path}: turns[{i}].user: expected a string")
        model = turn.get("model", [])
        if not isinstance(model, list) or not all(
                isinstance(r, list) or (isinstance(r, dict) and isinstance(r.get("content"), list))
                for r in model):
            raise ScenarioError(f"{path}: turns[{i}].model: expected a list of content-block lists "
                                "(or {content, stop_reason} objects)")
        refl = turn.get("reflection")
        if refl is not None and (not isinstance(refl, list) or
                                 not all(r is None or isinstance(r, str) for r in refl)):
            raise ScenarioError(f"{path}: turns[{i}].reflection: expected a list of strings or nulls")
    calendar = data.get("calendar") or []
    if not isinstance(calendar, list):
        raise ScenarioError(f"{path}: calendar: expected a list of events")
    seen: dict[str, int] = {}
    for i, raw in enumerate(calendar):
        try:
            event = event_from_contract(raw, data["timezone"])
            check_times(event)
            check_recurrence(event.recurrence, event.start, event.timezone)
        except (EventFieldError, AttributeError, TypeError) as exc:
            raise ScenarioError(f"{path}: calendar[{i}].{exc}" if isinstance(exc, EventFieldError)
                                else f"{path}: calendar[{i}]: {exc}") from None
        if not event.id:
            raise ScenarioError(f"{path}: calendar[{i}].id: missing")
        if event.id in seen:
            raise ScenarioError(f"{path}: calendar[{i}].id: {event.id!r} is already the id of "
                                f"calendar[{seen[event.id]}]")
        seen[event.id] = i
    return data


def seed(backend: CalendarBackend, calendar_id: str, events: list[Event]) -> None:
    """Write the scenario's events by id, replacing an event of the same id (even a deleted one)."""
    for event in events:
        backend.upsert_event(calendar_id, event.with_changes(calendar_id=calendar_id))


class IdMap:
    """Scenario ids that the backend cannot hold ("ev_1" on Google) get a stable valid id; tool
    inputs are translated on the way in and the report on the way out, so a scenario reads the
    same on every backend."""

    KEYS = ("id", "event_id", "recurring_event_id")

    def __init__(self, backend: CalendarBackend, ids: list[str]) -> None:
        self.forward: dict[str, str] = {}
        if backend.name == "google":
            from tools.backends.google.events import stable_event_id

            self.forward = {i: stable_event_id(i) for i in ids if backend.id_problem(i)}
        self.back = {v: k for k, v in self.forward.items()}

    def _one(self, value: str, table: dict[str, str]) -> str:
        if value in table:
            return table[value]
        base, sep, stamp = value.rpartition("_")
        return table[base] + sep + stamp if sep and base in table else value

    def apply(self, obj: Any, reverse: bool = False) -> Any:
        table = self.back if reverse else self.forward
        if not table:
            return obj
        if isinstance(obj, dict):
            return {k: (self._one(v, table) if k in self.KEYS and isinstance(v, str) else
                        [self._one(x, table) if isinstance(x, str) else x for x in v]
                        if k == "rolled_back" and isinstance(v, list) else self.apply(v, reverse))
                    for k, v in obj.items()}
        if isinstance(obj, list):
            return [self.apply(x, reverse) for x in obj]
        return obj


def replay_settings(base: Settings, scenario: dict[str, Any]) -> Settings:
    return dataclasses.replace(base, timezone=scenario["timezone"],
                               home_address=scenario.get("home_address", base.home_address),
                               places=scenario.get("places", base.places),
                               model=MAIN_MODEL, reflection_model=REFLECTION_MODEL,
                               reflection_votes=1, api_key="replay")


def run_scenario(scenario: dict[str, Any], settings: Settings, workdir: Path,
                 requests_out: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Run the scenario; `requests_out` receives every request body the model server saw.

    Its calendar (on the local backend) and its journal are files of `workdir`, opened and
    closed here; the history, turn records and lessons go to the configured home's state
    store (CONTRACT section 6), also closed when the replay ends."""
    from assistant.services import Services, Stores, build_backend, build_locations
    from tools.backends.local import LocalBackend
    from tools.journal.journal import Journal
    from tools.store.database import Store

    with Stores(settings) as stores, Store.sqlite(workdir / "journal.db") as journal_store:
        backend: CalendarBackend = LocalBackend(workdir / "calendar.db", settings.timezone) \
            if settings.backend == "local" else build_backend(settings, stores)
        try:
            calendar_id = settings.calendar_id or backend.primary_calendar_id()
            services = Services(settings, backend, Journal(journal_store, backend),
                                build_locations(settings), calendar_id, stores)
            return _run_scenario(scenario, services, requests_out)
        finally:
            backend.close()


def _run_scenario(scenario: dict[str, Any], services: Services,
                  requests_out: list[dict[str, Any]] | None) -> dict[str, Any]:
    from assistant.app import build_agent
    from assistant.scripted.fake_anthropic import FakeAnthropicServer

    settings, backend, calendar_id = services.settings, services.backend, services.calendar_id
    tz = zone(scenario["timezone"])
    now = datetime.fromisoformat(str(scenario["now"]))
    now = now.replace(tzinfo=tz) if now.tzinfo is None else now.astimezone(tz)
    events = [event_from_contract(e, scenario["timezone"]) for e in scenario.get("calendar") or []]
    ids = IdMap(backend, [e.id for e in events])
    events = [e.with_changes(id=ids.apply({"id": e.id})["id"]) for e in events]
    seed(backend, calendar_id, events)
    agent_box: dict[str, Any] = {}

    def router(body: dict[str, Any]) -> str:
        if body.get("model") == REFLECTION_MODEL:
            return f"reflection{agent_box['agent'].current_attempt}"
        return "main"

    reports = []
    with FakeAnthropicServer({"main": []}, router=router) as server:
        for turn in scenario["turns"]:
            mode: GuardMode = "always" if "reflection" in turn else "symbolic"
            agent = build_agent(settings, services=services, base_url=server.base_url,
                                reflection_mode=mode, history_kind="replay", resume=False,
                                now=lambda: now, max_retries=0,
                                confirm=(lambda _c: False) if turn.get("confirm") is False else (lambda _c: True))
            agent_box["agent"] = agent
            server.add("main", *[ids.apply(response if isinstance(response, dict) else {"content": response})
                                 for response in turn.get("model", [])])
            for k, answer in enumerate(turn.get("reflection") or [], 1):
                server.add(f"reflection{k}",
                           DOWN if answer is None else {"content": [{"type": "text", "text": answer}]})
            report = agent.run_turn(turn["user"])
            reports.append(ids.apply(report.to_json(), reverse=True))
            left = server.remaining()
            if left.get("main"):
                print(f"replay: {len(left['main'])} scripted model "
                      f"{'response' if len(left['main']) == 1 else 'responses'} of turn "
                      f"{len(reports)} were not used", file=sys.stderr)
            for queue in list(left):
                server.discard(queue)
        if requests_out is not None:
            requests_out.extend(r.body for r in server.requests)
        failures = list(server.failures)
        server.failures.clear()
    wanted = [e.id for e in events]
    for report in ids.apply(reports):
        for card in report.get("cards", []):
            for side in ("after", "before"):
                if card.get(side) and card[side]["id"] not in wanted:
                    wanted.append(card[side]["id"])
    calendar = []
    for event_id in wanted:
        event = backend.get_event(calendar_id, event_id)
        if event is not None:
            calendar.append(ids.apply(event.to_contract(), reverse=True))
    out: dict[str, Any] = {"turns": reports, "calendar": calendar}
    if failures:
        out["script_errors"] = failures
    return out

