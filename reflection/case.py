"""A guard case: the person's message, the calendar before the turn, and the attempt's tool calls.

`check` reads one from a JSON line (CONTRACT section 5); the agent builds one from a live attempt.
Both go through the same checks, which is what makes the offline corpus a measure of the product.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from tools.calendar.events import Event, EventFieldError, event_from_contract, zone
from tools.specs import SpecRegistry, all_specs


class CaseError(ValueError):
    """A guard case that cannot be read; the message names the field."""


@dataclass
class GuardCall:
    name: str
    input: dict[str, Any]
    result: Any = None

    @property
    def failed(self) -> bool:
        return isinstance(self.result, dict) and "error" in self.result and len(self.result) <= 2 \
            and not self.result.get("id")


@dataclass(frozen=True)
class WindowTexts:
    """The distinct texts of every event of a window: what the checks that read the whole
    window for words (the people named, titles holding date words) need of it, without its
    events."""

    titled: frozenset[tuple[str, str | None]]   # (title, description) of each event
    places: frozenset[str]
    guests: frozenset[tuple[str, ...]]

    @property
    def titles(self) -> frozenset[str]:
        return frozenset(title for title, _ in self.titled)


def holds_text(event: Event, texts: frozenset[str], guests: frozenset[tuple[str, ...]]) -> bool:
    """Whether the event's title, description or place is one of `texts`, or its guest list one
    of `guests`."""
    return event.title in texts or event.description in texts or event.location in texts \
        or event.attendees in guests


class CalendarAround(Protocol):
    """The whole calendar window behind a case whose `calendar` holds only part of it.

    Why: a live case read from a large store (issue 25) lists only the events the checks can
    need by themselves (those the message's words reach, the named ones, every series); what a
    check reads of the rest comes from here, each answer what the whole window gives, so the
    verdict is the one the whole window gives."""

    def texts(self) -> WindowTexts:
        """The distinct texts of every event of the window."""
        ...

    def near(self, start: datetime, end: datetime) -> list[Event]:
        """Every event of the window overlapping [start, end) (and maybe others of it), in the
        window's order."""
        ...

    def has(self, event_id: str) -> bool:
        """Whether the whole window holds this event."""
        ...

    def events(self) -> list[Event]:
        """The whole window, as the case's `calendar` would hold it unbounded (read on demand:
        the texts of every event, for a change the message does not ask for)."""
        ...

    def holding(self, texts: frozenset[str], guests: frozenset[tuple[str, ...]]) -> list[Event]:
        """The events of `events` holding one of `texts` as their title, description or place,
        or one of `guests` as their guest list, in its order (others of it may be among them):
        what the provenance check reads one by one, for the few texts that may be planted."""
        ...


@dataclass
class GuardCase:
    user_message: str
    now: datetime
    timezone: str
    home_address: str | None
    calendar: list[Event]
    tool_calls: list[GuardCall]
    backend: str = "local"
    id: Any = None
    llm_reflection: str | None = None
    places: dict[str, str] = field(default_factory=dict)
    has_llm_reflection: bool = False
    catalog: SpecRegistry = field(default_factory=all_specs, repr=False, compare=False)
    """How the calls are read (guarded or not, which kind of write): the app's tools unless the
    door that built the case runs others."""
    calendars: list[dict[str, Any]] = field(default_factory=list)
    """The calendars the person reads, as `list_calendars` gives them (`{id, name, owner?,
    primary, ...}`): what "on Leo's calendar" can mean. Empty: only what the calls' own
    `list_calendars` results say."""
    around: CalendarAround | None = field(default=None, repr=False, compare=False)
    """When set, `calendar` is part of this window (every event the checks need one by one) and
    the checks that read the whole window ask it; None: `calendar` is the whole of it."""

    def window_texts(self) -> WindowTexts:
        """The distinct texts of the whole window."""
        if self.around is not None:
            return self.around.texts()
        return WindowTexts(frozenset((e.title, e.description) for e in self.calendar),
                           frozenset(e.location for e in self.calendar if e.location),
                           frozenset(e.attendees for e in self.calendar))

    def whole_calendar(self) -> list[Event]:
        """Every event of the window (read from `around` when the case holds only part)."""
        return self.calendar if self.around is None else self.around.events()

    def whole_calendar_holding(self, texts: frozenset[str], guests: frozenset[tuple[str, ...]]) -> list[Event]:
        """`CalendarAround.holding` of this case's window (its `calendar` when that is all of it)."""
        if self.around is not None:
            return self.around.holding(texts, guests)
        return [e for e in self.calendar if holds_text(e, texts, guests)]

    def event(self, event_id: str) -> Event | None:
        for event in self.calendar:
            if event.id == event_id:
                return event
        return None


def case_from_json(data: Any) -> GuardCase:
    if not isinstance(data, dict):
        raise CaseError("a guard case must be a JSON object")
    for key in ("user_message", "now", "timezone", "tool_calls"):
        if key not in data:
            raise CaseError(f"missing field '{key}'")
    tz_name = data["timezone"]
    try:
        tz = zone(tz_name)
    except EventFieldError:
        raise CaseError(f"timezone: unknown time zone {tz_name!r}") from None
    try:
        now = datetime.fromisoformat(str(data["now"]).replace("Z", "+00:00"))
    except ValueError:
        raise CaseError(f"now: not an ISO datetime: {data['now']!r}") from None
    now = now.replace(tzinfo=tz) if now.tzinfo is None else now.astimezone(tz)
    calendar = []
    for index, raw in enumerate(data.get("calendar") or []):
        try:
            calendar.append(event_from_contract(raw, tz_name))
        except (EventFieldError, TypeError, AttributeError) as exc:
            raise CaseError(f"calendar[{index}]: {exc}") from None
    calls = []
    if not isinstance(data["tool_calls"], list):
        raise CaseError("tool_calls: expected a list")
    for index, raw in enumerate(data["tool_calls"]):
        if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
            raise CaseError(f"tool_calls[{index}]: expected {{name, input, result?}}")
        inp = raw.get("input") or {}
        if not isinstance(inp, dict):
            raise CaseError(f"tool_calls[{index}].input: expected an object")
        calls.append(GuardCall(raw["name"], inp, raw.get("result")))
    backend = data.get("backend") or "local"
    if backend not in ("local", "google"):
        raise CaseError(f"backend: {backend!r} is not 'local' or 'google'")
    if not isinstance(data["user_message"], str):
        raise CaseError("user_message: expected a string")
    calendars = data.get("calendars") or []
    if not isinstance(calendars, list) or not all(isinstance(c, dict) for c in calendars):
        raise CaseError("calendars: expected a list of calendars ({id, name, owner?, primary})")
    reflection = data.get("llm_reflection")
    return GuardCase(user_message=data["user_message"], now=now, timezone=tz_name,
                     home_address=data.get("home_address"), calendar=calendar, tool_calls=calls,
                     backend=backend, id=data.get("id"),
                     llm_reflection=reflection if isinstance(reflection, str) else None,
                     has_llm_reflection="llm_reflection" in data,
                     places=data.get("places") or {}, calendars=calendars)
