"""The data of `calendar-assistant demo`: a sample family calendar and a scripted model, both
built at launch from templates whose dates are relative to "now".

Why relative: a demo frozen on 2025-10-20 would show last year's week and a guard judging
"Thursday" against a calendar in the past. Built from today, the sample week is this week and the
scripted mistake (the Friday written for "Thursday") is caught by the real guard, rolled back by
the real journal, and fixed by the scripted second attempt.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from string import Template
from typing import Any

from tools.calendar.events import Event, event_from_contract, zone

HERE = Path(__file__).parent
SAMPLE_CALENDAR = HERE / "data" / "sample_calendar.json"
DEMO_SCRIPT = HERE / "data" / "demo_conversation.json"  # a template: dates are filled in at launch
THURSDAY = 3
SWIM_TIME = time(17, 0)
SWIM_MINUTES = 45


class DemoScriptError(ValueError):
    """A `demo --script` file that is not a demo script; the message names the file and field.

    `is_usage_error` makes the command line report it in one line with exit 2."""

    is_usage_error = True


@dataclass(frozen=True)
class DemoPlan:
    """The dates one demo run is about (tests use it to know the right answer)."""

    today: date
    target_phrase: str   # "Thursday" (or "next Thursday" when today is a Thursday)
    target: date         # the Thursday the person means
    wrong: date          # the Friday the scripted first attempt writes
    swim_day: date       # where the swim lesson starts
    game: date           # the day of the soccer game the first (correct) step adds

    @property
    def target_weekday(self) -> str:
        return f"{self.target:%A}"


def plan_for(now: datetime) -> DemoPlan:
    """Pick unambiguous dates for today: "Thursday" said on a Thursday would be ambiguous
    (today or a week later), so on a Thursday the request says "next Thursday" (a week later,
    which is in the next week and so unambiguous)."""
    today = now.date()
    ahead = (THURSDAY - today.weekday()) % 7
    if ahead == 0:
        phrase, target = "next Thursday", today + timedelta(days=7)
    else:
        phrase, target = "Thursday", today + timedelta(days=ahead)
    swim = today + timedelta(days=1)
    if swim == target:
        swim = today + timedelta(days=5)
    game = today + timedelta(days=2)
    return DemoPlan(today, phrase, target, target + timedelta(days=1), swim, game)


def _at(day: date, clock: time, tz_name: str) -> datetime:
    return datetime.combine(day, clock, tzinfo=zone(tz_name))


def _clock(text: str) -> time:
    hours, minutes = text.split(":")
    return time(int(hours), int(minutes))


def sample_calendar(now: datetime, tz_name: str, plan: DemoPlan | None = None,
                    path: Path = SAMPLE_CALENDAR) -> list[Event]:
    """The sample calendar as real events of this week (CONTRACT section 2 shape, then `Event`)."""
    plan = plan or plan_for(now)
    data = json.loads(path.read_text(encoding="utf-8"))
    events: list[Event] = []
    for raw in data["events"]:
        day = plan.today + timedelta(days=int(raw.get("day_offset", 0)))
        if raw["id"] == "ev_swim":
            day = plan.swim_day
        contract: dict[str, Any] = {
            "id": raw["id"], "title": raw["title"], "timezone": tz_name,
            "location": raw.get("location"), "description": raw.get("description"),
            "attendees": raw.get("attendees", []), "recurrence": raw.get("recurrence"),
        }
        if raw.get("all_day"):
            contract.update(all_day=True, start=day.isoformat(), end=(day + timedelta(days=1)).isoformat())
        else:
            start = _at(day, _clock(raw["time"]), tz_name)
            end = start + timedelta(minutes=int(raw.get("minutes", 60)))
            contract.update(all_day=False, start=start.isoformat(), end=end.isoformat())
        events.append(event_from_contract(contract, tz_name))
    return events


def _naive(moment: datetime) -> str:
    return moment.replace(tzinfo=None).isoformat(timespec="seconds")


def _label(moment: datetime) -> str:
    hour = moment.hour % 12 or 12
    return f"{moment:%A}, {moment:%B} {moment.day} at {hour}:{moment.minute:02d} {'AM' if moment.hour < 12 else 'PM'}"


def _fill(value: Any, fields: dict[str, str]) -> Any:
    if isinstance(value, str):
        return Template(value).substitute(fields)
    if isinstance(value, list):
        return [_fill(v, fields) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, fields) for k, v in value.items()}
    return value


def read_demo_template(path: Path) -> dict[str, Any]:
    """The demo script template, checked field by field so a wrong file is one clear line.

    A replay scenario (fixtures/conversations/*.json) is the file people most often try: it is
    named as such, with the command that runs it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise DemoScriptError(f"{path}: cannot be read ({exc})") from None
    except ValueError as exc:
        raise DemoScriptError(f"{path}: not JSON ({exc})") from None
    if isinstance(data, dict) and "turns" in data and "request" not in data:
        raise DemoScriptError(f"{path}: this is a replay scenario; run it with `calendar-assistant "
                              "replay FILE` (demo --script takes a demo script with request, model "
                              "and fallback, like assistant/scripted/data/demo_conversation.json)")
    if not isinstance(data, dict):
        raise DemoScriptError(f"{path}: expected a JSON object with request, model and fallback")
    if not isinstance(data.get("request"), str) or not data["request"].strip():
        raise DemoScriptError(f"{path}: request: expected the person's request as a string")
    model = data.get("model")
    if not isinstance(model, list) or not model or not all(
            isinstance(item, dict) and isinstance(item.get("content"), list) for item in model):
        raise DemoScriptError(f"{path}: model: expected a list of {{\"content\": [blocks]}} responses")
    before = data.get("before", [])
    if not isinstance(before, list) or not all(
            isinstance(step, dict) and isinstance(step.get("request"), str)
            and isinstance(step.get("model"), list) for step in before):
        raise DemoScriptError(f"{path}: before: expected a list of {{\"request\", \"model\"}} steps")
    after = data.get("after", [])
    if not isinstance(after, list) or not all(isinstance(step, str) for step in after):
        raise DemoScriptError(f"{path}: after: expected a list of commands to type (e.g. \"/undo\")")
    fallback = data.get("fallback")
    if not isinstance(fallback, dict) or not isinstance(fallback.get("content"), list):
        raise DemoScriptError(f"{path}: fallback: expected a {{\"content\": [blocks]}} response")
    return data


def demo_script(now: datetime, tz_name: str, plan: DemoPlan | None = None,
                path: Path = DEMO_SCRIPT, chunk_delay: float = 0.03) -> dict[str, Any]:
    """The scripted conversation with real dates: {"request", "model": [items], "fallback": item}.

    `chunk_delay` slows the streamed deltas so a person sees the reply stream and the working
    states go by; tests pass 0.
    """
    plan = plan or plan_for(now)
    template = read_demo_template(path)
    duration = timedelta(minutes=SWIM_MINUTES)
    right = _at(plan.target, SWIM_TIME, tz_name)
    wrong = _at(plan.wrong, SWIM_TIME, tz_name)
    fields = {
        "target_phrase": plan.target_phrase,
        "target_weekday": plan.target_weekday,
        "wrong_start": _naive(wrong), "wrong_end": _naive(wrong + duration),
        "wrong_month_day": f"{plan.wrong:%B} {plan.wrong.day}",
        "right_start": _naive(right), "right_end": _naive(right + duration),
        "right_label": _label(right),
        "game_month_day": f"{plan.game:%B} {plan.game.day}",
        "game_start": _naive(_at(plan.game, time(10, 0), tz_name)),
        "game_end": _naive(_at(plan.game, time(11, 30), tz_name)),
        "game_label": _label(_at(plan.game, time(10, 0), tz_name)),
    }
    keys = ("request", "model", "fallback", "before", "after")
    try:
        filled: dict[str, Any] = _fill(copy.deepcopy({k: template.get(k, []) for k in keys}), fields)
    except (KeyError, ValueError) as exc:
        raise DemoScriptError(f"{path}: unknown or malformed ${{...}} field ({exc}); the fields are "
                              + ", ".join(sorted(fields))) from None
    for item in filled["model"] + [filled["fallback"]] + [m for s in filled["before"] for m in s["model"]]:
        item.setdefault("chunk_delay", chunk_delay)
    filled["steps"] = [{"request": s["request"], "model": s["model"]} for s in filled["before"]] + \
        [{"request": filled["request"], "model": filled["model"]}] + \
        [{"request": command, "model": []} for command in filled["after"]]
    return filled


def build_demo(now: datetime, tz_name: str | None = None, *, chunk_delay: float = 0.03,
               script_path: Path | None = None) -> tuple[list[Event], dict[str, Any]]:
    """(calendar events, script) for a demo started at `now` (aware; its zone is the person's
    unless `tz_name` says otherwise). The script's "queues" hold the scripted main-model
    responses ("demo") and the reply to anything else ("fallback")."""
    tz_name = tz_name or str(getattr(now.tzinfo, "key", None) or "UTC")
    now = now.astimezone(zone(tz_name))
    plan = plan_for(now)
    script = demo_script(now, tz_name, plan, path=script_path or DEMO_SCRIPT, chunk_delay=chunk_delay)
    script["home_address"] = json.loads(SAMPLE_CALENDAR.read_text(encoding="utf-8")).get("home_address")
    script["queues"] = {f"step{i}": step["model"] for i, step in enumerate(script["steps"]) if step["model"]}
    script["plan"] = plan
    return sample_calendar(now, tz_name, plan), script


def demo_router(server: Any, requests: list[str], fallback: dict[str, Any]) -> Any:
    """Route each scripted request to its own queue ("step0", "step1", ...) while it lasts;
    anything else (or a request asked again) gets the fallback reply, refilled so the demo never
    runs dry.

    A scripted turn is recognised by the person's latest words: the request itself, or the
    guard's correction message, which quotes the request."""

    def route(body: dict[str, Any]) -> str:
        latest = next((m.get("content") for m in reversed(body.get("messages") or [])
                       if m.get("role") == "user" and isinstance(m.get("content"), str)), None)
        for index, request in enumerate(requests):
            ours = latest == request or (isinstance(latest, str) and f'"{request}"' in latest)
            if ours and server.remaining().get(f"step{index}"):
                return f"step{index}"
        server.add("fallback", fallback)
        return "fallback"

    return route


def demo_banner(steps: list[str]) -> str:
    """What the demo can do, said up front: its scripted steps, in order."""
    listed = " → ".join(f"“{step}”" for step in steps)
    return (f"DEMO · a sample calendar and a scripted model; nothing touches your calendar. "
            f"Press Enter for each step: {listed}. F1 for keys.")
