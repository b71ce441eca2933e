"""The symbolic layer: every check that code can settle, with no model call.

Dates are judged as instants in the person's zone against every reading of the phrase that refers
to them (so a correct time written in UTC passes, and an offset that moves the local time does
not); ids against the calendar as it was before the turn; places against the home address; the
touched event against the event the person named. Each call is also marked "verified in full" or
not, which is what `auto` mode uses to skip the reflection model.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from reflection.case import GuardCall, GuardCase
from reflection.findings import Fact, Finding
from reflection.matching import NamedEvents, base_of, named_events
from reflection.resolver import Expression, Resolution, resolve
from tools.definitions import GUARDED_TOOLS
from tools.events import Event, EventFieldError, as_date, parse_when, zone
from tools.local_backend import is_occurrence
from tools.locations import normalize_place

GOOGLE_ID_RE = re.compile(r"^[a-v0-9]{5,1024}$")
GOOGLE_INSTANCE_RE = re.compile(r"^([a-v0-9]{5,1024})_(\d{8})(T\d{6}Z)?$")
HOME_RE = re.compile(r"\b(?:[Mm]y|[Oo]ur|MY|OUR)\s+(?:place|house|home|PLACE|HOUSE|HOME)\b"
                     r"|\b(?:[Hh]ome|HOME)\b(?!\s+[A-Z0-9])")
SOURCE_MARKERS = ("from", "on", "at")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
DATE_FIELDS = ("start", "end")


@dataclass
class CallCheck:
    """What the symbolic layer learned about one guarded call."""

    index: int
    dates_checked: bool = False   # the call wrote dates and they were compared with a phrase
    dates_ok: bool = True         # every compared date is inside a reading
    verified: bool = False        # verified in full (dates, id and named event, place)


@dataclass
class SymbolicResult:
    findings: list[Finding] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    calls: dict[int, CallCheck] = field(default_factory=dict)
    resolution: Resolution | None = None
    named: NamedEvents | None = None
    existing_ids: set[str] = field(default_factory=set)

    @property
    def has_error(self) -> bool:
        return any(f.is_error for f in self.findings)

    @property
    def llm_needed(self) -> bool:
        guarded = self.calls.values()
        return self.has_error or any(not c.verified for c in guarded)

    def dates_verified(self, index: int | None) -> bool:
        """Whether the dates of a call (or, with no index, of every dated call) were verified."""
        if index is not None and index in self.calls:
            c = self.calls[index]
            return c.dates_checked and c.dates_ok
        dated = [c for c in self.calls.values() if c.dates_checked]
        return bool(dated) and all(c.dates_ok for c in dated)


def weekday_name(day: date) -> str:
    return WEEKDAYS[day.weekday()]


def describe_day(day: date) -> str:
    return f"{weekday_name(day)} {day.isoformat()}"


def relation_to_today(day: date, today: date) -> str:
    delta = (day - today).days
    if delta == 0:
        return "today"
    if delta == 1:
        return "tomorrow"
    if delta == -1:
        return "yesterday"
    return f"{delta} days after today" if delta > 0 else f"{-delta} days before today"


# ----------------------------------------------------------------------------- readings
def _cand_local(value: date | datetime, tz: Any) -> date | datetime:
    return value.astimezone(tz) if isinstance(value, datetime) else value


def _target_expressions(case: GuardCase, res: Resolution, call: GuardCall) -> list[Expression]:
    """The phrases that say where the call's dates should land.

    In "move X from Thursday to Friday" the target is Friday: a phrase right after "from" (or an
    "on"/"at" phrase that is not the last one) describes the event's current time. Durations and
    impossible dates never are targets.
    """
    exprs = [e for e in res.expressions if e.kind != "duration" and e.candidates]
    if call.name == "create_calendar_event" or len(exprs) <= 1:
        return exprs
    targets = []
    text = res.text.lower()
    for i, expr in enumerate(exprs):
        before = text[max(0, expr.start_index - 12): expr.start_index].split()
        marker = before[-1] if before else ""
        if marker == "from" and any(text[max(0, e.start_index - 6): e.start_index].strip().endswith("to")
                                    for e in exprs[i + 1:]):
            continue
        targets.append(expr)
    return targets or exprs


def _written(call: GuardCall, key: str) -> Any:
    """What was written: the result when the tool returned the event, else the input."""
    result = call.result
    if isinstance(result, dict) and key in result and not result.get("error"):
        return result[key]
    return call.input.get(key)


@dataclass
class Reading:
    """One written boundary, read in the person's zone."""

    raw: str
    value: date | datetime  # local datetime (aware, person's zone) or date
    as_input: str | None = None  # what the model wrote, before the backend normalised it

    @property
    def day(self) -> date:
        return as_date(self.value)


def _read(raw: Any, case: GuardCase, event_tz: str | None) -> Reading | None:
    if raw is None:
        return None
    try:
        value = parse_when(raw, zone(event_tz or case.timezone), "start")
    except EventFieldError:
        return None
    if isinstance(value, datetime):
        value = value.astimezone(zone(case.timezone))
    return Reading(str(raw), value)


def _wall_as_written(raw: str) -> datetime | None:
    match = re.match(r"^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})", raw.strip())
    if not match:
        return None
    return datetime.fromisoformat(f"{match[1]}T{match[2]}:{match[3]}")


@dataclass
class Match:
    ok: bool
    expr: Expression | None = None
    reading: str = ""
    problem: str | None = None  # date | time | timezone


@dataclass
class Reading_:
    """A candidate as the guard compares it: local start/end, and its words."""

    start: date | datetime
    end: date | datetime | None
    reading: str
    zone_start: date | datetime  # the start in the zone the phrase named (wall clock as said)


def _anchor_days(expr: Expression, case: GuardCase, current: Event | None,
                 resolution: Resolution | None) -> list[date]:
    """The days a time said without a date belongs to: the changed event's day ("move the
    dentist to 4pm"), else the days of a date phrase said apart ("last Friday's recital ... at
    6pm"); none means the resolver's own today-or-tomorrow reading stands."""
    if not expr.time_of_day_only:
        return []
    if current is not None:
        return [as_date(current.start_instant.astimezone(zone(case.timezone)))]
    days: list[date] = []
    for other in (resolution.expressions if resolution else ()):
        if other is not expr and other.kind == "date" and not other.time_of_day_only:
            days += [as_date(c.start) for c in other.candidates]
    return days


def effective_candidates(expr: Expression, case: GuardCase, current: Event | None,
                         resolution: Resolution | None = None) -> list[Reading_]:
    """The candidates in the person's zone, a time said without a date moved to its day."""
    tz = zone(case.timezone)
    days = _anchor_days(expr, case, current, resolution)
    out = []
    for cand in expr.candidates:
        for day in days or [None]:
            start, end = cand.start, cand.end
            if day is not None and isinstance(start, datetime):
                moved = datetime.combine(day, start.time(), tzinfo=start.tzinfo)
                if isinstance(end, datetime):
                    end = end + (moved - start)
                start = moved
            out.append(Reading_(_cand_local(start, tz), _cand_local(end, tz) if end is not None else None,
                                cand.reading, start))
    return out


def _matches(expr: Expression, reading: Reading, case: GuardCase,
             current: Event | None, resolution: Resolution | None = None) -> tuple[bool, str]:
    for cand in effective_candidates(expr, case, current, resolution):
        start, end = cand.start, cand.end
        if expr.kind == "date" or (expr.kind == "range" and not isinstance(start, datetime)):
            lo = as_date(start)
            hi = as_date(end) if end is not None else lo
            if lo <= reading.day <= hi:
                return True, cand.reading
            continue
        if not isinstance(start, datetime) or not isinstance(reading.value, datetime):
            continue
        if expr.kind == "range" and isinstance(end, datetime):
            if any(ch.isdigit() for ch in expr.span):
                if abs((reading.value - start).total_seconds()) < 60:
                    return True, cand.reading
            elif start <= reading.value <= end:
                return True, cand.reading
            continue
        if abs((reading.value - start).total_seconds()) < 60:
            return True, cand.reading
    return False, ""


def _mismatch_kind(expr: Expression, reading: Reading, case: GuardCase,
                   current: Event | None = None, resolution: Resolution | None = None) -> str:
    wall = _wall_as_written(reading.as_input or reading.raw)
    for cand in effective_candidates(expr, case, current, resolution):
        if isinstance(cand.start, datetime) and isinstance(reading.value, datetime):
            said = cand.zone_start
            if wall is not None and isinstance(said, datetime) and wall == said.replace(tzinfo=None):
                return "timezone"
            if reading.value.date() == cand.start.date():
                return "time"
    return "date"


def _am_pm_note(expr: Expression, reading: Reading, case: GuardCase,
                current: Event | None = None, resolution: Resolution | None = None) -> str:
    for cand in effective_candidates(expr, case, current, resolution):
        start = cand.start
        if isinstance(start, datetime) and isinstance(reading.value, datetime):
            if abs(start.hour - reading.value.hour) == 12 and start.minute == reading.value.minute:
                return " (AM and PM swapped)"
    return ""


def describe_candidates(expr: Expression, tz_name: str,
                        readings: list[Reading_] | None = None) -> str:
    """The readings in words, in the person's zone (with the named zone's clock when it
    differs). `readings` gives them already anchored ("move the dentist to 4pm" on its day)."""
    tz = zone(tz_name)
    if readings is None:
        readings = [Reading_(_cand_local(c.start, tz), _cand_local(c.end, tz) if c.end is not None else None,
                             c.reading, c.start) for c in expr.candidates]
    parts = []
    for cand in readings:
        start = cand.start
        if isinstance(start, datetime):
            text = f"{weekday_name(start.date())} {start:%Y-%m-%d %H:%M}"
            said = cand.zone_start
            if isinstance(said, datetime) and said.tzinfo is not None and said.utcoffset() != start.utcoffset():
                text += f" ({said:%H:%M} {expr.explicit_zone or said.tzname()})"
        else:
            text = describe_day(start)
        if cand.end is not None:
            end = cand.end
            text += f" to {end:%Y-%m-%d %H:%M}" if isinstance(end, datetime) else f" to {describe_day(end)}"
        parts.append(text)
    return " or ".join(parts)


def _inclusive_last_days(res: Resolution, expr: Expression, tz: Any) -> set[date]:
    """The last day(s) a phrase includes when it closes a span of days: the date after
    "through/until", or the end of a day range said with "to"/"through"/a dash."""
    if not expr.candidates:
        return set()
    before = res.text[max(0, expr.start_index - 9): expr.start_index].lower()
    if re.search(r"\b(through|thru|until|till)\s*$", before):
        return {as_date(_cand_local(c.start, tz)) for c in expr.candidates}
    if expr.kind == "range" and re.search(r"\b(through|thru|until|till|to)\b|[-\u2013]", expr.span, re.I):
        return {as_date(c.end) for c in expr.candidates
                if c.end is not None and not isinstance(c.end, datetime)}
    return set()


def _describe_reading(reading: Reading) -> str:
    if isinstance(reading.value, datetime):
        return f"{weekday_name(reading.value.date())} {reading.value:%Y-%m-%d %H:%M}"
    return describe_day(reading.value)


# ----------------------------------------------------------------------------- the checks
class SymbolicChecker:
    """Runs every computable check over one guard case."""

    def __init__(self, case: GuardCase) -> None:
        self.case = case
        self.result = SymbolicResult()
        self.tz = zone(case.timezone)
        self.today = case.now.astimezone(self.tz).date()
        self.created: dict[int, str] = {}

    def run(self) -> SymbolicResult:
        case, result = self.case, self.result
        result.resolution = resolve(case.user_message, case.now, case.timezone)
        spans = [e.span for e in result.resolution.expressions]
        result.named = named_events(case.user_message, case.calendar, spans)
        result.existing_ids = {e.id for e in case.calendar}
        self._expression_facts()
        for index, call in enumerate(case.tool_calls):
            if call.name not in GUARDED_TOOLS:
                continue
            check = CallCheck(index)
            result.calls[index] = check
            if call.name in ("get_location_info", "get_location_suggestions"):
                check.verified = self._check_location_tool(index, call)
                continue
            if call.name == "bulk_update_calendar_events":
                items = call.input.get("updates") or []
                results = (call.result or {}).get("events") if isinstance(call.result, dict) else None
                oks = []
                for k, item in enumerate(items if isinstance(items, list) else []):
                    sub_result = results[k] if isinstance(results, list) and k < len(results) else None
                    sub = GuardCall("update_calendar_event", item if isinstance(item, dict) else {},
                                    sub_result if sub_result is not None else (
                                        call.result if isinstance(call.result, dict) and "error" in call.result else None))
                    oks.append(self._check_write(index, sub, check))
                check.verified = bool(oks) and all(oks)
            else:
                check.verified = self._check_write(index, call, check)
        return result

    # ------------------------------------------------------------------ facts
    def _expression_facts(self) -> None:
        assert self.result.resolution is not None
        for expr in self.result.resolution.expressions:
            if expr.contradiction:
                self.result.facts.append(Fact("reading", expr.span, f"'{expr.span}' is impossible: {expr.contradiction}"))
            elif expr.candidates:
                self.result.facts.append(Fact(
                    "reading", expr.span,
                    f"'{expr.span}' means {describe_candidates(expr, self.case.timezone)}"
                    + (" (ambiguous)" if expr.ambiguous else ""),
                    {"relative": expr.relative}))
        self.result.facts.append(Fact("relation", "now",
                                      f"now is {describe_day(self.today)} "
                                      f"{self.case.now.astimezone(self.tz):%H:%M} in {self.case.timezone}"))

    def _date_fact(self, reading: Reading, label: str) -> None:
        day = reading.day
        self.result.facts.append(Fact("weekday", reading.raw,
                                      f"{label} {reading.raw} is a {weekday_name(day)} "
                                      f"({relation_to_today(day, self.today)})",
                                      {"date": day.isoformat(), "weekday": weekday_name(day)}))

    def _add(self, type_: str, severity: str, issue: str, correction: str, index: int,
             phrase: str | None = None) -> None:
        self.result.findings.append(Finding(type_, severity, issue, correction, "symbolic", index, phrase))

    # ------------------------------------------------------------------ ids
    def _id_exists(self, event_id: str, index: int) -> bool:
        if event_id in self.result.existing_ids or event_id in self.created.values():
            return True
        base = base_of(event_id)
        if base:
            master = self.case.event(base)
            if master is not None and master.recurrence:
                stamp = event_id[len(base) + 1:]
                try:
                    if "T" in stamp:
                        original: date | datetime = datetime.strptime(stamp, "%Y%m%dT%H%M%SZ").replace(
                            tzinfo=zone("UTC")).astimezone(master.zone)
                    else:
                        original = datetime.strptime(stamp, "%Y%m%d").date()
                    return is_occurrence(master, original)
                except (ValueError, Exception):  # noqa: BLE001 - a malformed stamp is "does not exist"
                    return False
        return False

    def _id_rule_problem(self, event_id: str) -> str | None:
        if self.case.backend != "google":
            return None
        if GOOGLE_ID_RE.match(event_id) or GOOGLE_INSTANCE_RE.match(event_id):
            return None
        return ("Google event ids use only the letters a-v and digits 0-9 (5 to 1024 characters), "
                "or '<series id>_<YYYYMMDD[THHMMSSZ]>' for one occurrence")

    def _recovered_later(self, index: int, call: GuardCall) -> bool:
        for later in self.case.tool_calls[index + 1:]:
            if later.name == call.name and not later.failed:
                event_id = later.input.get("event_id")
                if event_id and self._id_exists(event_id, index):
                    return True
        return False

    def _check_id(self, index: int, call: GuardCall) -> bool:
        """True when the id exists and is the event the person named."""
        event_id = str(call.input.get("event_id") or "")
        rule = self._id_rule_problem(event_id)
        exists = self._id_exists(event_id, index) and rule is None
        if not exists:
            what = rule or f"event id {event_id!r} does not exist in the calendar"
            if self._recovered_later(index, call):
                self._add("process", "warning", f"{what}; a later {call.name} call used an existing event",
                          "look the id up with list_events before using it", index)
            else:
                self._add("event_id", "error", what,
                          "call list_events and use the id of the event the person named", index)
            return False
        event = self.case.event(event_id) or self.case.event(base_of(event_id) or "")
        if event is not None:
            self.result.facts.append(Fact("event", event_id, f"{event_id} is '{event.title}' on "
                                          f"{describe_day(as_date(event.start_instant.astimezone(self.tz)))}"))
        named = self.result.named
        if event_id in self.created.values():
            return True
        if named is None or not named.known:
            return False
        if named.matches(event_id, base_of(event_id)):
            return True
        named_titles = sorted({e.title for e in self.case.calendar if e.id in named.ids})
        title = event.title if event else event_id
        self._add("event_id", "error",
                  f"the person named {', '.join(repr(t) for t in named_titles)}; the call "
                  f"{'deletes' if call.name == 'delete_calendar_event' else 'changes'} '{title}' ({event_id})",
                  f"use the id of {named_titles[0]!r}" if named_titles else "find the named event", index)
        return False

    # ------------------------------------------------------------------ places
    def _home_phrase(self) -> str | None:
        match = HOME_RE.search(self.case.user_message)
        return match.group(0) if match else None

    def _check_location_tool(self, index: int, call: GuardCall) -> bool:
        query = str(call.input.get("query") or "")
        result = call.result if isinstance(call.result, dict) else {}
        kind = result.get("kind")
        if HOME_RE.search(query) or (self._home_phrase() and "home" in query.lower()):
            if kind == "business":
                self._add("location", "error",
                          f"'{query}' means the person's home, but the lookup returned a business "
                          f"({result.get('name') or result.get('address')})",
                          f"use the home address {self.case.home_address}", index, self._home_phrase())
                return False
            return kind == "home"
        return kind in ("home", "saved")

    def _check_place(self, index: int, call: GuardCall) -> bool:
        if "location" not in call.input:
            return True  # the call does not set a place
        location = _written(call, "location")
        home_phrase = self._home_phrase()
        if location is None or location == "":
            return True
        home = self.case.home_address
        loc_norm = normalize_place(str(location))
        if home_phrase:
            if not home:
                return False
            if loc_norm == normalize_place(home) or normalize_place(home) in loc_norm:
                self.result.facts.append(Fact("place", str(location), "the location is the home address"))
                return True
            self._add("location", "error",
                      f"the person said '{home_phrase}' (their home, {home}); the call writes "
                      f"'{location}'", f"set the location to {home}", index, home_phrase)
            return False
        if home and (loc_norm == normalize_place(home)):
            return "home" in self.case.user_message.lower()
        for name, address in self.case.places.items():
            if normalize_place(address) == loc_norm and name.lower() in self.case.user_message.lower():
                return True
        return False

    # ------------------------------------------------------------------ dates
    def _check_write(self, index: int, call: GuardCall, check: CallCheck) -> bool:
        case = self.case
        verified = True
        current: Event | None = None
        if call.name in ("update_calendar_event", "delete_calendar_event"):
            id_ok = self._check_id(index, call)
            verified = verified and id_ok
            event_id = str(call.input.get("event_id") or "")
            current = case.event(event_id) or case.event(base_of(event_id) or "")
        if call.failed:
            return False
        if call.name == "create_calendar_event":
            new_id = (call.result or {}).get("id") if isinstance(call.result, dict) else None
            self.created[index] = new_id or f"__created_{index}"
        if call.name == "delete_calendar_event":
            return verified
        if not self._check_place(index, call):
            verified = False
        if call.name == "update_calendar_event" and not any(k in call.input for k in DATE_FIELDS):
            changed = set(call.input) - {"event_id", "calendar_id", "notify_attendees"}
            return verified and changed <= {"location"} and "location" in changed
        dates_ok = self._check_dates(index, call, check, current)
        return verified and dates_ok

    def _check_dates(self, index: int, call: GuardCall, check: CallCheck,
                     current: Event | None) -> bool:
        case = self.case
        res = self.result.resolution
        assert res is not None
        event_tz = call.input.get("timezone") or (current.timezone if current else None)
        all_day = bool(_written(call, "all_day")) if _written(call, "all_day") is not None \
            else (current.all_day if current and "start" not in call.input else False)
        start_raw = _written(call, "start") if "start" in call.input or call.name == "create_calendar_event" \
            else None
        end_raw = _written(call, "end") if "end" in call.input or (start_raw and call.result) else None
        start = _read(start_raw, case, event_tz)
        if start is not None and call.input.get("start"):
            start.as_input = str(call.input["start"])
        end = _read(end_raw, case, event_tz)
        if start_raw is not None and re.match(r"^\d{4}-\d{2}-\d{2}$", str(start_raw).strip()):
            all_day = True
        ok = True
        if start is not None:
            self._date_fact(start, "start")
        if end is not None:
            self._date_fact(end, "end")
        # contradictions in the request: nothing should have been written for them
        for expr in res.expressions:
            if expr.contradiction and start is not None:
                self._add("date", "error", f"the request names an impossible date ('{expr.span}': "
                          f"{expr.contradiction}) but the call wrote {start.raw}",
                          "ask the person which date they mean", index, expr.span)
                check.dates_checked, check.dates_ok = True, False
                return False
        # end before start, all-day exclusive end
        start_for_order = start
        if start is None and current is not None and end is not None:
            start_for_order = Reading(current.start.isoformat(), current.start_instant.astimezone(self.tz)
                                      if not current.all_day else current.start)
        if start_for_order is not None and end is not None:
            if all_day or not isinstance(end.value, datetime):
                if end.day <= start_for_order.day:
                    self._add("date", "error",
                              f"the all-day event ends {end.day.isoformat()}, not after its start "
                              f"{start_for_order.day.isoformat()}: an all-day end is exclusive",
                              f"set end to {(start_for_order.day + timedelta(days=1)).isoformat()}", index)
                    ok = False
            elif isinstance(start_for_order.value, datetime) and end.value <= start_for_order.value:
                self._add("time", "error", f"the event ends ({end.raw}) before it starts ({start_for_order.raw})",
                          "set an end after the start", index)
                ok = False
        # "through November 5", "November 3 to 5": a span of days includes its last day, so an
        # all-day event's exclusive end is the day after it
        if all_day and end is not None:
            for expr in res.expressions:
                lasts = _inclusive_last_days(res, expr, self.tz)
                if lasts and end.day - timedelta(days=1) not in lasts:
                    want = " or ".join(sorted((d + timedelta(days=1)).isoformat() for d in lasts))
                    self._add("date", "error", f"'{expr.span}' includes its last day, so the all-day "
                              f"end should be {want} (exclusive); the call ends {end.day.isoformat()}",
                              f"set end to {want}", index, expr.span)
                    ok = False
        # duration phrases
        for expr in res.expressions:
            if expr.kind == "duration" and expr.duration and start is not None and end is not None \
                    and isinstance(start.value, datetime) and isinstance(end.value, datetime):
                if abs((end.value - start.value) - expr.duration) > timedelta(minutes=1):
                    self._add("time", "error", f"'{expr.span}' asks for {expr.duration}; the call lasts "
                              f"{end.value - start.value}", "set the end to start plus that duration",
                              index, expr.span)
                    ok = False
        # recurrence phrases
        written_rule = _written(call, "recurrence")
        for expr in res.expressions:
            if expr.recurrence and written_rule:
                ok = self._check_rule(index, expr, written_rule) and ok
        if start is None:
            check.dates_checked = end is not None
            check.dates_ok = ok
            return ok and (end is None or check.dates_checked)
        targets = _target_expressions(case, res, GuardCall(call.name, call.input, call.result))
        if not targets:
            check.dates_checked = False
            check.dates_ok = ok
            return False
        if isinstance(start.value, datetime):
            timed = [e for e in targets if e.kind in ("datetime", "time") or
                     (e.kind == "range" and e.candidates and isinstance(e.candidates[0].start, datetime))]
            targets = timed or targets  # "Valentine's ... Saturday at 7pm": the time-bearing phrase rules
        matched = None
        for expr in targets:
            hit, reading = _matches(expr, start, case,
                                    current if call.name != "create_calendar_event" else None, res)
            if hit:
                matched = (expr, reading)
                break
        check.dates_checked = True
        if matched is None:
            expr = targets[-1]
            ctx_event = current if call.name != "create_calendar_event" else None
            kind = _mismatch_kind(expr, start, case, ctx_event, res)
            note = _am_pm_note(expr, start, case, ctx_event, res) if kind == "time" else ""
            wanted = describe_candidates(expr, case.timezone,
                                         effective_candidates(expr, case, ctx_event, res))
            if kind == "timezone":
                issue = (f"the call writes {start.raw}, which is {_describe_reading(start)} in "
                         f"{case.timezone}: its offset moves the time off '{expr.span}' ({wanted})")
            else:
                issue = f"'{expr.span}' is {wanted}; the call uses {_describe_reading(start)}{note}"
            self._add(kind, "error", issue, f"use {wanted}",
                      index, expr.span)
            check.dates_ok = False
            return False
        expr, reading = matched
        related = [expr]
        if expr.time_of_day_only and call.name == "create_calendar_event":
            # "last Friday's recital ... at 6pm": the date phrase said apart is part of the reading
            related += [e for e in res.expressions if e is not expr and e.kind == "date"
                        and any(as_date(c.start) == start.day for c in e.candidates)]
        self.result.facts.append(Fact("reading", start.raw, f"{start.raw} matches '{expr.span}' "
                                      f"read as {reading}", {"phrase": expr.span}))
        check.dates_ok = ok
        if ok:
            ambiguous = [e for e in related if e.ambiguous]
            if ambiguous:
                e = ambiguous[0]
                self._add("ambiguity", "warning",
                          f"'{e.span}' can mean {describe_candidates(e, case.timezone)}; the call "
                          f"chose {_describe_reading(start)} without asking",
                          "ask the person which one they mean", index, e.span)
            relative = [e for e in related if e.relative]
            if relative and not self._calculated_before(index):
                e = relative[0]
                self._add("process", "warning",
                          f"'{e.span}' is relative and no calculate_datetime call worked it out "
                          "before the write (the date is right)",
                          "call calculate_datetime for relative dates", index, e.span)
        return ok

    def _calculated_before(self, index: int) -> bool:
        return any(c.name == "calculate_datetime" for c in self.case.tool_calls[:index])

    def _check_rule(self, index: int, expr: Expression, written: Any) -> bool:
        rules = written if isinstance(written, list) else [written]
        text = ";".join(str(r).upper() for r in rules)
        want = {k: v for k, v in (p.split("=", 1) for p in expr.recurrence.split(":", 1)[-1].split(";") if "=" in p)}  # type: ignore[union-attr]
        got = {k: v for k, v in (p.split("=", 1) for p in re.split(r"[;:\n]", text) if "=" in p)}
        problems = []
        if want.get("FREQ") and got.get("FREQ") != want["FREQ"]:
            problems.append(f"FREQ={got.get('FREQ')} instead of {want['FREQ']}")
        if want.get("INTERVAL", "1") != got.get("INTERVAL", "1"):
            problems.append(f"INTERVAL={got.get('INTERVAL', '1')} instead of {want.get('INTERVAL', '1')}")
        if want.get("BYDAY") and got.get("BYDAY") and set(want["BYDAY"].split(",")) != set(got["BYDAY"].split(",")):
            problems.append(f"BYDAY={got.get('BYDAY')} instead of {want['BYDAY']}")
        if problems:
            self._add("date", "error", f"'{expr.span}' is {expr.recurrence}; the call's rule has "
                      + ", ".join(problems), f"use {expr.recurrence}", index, expr.span)
            return False
        return True


def check_symbolic(case: GuardCase) -> SymbolicResult:
    return SymbolicChecker(case).run()

