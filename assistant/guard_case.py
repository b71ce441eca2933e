"""An attempt as the guard sees it: one recipe for every door (the chat's agent, the MCP server).

The guard judges what an attempt's calls wrote against the calendar as it was before the attempt,
so the case is built from the calendar around `now`, the events the calls named, and the
journal's pre-images of what the attempt wrote (put back in place of what is there now). Both the
chat and the MCP server build it here, so a guarded call is judged the same way whichever client
made it.
"""
from __future__ import annotations

import json
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from assistant.services import Services
from reflection.case import GuardCall, GuardCase, WindowTexts, holds_text
from reflection.reading.calendars import words_of
from reflection.reading.event_refs import texts_reached
from tools.backends.base import CalendarBackend, CalendarError
from tools.backends.local import LocalBackend, listing_key
from tools.calendar.events import Event
from tools.context import ToolCall
from tools.journal.entries import Entry, EntryState
from tools.specs import SpecRegistry

_BEFORE = timedelta(days=7)
_AFTER = timedelta(days=62)


def judged_calls(calls: Sequence[ToolCall], catalog: SpecRegistry) -> list[ToolCall]:
    """The calls the guard judges: a guarded call that returned an error changed nothing
    (refused, invalid, not confirmed), so it is left out; read-only calls stay (the checks
    use them). Empty when no write succeeded: then there is nothing to verify, no verdict."""
    if not any(catalog.is_write(c.name) and c.result is not None and not c.result.is_error
               for c in calls):
        return []
    return [c for c in calls
            if not (catalog.is_guarded(c.name) and (c.result is None or c.result.is_error))]


def pre_images(services: Services, turn_id: str, attempt: int) -> dict[str, Event | None]:
    """What each event written in the attempt was before its first write (None: it was new)."""
    out: dict[str, Event | None] = {}
    states: tuple[EntryState, ...] = ("pending", "done", "rolled_back", "conflict")
    for row in services.journal.entries(turn_id, attempt, states=states):
        if row.event_id not in out:
            out[row.event_id] = Entry.read(row).pre_event
    return out


class NamedCall(Protocol):
    """What `named_event_ids` reads of a call: a live `ToolCall` or a case's `GuardCall`."""

    @property
    def name(self) -> str: ...

    @property
    def input(self) -> dict[str, Any]: ...


def named_event_ids(calls: Sequence[NamedCall], catalog: SpecRegistry) -> set[str]:
    """The event ids the calls name (each item of a bulk update included)."""
    wanted: set[str] = set()
    for call in calls:
        spec = catalog.get(call.name)
        for item in spec.items(call.input) if spec is not None else []:
            if item.get("event_id"):
                wanted.add(str(item["event_id"]))
    return wanted


def calendar_around(backend: CalendarBackend, calendar_id: str, now: datetime,
                    named: set[str]) -> dict[str, Event]:
    """The calendar the guard reads, as it is now: the window around `now` (a week back, two
    months ahead), the events the calls name and the series of every occurrence listed. Apart
    from `build_guard_case` so a benchmark times exactly what an attempt reads."""
    events: dict[str, Event] = {e.id: e for e in backend.list_events(calendar_id, now - _BEFORE,
                                                                     now + _AFTER)}
    return _with_extras(backend, calendar_id, events, named)


def _with_pre_images(events: dict[str, Event], before: dict[str, Event | None]) -> dict[str, Event]:
    """The calendar as it was before the attempt: each event it wrote put back as it was (one
    it created taken out), in its place."""
    made = {event_id for event_id, pre in before.items() if pre is None}
    for event_id, pre in before.items():
        if pre is not None:
            events[event_id] = pre
    if not made:
        return events
    # what the attempt created was not there before it, occurrences of a new series included
    # (a split's new series would otherwise be "another event" its own change overlaps)
    for event_id in [k for k, e in events.items() if k in made or (e.recurring_event_id or "") in made]:
        del events[event_id]
    return events


class BoundedWindow:
    """The guard's window on a local calendar, read in part (issue 25): a check's cost is the
    events the message can mean, not the events the window holds.

    `calendar` holds the window's events the checks read one by one: the single events whose
    texts hold a word the message's words are similar to (found among the window's distinct
    texts, `texts_reached`), the series whose texts hold one, the named events and their
    series, in the order the whole window lists them, with the attempt's pre-images in place.
    What the checks read of the rest comes from the `CalendarAround` answers below, each what
    the whole window gives: its distinct texts (the single events' read by the store, the
    series' and the named events' from what was read), the events near a span, and the whole
    window itself, read only on demand (`calendar_around`)."""

    def __init__(self, backend: LocalBackend, calendar_id: str, now: datetime, named: set[str],
                 message: str, before: dict[str, Event | None] | None = None, *,
                 texts: tuple[set[tuple[str, str | None]], set[str], set[str]] | None = None) -> None:
        """`texts`: the window's `LocalBackend.window_texts` (skipping `before`) when already
        read (`guard_window` reads them with the window's size); read here otherwise."""
        self.backend, self.calendar_id, self.now, self.named = backend, calendar_id, now, named
        self.before = dict(before or {})
        self.lo, self.hi = now - _BEFORE, now + _AFTER
        titled, places, stored_guests = texts if texts is not None else \
            backend.window_texts(calendar_id, self.lo, self.hi, skip=self.before)
        guests: dict[tuple[str, ...], list[str]] = {}
        for stored in stored_guests:
            guests.setdefault(tuple(json.loads(stored or "[]")), []).append(stored)
        reached = texts_reached(message, titled, places, guests)
        self._guest_texts = guests  # each guest list's stored texts (the store is asked by them)
        # every series of the window with its occurrences, the found single events, then the
        # named events and the series (the whole window but its single events not found)
        listed, self._read = self._part(named, reached.titles, reached.places, reached.descriptions,
                                        reached.guests)
        self._listed = listed  # the window's order, before pre-images (`near` keys it)
        self._listed_ids: set[str] = set()
        self._unlisted: list[Event] | None = None  # what was read beside the listing (`near`)
        kept = self._series_kept(message, named)
        self.calendar = {i: e for i, e in self._read.items()
                         if not (owner := _series_of(e)) or owner in kept}
        self._stored = WindowTexts(frozenset(titled), frozenset(places), frozenset(guests))
        self._texts: WindowTexts | None = None
        self._whole: list[Event] | None = None

    def _part(self, ids: Iterable[str], titles: Iterable[str], places: Iterable[str],
              descriptions: Iterable[str], guests: Iterable[tuple[str, ...]]
              ) -> tuple[list[Event], dict[str, Event]]:
        """The window's single events with these ids or stored texts (through its index), in the
        window's order, and with them every series and its occurrences, the named events and
        the attempt's pre-images, as the whole window holds them: what a check reads one by one."""
        listed, series = self.backend.list_window_series(
            self.calendar_id, self.lo, self.hi, ids=sorted(ids), titles=sorted(titles),
            places=sorted(places), descriptions=sorted(descriptions),
            guests=sorted(s for g in guests for s in self._guest_texts.get(g, ())))
        read = _with_extras(self.backend, self.calendar_id, {e.id: e for e in listed}, self.named,
                            known=series)
        return listed, _with_pre_images(read, self.before)

    def _series_kept(self, message: str, named: set[str]) -> set[str]:
        """The series read one by one: those named (or an occurrence of them) and those whose
        texts (the series' own, an exception's) hold a word the message's words reach."""
        members: dict[str, list[Event]] = {}
        for event in self._read.values():
            series = _series_of(event)
            if series:
                members.setdefault(series, []).append(event)
        reached = texts_reached(message, {(e.title, e.description) for m in members.values() for e in m},
                                {e.location for m in members.values() for e in m if e.location},
                                {e.attendees for m in members.values() for e in m})
        kept = {s for s, m in members.items()
                if s in named or any(e.id in named for e in m) or any(
                    e.title in reached.titles or e.location in reached.places
                    or e.attendees in reached.guests or e.description in reached.descriptions
                    for e in m)}
        return kept

    def texts(self) -> WindowTexts:
        if self._texts is None:
            read = self._read.values()
            self._texts = WindowTexts(
                self._stored.titled | {(e.title, e.description) for e in read},
                self._stored.places | {e.location for e in read if e.location},
                self._stored.guests | {e.attendees for e in read})
        return self._texts

    def near(self, start: datetime, end: datetime) -> list[Event]:
        """The window's single events overlapping the span (a second either side: the store
        keeps whole seconds) merged into what was read of the window, in the window's order,
        then the named events and series, as the whole window orders them. What was read
        starting at or after the span's end is left out (it cannot overlap the span; the check
        reading this passes over it): the listing is in start order, so that is a tail of it,
        cut by bisection (issue 25: a check near hundreds of read events compared each); so is
        a timed single event ending at or before the span's start (`_ended_by`). An event the
        attempt wrote stays wherever it is: its pre-image is read in its place, and judged by
        its own times."""
        if self._unlisted is None:
            self._listed_ids = {e.id for e in self._listed}
            self._unlisted = [e for i, e in self._read.items() if i not in self._listed_ids]
        read, listed = self._read, self._listed_ids
        cut = bisect_left(self._listed, (end, ""), key=listing_key)
        ordered = [e for e in self._listed[:cut] if e.id in read]
        added = [e for e in self._listed[cut:] if e.id in self.before and e.id in read]
        found: dict[str, Event] = {}
        lo, hi = max(start - _SECOND, self.lo), min(end + _SECOND, self.hi)
        if lo < hi:
            for event in self.backend.list_singles(self.calendar_id, lo, hi):
                if event.id not in self.before and event.id not in listed:
                    found[event.id] = event
                    added.append(event)
        for event in added:  # each where its key puts it (keys are unique: the id closes them)
            ordered.insert(bisect_left(ordered, listing_key(event), key=listing_key), event)
        window = [read[e.id] if e.id in read else found[e.id] for e in ordered]
        return [e for e in window if not _ended_by(e, start)] + self._unlisted

    def has(self, event_id: str) -> bool:
        """What was read holds every event of the whole window but its single events not
        found (series, named events and pre-images are all read): the store is asked for one."""
        if event_id in self._read:
            return True
        if event_id in self.before:
            return False  # created by the attempt: out of the window as it was
        return bool(self.backend.window_single_ids(self.calendar_id, self.lo, self.hi, [event_id]))

    def holding(self, texts: frozenset[str], guests: frozenset[tuple[str, ...]]) -> list[Event]:
        """The window's single events holding one of these texts or guest lists, read through
        the window's index as the found events are, with every series, the named events and
        the attempt's, as `events` orders them, then only those holding one: the whole window's
        events holding one, in its order (issue 25: a change the message does not ask for read
        all 2,000 events of a 100,000-event calendar's window for a few planted texts). The
        attempt's events are listed by id, so a pre-image holding one sits where it was."""
        _, read = self._part(self.named | self.before.keys(), texts, texts, texts, guests)
        return [e for e in read.values() if holds_text(e, texts, guests)]

    def events(self) -> list[Event]:
        if self._whole is None:
            whole = calendar_around(self.backend, self.calendar_id, self.now, self.named)
            self._whole = list(_with_pre_images(whole, self.before).values())
        return self._whole


def _ended_by(event: Event, start: datetime) -> bool:
    """A timed event that is no series and ends at or before `start`: it cannot overlap a span
    starting there (issue 25: a create's words reach hundreds of events read before its span,
    each of which the overlap check expanded and compared)."""
    return not event.recurrence and isinstance(event.end, datetime) and event.end <= start


def _series_of(event: Event) -> str | None:
    """The series an event belongs to: its own id for a series, its series' for an occurrence."""
    return event.recurring_event_id or (event.id if event.recurrence else None)


_SECOND = timedelta(seconds=1)


def _with_extras(backend: CalendarBackend, calendar_id: str, events: dict[str, Event],
                 named: set[str], known: dict[str, Event] | None = None) -> dict[str, Event]:
    """`events` and, after them, the named events and the series of every occurrence they hold
    that they do not already hold, one read for them all (not one per series), by id.
    `known`: series the listing read already (`LocalBackend.list_window_series`), as
    `get_events` gives them; those are not read again."""
    wanted = set(named)
    for event in events.values():
        if event.recurring_event_id:
            wanted.add(event.recurring_event_id)
    missing = sorted(wanted - events.keys())
    known = known or {}
    unknown = [event_id for event_id in missing if event_id not in known]
    read = dict(zip(unknown, backend.get_events(calendar_id, unknown), strict=True)) if unknown else {}
    for event_id in missing:
        found = known[event_id] if event_id in known else read[event_id]
        if found is not None:
            events[event_id] = found
    return events


def family_around(services: Services, now: datetime, calls: Sequence[NamedCall],
                  message: str = "") -> dict[str, Event]:
    """With several accounts: `calendar_around` of the default calendar, of every calendar a
    call names and of every calendar whose name or owner the message says, each event carrying
    its `calendar_id`, so a change to Leo's swim on Dad's Google calendar is judged against that
    calendar's events, and "Maya's dentist" is looked for on Maya's calendar too. Other
    calendars are not read: the family's calendars overlap all the time, and an overlap with an
    event on someone else's calendar is no conflict unless the person asks (then they are
    named). A calendar that cannot be read now is left out (a write to it failed as well)."""
    named: dict[str, set[str]] = {}
    for call in calls:
        spec = services.catalog.get(call.name)
        for item in spec.items(call.input) if spec is not None else []:
            calendar_id = str(item.get("calendar_id") or services.calendar_id)
            ids = named.setdefault(calendar_id, set())
            if item.get("event_id"):
                ids.add(str(item["event_id"]))
    said = words_of(message)
    spoken = [f["id"] for f in services.calendars.facts
              if words_of(f"{f.get('name') or ''} {f.get('owner') or ''}") & said]
    events: dict[str, Event] = {}
    for calendar_id in dict.fromkeys([services.calendar_id, *named, *spoken]):
        try:
            found = calendar_around(services.backend, calendar_id, now, named.get(calendar_id, set()))
        except CalendarError:
            continue
        for event_id, event in found.items():
            events.setdefault(event_id, event)
    return events


SMALL_WINDOW = 150
"""Below this many single events in the window, reading it whole costs less than reading its
texts and the events they reach (fewer statements): at 1,000 events (42 in the window) the
whole read and the check cost about 2 ms CPU, the read in part about 3.8 (bench_guard.py)."""


def guard_window(backend: CalendarBackend, calendar_id: str, now: datetime, named: set[str],
                 message: str, before: dict[str, Event | None]) -> tuple[dict[str, Event], BoundedWindow | None]:
    """The events a case holds and, when they are part of the window, the window they are part
    of: a local calendar's window with many events is read in part (`BoundedWindow`); a small
    one, or another backend's, whole. The verdict is the same either way."""
    if isinstance(backend, LocalBackend):
        size, texts = backend.window_outline(calendar_id, now - _BEFORE, now + _AFTER, skip=before)
        if size >= SMALL_WINDOW:
            around = BoundedWindow(backend, calendar_id, now, named, message, before, texts=texts)
            return around.calendar, around
    return _with_pre_images(calendar_around(backend, calendar_id, now, named), before), None


def build_guard_case(services: Services, turn_id: str, attempt: int, calls: Sequence[ToolCall],
                     message: str, now: datetime,
                     judged: Sequence[ToolCall] | None = None) -> GuardCase:
    """The attempt's case: the calendar as it was before the attempt, and the calls that count
    (`judged`; all of `calls` when not given), judged against the person's own `message`."""
    judged = calls if judged is None else judged
    backend, cal_id = services.backend, services.calendar_id
    before = pre_images(services, turn_id, attempt)
    around: BoundedWindow | None = None
    if services.calendars.ids:  # several accounts: each written calendar's window, whole
        events = _with_pre_images(family_around(services, now, calls, message), before)
    else:
        named = named_event_ids(calls, services.catalog)
        events, around = guard_window(backend, cal_id, now, named, message, before)
    settings = services.settings
    return GuardCase(user_message=message, now=now, timezone=settings.timezone,
                     home_address=settings.home_address, calendar=list(events.values()), around=around,
                     tool_calls=[GuardCall(c.name, c.input, c.result.data if c.result else None)
                                 for c in judged],
                     backend=backend.name, places=dict(settings.places), catalog=services.catalog,
                     calendars=[dict(f) for f in services.calendars.facts])
