"""Is the calendar what the person asked for? The end-state checker of one case.

Why the end state and not the reply: a model can say "Done!" over a wrong day (the failure the
guard exists for), and can reach the right calendar by several paths (a move, or a delete and a
re-create). So a run is judged only by the events it leaves. Each `expect` item is one of:

- `{"event": {"title": "swim"}, "start": "2025-10-23T17:00", "end": ..., "all_day": true,
  "location": "Elm"}`: exactly one event whose title holds every given word (case-insensitive;
  a list means all of them; `"on": "2025-11-01"` also asks for that local start day), with
  these fields (times are local wall time in the case's zone; `location` is a substring);
- `{"absent": {"title": "book club"}}`: no event with such a title;
- `{"count": {"title": "soccer"}, "n": 2}`: that many.

And always: every seeded event that no item names is still there, unchanged, and there is no
event that no item names (nothing else was added, moved or removed).
"""
from __future__ import annotations

from datetime import date, datetime
from typing import Any

from tools.calendar.events import Event, zone

Fields = tuple[str, str, str, bool, str]


def _words(matcher: dict[str, Any]) -> list[str]:
    title = matcher.get("title", "")
    return [w.lower() for w in ([title] if isinstance(title, str) else title)]


def matches(event: Event, matcher: dict[str, Any], tz_name: str) -> bool:
    title = (event.title or "").lower()
    if "on" in matcher and not _local(event.start, tz_name).startswith(matcher["on"]):
        return False
    return all(word in title for word in _words(matcher))


def _local(value: date | datetime, tz_name: str) -> str:
    """A start or end as the case writes it: `2025-10-23T17:00` (wall time), or a date."""
    if isinstance(value, datetime):
        return value.astimezone(zone(tz_name)).strftime("%Y-%m-%dT%H:%M")
    return value.isoformat()


def fields(event: Event, tz_name: str) -> Fields:
    """What a person would notice changed: title, start, end, all day, place."""
    return (event.title or "", _local(event.start, tz_name), _local(event.end, tz_name),
            bool(event.all_day), event.location or "")


def _event_problems(item: dict[str, Any], found: list[Event], tz_name: str) -> list[str]:
    name = " ".join(_words(item["event"]))
    if len(found) != 1:
        return [f"expected one event titled like {name!r}, found {len(found)}"]
    event = found[0]
    problems = []
    for key in ("start", "end"):
        if key in item and _local(getattr(event, key), tz_name) != item[key]:
            problems.append(f"{name!r}: {key} is {_local(getattr(event, key), tz_name)}, "
                            f"expected {item[key]}")
    if "all_day" in item and bool(event.all_day) != bool(item["all_day"]):
        problems.append(f"{name!r}: all_day is {event.all_day}")
    if "location" in item and item["location"].lower() not in (event.location or "").lower():
        problems.append(f"{name!r}: location is {event.location!r}, expected {item['location']!r}")
    return problems


def end_state_problems(expect: list[dict[str, Any]], seeded: list[Event], final: list[Event],
                       tz_name: str) -> list[str]:
    """What is wrong with `final` (empty: the run did what was asked)."""
    problems: list[str] = []
    matchers = [item.get("event") or item.get("absent") or item.get("count") or {} for item in expect]
    for item, matcher in zip(expect, matchers, strict=True):
        found = [e for e in final if matches(e, matcher, tz_name)]
        if "event" in item:
            problems += _event_problems(item, found, tz_name)
        elif "absent" in item and found:
            problems.append(f"{' '.join(_words(matcher))!r} should be gone, {len(found)} left")
        elif "count" in item and len(found) != item["n"]:
            problems.append(f"expected {item['n']} titled like {' '.join(_words(matcher))!r}, "
                            f"found {len(found)}")
    named = [m for m in matchers if m]
    before = {e.id: fields(e, tz_name) for e in seeded if not any(matches(e, m, tz_name) for m in named)}
    after = {e.id: fields(e, tz_name) for e in final if not any(matches(e, m, tz_name) for m in named)}
    for event_id, was in before.items():
        now = after.get(event_id)
        if now != was:
            problems.append(f"{was[0]!r} should be untouched, " +
                            ("it is gone" if now is None else f"it is now {now[1]} – {now[2]}"))
    problems += [f"{now[0]!r} on {now[1]} was not asked for" for event_id, now in after.items()
                 if event_id not in before]
    return problems
