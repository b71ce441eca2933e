"""The resolver's public result types (re-exported by reflection.dates.resolver): `Resolution` holds the
`Expression`s found in a text, each with its `Candidate` readings. `to_json` is the `resolve`
output of CONTRACT.md section 4."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any


def fmt(v: date | datetime) -> str:
    """ISO text: YYYY-MM-DD for a date, seconds precision (with offset when aware) for a datetime."""
    if isinstance(v, datetime):
        return v.isoformat(timespec="seconds")
    return v.isoformat()


@dataclass(frozen=True)
class Candidate:
    """One reading of an expression: a day, a moment, or a span (`end` set)."""
    start: date | datetime
    end: date | datetime | None
    reading: str
    flags: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"start": fmt(self.start), "end": fmt(self.end) if self.end is not None else None,
                               "reading": self.reading}
        if self.flags:
            out["flags"] = list(self.flags)
        return out


@dataclass(frozen=True)
class Expression:
    """A date/time phrase of the text (text[start_index:end_index] == span) and every reading it
    can have under the date policy.

    Fields beyond the contract's JSON (optional, not written by to_json):
    - `part_of_day`: the part of the day said with it ('morning', 'tonight', 'lunch' ...), whose
      range a start time must fall in;
    - `city`: the city whose zone the time is in ('3pm Tokyo time' -> 'Tokyo'; 'her time' -> the
      city the message names), with `explicit_zone` its IANA zone.
    """
    span: str
    start_index: int
    end_index: int
    kind: str
    candidates: tuple[Candidate, ...]
    relative: bool
    weekday_named: int | None = None
    explicit_zone: str | None = None
    contradiction: str | None = None
    recurrence: str | None = None
    duration: timedelta | None = None
    leftover: tuple[str, ...] = ()
    time_of_day_only: bool = False
    part_of_day: str | None = None
    city: str | None = None

    @property
    def ambiguous(self) -> bool:
        return len(self.candidates) > 1

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"span": self.span, "kind": self.kind, "ambiguous": self.ambiguous,
                               "candidates": [c.to_json() for c in self.candidates],
                               "start_index": self.start_index, "end_index": self.end_index,
                               "relative": self.relative}
        if self.weekday_named is not None:
            out["weekday_named"] = self.weekday_named
        if self.explicit_zone:
            out["explicit_zone"] = self.explicit_zone
        if self.contradiction:
            out["contradiction"] = self.contradiction
        if self.recurrence:
            out["recurrence"] = self.recurrence
        if self.duration is not None:
            out["duration_minutes"] = self.duration.total_seconds() / 60
        if self.leftover:
            out["leftover"] = list(self.leftover)
        if self.time_of_day_only:
            out["time_of_day_only"] = True
        return out


@dataclass(frozen=True)
class Resolution:
    """Every expression of `text`, resolved at `now` in the person's zone `timezone`."""
    text: str
    now: datetime
    timezone: str
    expressions: tuple[Expression, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "now": fmt(self.now), "timezone": self.timezone,
                "expressions": [e.to_json() for e in self.expressions]}
