"""The requests and the calendars they are said against (`requests.jsonl`, `calendar.json`).

Why a file of cases: a model is judged on what people actually type ("push dinner back an hour",
"cancel book club this week"), each against a calendar it can be checked on, so the same file
runs against Claude, a local Anthropic-compatible server, or the scripted fake in the tests.

A case is one JSON line: `id`, `request` (the person's words), optional `now` (ISO, default
Monday 2025-10-20 08:00 in the case's zone), `timezone` (default America/Los_Angeles),
`calendar` (events in the contract shape; default the family week in `calendar.json`) and
`expect`, the end state (`checks.py`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from tools.calendar.events import Event, event_from_contract, zone

HERE = Path(__file__).resolve().parent
REQUESTS = HERE / "requests.jsonl"
CALENDAR = HERE / "calendar.json"
DEFAULT_TZ = "America/Los_Angeles"
DEFAULT_NOW = "2025-10-20T08:00:00"


class CaseError(ValueError):
    """A case file that cannot be run: the message names the file, line and field."""


@dataclass
class Case:
    id: str
    request: str
    now: datetime
    timezone: str
    calendar: list[dict[str, Any]]
    expect: list[dict[str, Any]] = field(default_factory=list)

    def events(self, calendar_id: str) -> list[Event]:
        """The seeded calendar as events on `calendar_id`."""
        return [event_from_contract(data, self.timezone, calendar_id) for data in self.calendar]


def load_cases(path: Path = REQUESTS, only: list[str] | None = None) -> list[Case]:
    """Every case of `path` (JSON Lines; blank lines and `#` lines skipped), or those in `only`."""
    family = json.loads(CALENDAR.read_text(encoding="utf-8"))
    cases: list[Case] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            data = json.loads(line)
            tz_name = data.get("timezone", DEFAULT_TZ)
            now = datetime.fromisoformat(data.get("now", DEFAULT_NOW))
            now = now if now.tzinfo else now.replace(tzinfo=zone(tz_name))
            cases.append(Case(str(data["id"]), str(data["request"]), now, tz_name,
                              list(data.get("calendar", family)), list(data.get("expect", []))))
        except (ValueError, KeyError, TypeError) as exc:
            raise CaseError(f"{path}:{number}: {exc}") from None
    if only:
        missing = set(only) - {c.id for c in cases}
        if missing:
            raise CaseError(f"{path}: no case {', '.join(sorted(missing))}")
        cases = [c for c in cases if c.id in only]
    return cases
