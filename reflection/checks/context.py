"""What every named check reads and writes: the case, the reading of the request, the calls.

Checks add findings through `CheckContext.error` / `warning`, and say where they could not be sure
through `CheckContext.unsure` (the call is then not "verified in full" and `auto` mode asks the
reflection model). An error needs proof; anything short of proof is `unsure`.
"""
from __future__ import annotations

import re
from collections.abc import Container
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import cached_property
from typing import Any, Literal
from zoneinfo import ZoneInfo

from reflection.case import CalendarAround, GuardCall, GuardCase
from reflection.dates.resolver import Resolution
from reflection.findings import Fact, Finding, FindingType, Severity
from reflection.reading.calendars import CalendarBook
from reflection.reading.request import Mention, RequestReading
from tools.calendar.events import Event, EventFieldError, as_date, parse_when, zone
from tools.calendar.occurrences import instance_parts, is_occurrence

WriteKind = Literal["create", "update", "delete"]


@dataclass
class WriteCall:
    """One write the attempt made: a create, an update (a bulk item counts as one) or a delete.
    `kind` comes from the tool's spec (`tools.specs`), never from its name."""

    index: int
    call: GuardCall
    sub: int | None = None
    kind: WriteKind = "update"

    @property
    def input(self) -> dict[str, Any]:
        return self.call.input

    @property
    def event_id(self) -> str:
        return str(self.call.input.get("event_id") or "")

    @property
    def failed(self) -> bool:
        return self.call.failed

    def written(self, key: str) -> Any:
        """What was written: the tool's result when it returned the event, else the input."""
        result = self.call.result
        if isinstance(result, dict) and key in result and not result.get("error"):
            return result[key]
        return self.call.input.get(key)

    def end_zone(self, zone: str | None, current: Event | None = None) -> str | None:
        """The zone the written end is read in: its own (`end_timezone`, a flight that lands
        in London) when the write or the event it changes has one, else `zone` (the start's).
        "Lands at 10:40 pm London time" is then judged on London's clock."""
        own = self.written("end_timezone")
        if own:
            return str(own)
        if current is not None and "end_timezone" not in self.input:  # kept, as the tools keep it
            kept = getattr(current, "end_timezone", None)
            if kept:
                return str(kept)
        return zone


@dataclass
class CallCheck:
    """What the symbolic layer learned about one guarded call."""

    index: int
    dates_checked: bool = False   # the call wrote dates and they were compared with a phrase
    dates_ok: bool = True         # every compared date is inside a reading
    unsure: list[str] = field(default_factory=list)
    errors: int = 0
    writes_start: bool = True     # False for an end-only change, a delete, a place or title change

    @property
    def verified(self) -> bool:
        return not self.unsure and not self.errors


@dataclass
class CheckContext:
    case: GuardCase
    resolution: Resolution
    reading: RequestReading
    writes: list[WriteCall]
    calls: dict[int, CallCheck]
    findings: list[Finding] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    flagged: set[tuple[int, int | None]] = field(default_factory=set)
    check_name: str = ""  # the named check running now, for the proof of what it finds
    book: CalendarBook = field(default_factory=CalendarBook)
    """The calendars the case knows by name (`reflection.reading.calendars`), read once."""

    @property
    def tz(self) -> ZoneInfo:
        return zone(self.case.timezone)

    @property
    def today(self) -> date:
        return self.case.now.astimezone(self.tz).date()

    @property
    def existing_ids(self) -> Container[str]:
        """The ids of the window's events (asked of the window one by one when the case holds
        only part of it)."""
        if self.case.around is not None:
            return _WindowIds(self.case.around)
        return {e.id for e in self.case.calendar}

    # ------------------------------------------------------------------ findings
    def error(self, write: WriteCall | int, type_: FindingType, issue: str, correction: str,
              phrase: str | None = None, proof: dict[str, Any] | None = None) -> None:
        index = write if isinstance(write, int) else write.index
        sub = None if isinstance(write, int) else write.sub
        base: dict[str, Any] = {"check": self.check_name, "call": index}
        if not isinstance(write, int):
            base["event"] = write.event_id or "a new event"
            base["wrote"] = {k: v for k, v in write.input.items() if k in _PROVEN_FIELDS}
        if phrase:
            base["phrase"] = phrase
        self.findings.append(Finding(type_, "error", issue, correction, "symbolic", index, phrase,
                                     {**base, **(proof or {})}))
        self.flagged.add((index, sub))
        if index in self.calls:
            self.calls[index].errors += 1

    def warning(self, index: int, type_: FindingType, issue: str, correction: str,
                phrase: str | None = None) -> None:
        self.findings.append(Finding(type_, "warning", issue, correction, "symbolic", index, phrase))

    def add(self, index: int, type_: FindingType, severity: Severity, issue: str, correction: str,
            phrase: str | None = None) -> None:
        if severity == "error":
            self.error(index, type_, issue, correction, phrase)
        else:
            self.warning(index, type_, issue, correction, phrase)

    def unsure(self, write: WriteCall | int, why: str) -> None:
        index = write if isinstance(write, int) else write.index
        if index in self.calls:
            self.calls[index].unsure.append(why)

    def is_flagged(self, write: WriteCall) -> bool:
        return (write.index, write.sub) in self.flagged or (write.index, None) in self.flagged

    def superseded(self, write: WriteCall) -> bool:
        """A later successful update of the same event writes both its start and end: what this
        write put there is gone by the end of the turn, so the outcome is judged on the later
        one alone (a model that corrects itself is not wrong; one that moves twice is caught on
        the second move)."""
        return (write.index, write.sub) in self._superseded

    @cached_property
    def _superseded(self) -> set[tuple[int, int | None]]:
        """The positions of the updates a later full update of the same event replaces, found in
        one pass from the last write back (a bulk call of 200 items is asked about each one)."""
        out: set[tuple[int, int | None]] = set()
        rewritten: set[str] = set()  # events a later write sets both the start and the end of
        for write in reversed(self.writes):
            if write.kind != "update" or write.failed:
                continue
            if write.event_id in rewritten:
                out.add((write.index, write.sub))
            if "start" in write.input and "end" in write.input:
                rewritten.add(write.event_id)
        return out

    # ------------------------------------------------------------------ events
    def created_ids(self) -> set[str]:
        """Ids of events this attempt created (a later call may change them)."""
        out: set[str] = set()
        for write in self.writes:
            result = write.call.result
            if write.kind == "create" and isinstance(result, dict) and result.get("id"):
                out.add(str(result["id"]))
        return out

    def series_key(self, event_id: str) -> str:
        """The id the reading's mentions use: a series for any of its occurrences."""
        parts = instance_parts(event_id)
        if parts is not None and self.case.event(parts[0]) is not None:
            return parts[0]
        event = self.case.event(event_id)
        if event is not None and event.recurring_event_id:
            return event.recurring_event_id
        return event_id

    def event(self, event_id: str) -> Event | None:
        """The event as it was before the turn; an occurrence is derived from its series."""
        found = self.case.event(event_id)
        if found is not None:
            return found
        parts = instance_parts(event_id)
        if parts is None:
            return None
        master = self.case.event(parts[0])
        if master is None or not master.recurrence:
            return None
        original = self.original_start(event_id, master)
        if original is None:
            return None
        if isinstance(original, datetime):
            return master.with_changes(id=event_id, start=original, end=original + master.duration,
                                       recurrence=None, recurring_event_id=master.id,
                                       original_start=original)
        days = (as_date(master.end) - as_date(master.start)).days or 1
        return master.with_changes(id=event_id, start=original, end=original + timedelta(days=days),
                                   recurrence=None, recurring_event_id=master.id, original_start=original)

    def original_start(self, event_id: str, master: Event) -> date | datetime | None:
        parts = instance_parts(event_id)
        if parts is None:
            return None
        stamp = parts[1]
        try:
            if "T" in stamp:
                original: date | datetime = datetime.strptime(stamp, "%Y%m%dT%H%M%SZ").replace(
                    tzinfo=zone("UTC")).astimezone(master.zone)
            else:
                original = datetime.strptime(stamp, "%Y%m%d").date()
        except ValueError:
            return None
        return original if is_occurrence(master, original) else None

    def local(self, value: date | datetime) -> date | datetime:
        return value.astimezone(self.tz) if isinstance(value, datetime) else value

    def read_when(self, raw: Any, event_tz: str | None) -> date | datetime | None:
        if raw is None or raw == "":
            return None
        try:
            value = parse_when(raw, zone(event_tz or self.case.timezone), "start")
        except EventFieldError:
            return None
        return self.local(value)

    def mentions_for(self, event_id: str) -> list[Mention]:
        return self.reading.mentions_of(self.series_key(event_id))

    def calculated_before(self, index: int) -> bool:
        return any(self.case.catalog.guard_kind(c.name) == "calculate" for c in self.case.tool_calls[:index])


_PROVEN_FIELDS = ("title", "start", "end", "all_day", "timezone", "location", "attendees", "recurrence",
                  "scope", "calendar_id", "reminders")

_DATE_ONLY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def is_date_only(raw: Any) -> bool:
    return isinstance(raw, str) and bool(_DATE_ONLY.match(raw.strip()))


class _WindowIds(Container[str]):
    """The ids of a window read in part, answered one by one (`CalendarAround.has`), so a
    reflection answer naming an id does not read the whole window."""

    def __init__(self, around: CalendarAround) -> None:
        self._around = around
        self._known: dict[str, bool] = {}

    def __contains__(self, event_id: object) -> bool:
        if not isinstance(event_id, str):
            return False
        if event_id not in self._known:
            self._known[event_id] = self._around.has(event_id)
        return self._known[event_id]
