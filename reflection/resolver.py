"""Date/time resolver: finds the date and time expressions in a free sentence and resolves each to
every reading it can have, following the date policy of CONTRACT.md section 4.

Public API: resolve(text, now, tz) -> Resolution; parse_now(value, tz); zone(tz);
the dataclasses Candidate, Expression, Resolution.

Written with regexes and dateutil/zoneinfo arithmetic (no third-party parser). The pipeline:
1. atoms: every pattern in dates_parse finds small pieces (a date, a time, a part of the day, a zone,
   an offset "in 3 days", a duration, a recurrence) with their character spans;
2. overlapping atoms are settled longest first;
3. adjacent atoms joined only by connectors ("at", "on", ",", "-") form one group;
4. each group is resolved into one Expression whose candidates are every combination of readings.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from reflection.dates_parse import Ctx, find_expressions


@dataclass(frozen=True)
class Candidate:
    start: date | datetime
    end: date | datetime | None
    reading: str
    flags: tuple[str, ...] = ()

    def to_json(self) -> dict:
        out = {"start": _fmt(self.start), "end": _fmt(self.end) if self.end is not None else None,
               "reading": self.reading}
        if self.flags:
            out["flags"] = list(self.flags)
        return out


@dataclass(frozen=True)
class Expression:
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

    @property
    def ambiguous(self) -> bool:
        return len(self.candidates) > 1

    def to_json(self) -> dict:
        out = {"span": self.span, "kind": self.kind, "ambiguous": self.ambiguous,
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
    text: str
    now: datetime
    timezone: str
    expressions: tuple[Expression, ...] = field(default_factory=tuple)

    def to_json(self) -> dict:
        return {"text": self.text, "now": _fmt(self.now), "timezone": self.timezone,
                "expressions": [e.to_json() for e in self.expressions]}


def _fmt(v: date | datetime) -> str:
    if isinstance(v, datetime):
        if v.tzinfo is None:
            return v.isoformat(timespec="seconds")
        s = v.isoformat(timespec="seconds")
        return s
    return v.isoformat()


@lru_cache(maxsize=256)
def zone(tz: str) -> ZoneInfo:
    """The ZoneInfo for an IANA name; ValueError "unknown time zone 'X'" otherwise."""
    if not isinstance(tz, str) or not tz.strip():
        raise ValueError(f"unknown time zone {tz!r}")
    try:
        return ZoneInfo(tz.strip())
    except (ZoneInfoNotFoundError, ValueError, OSError, TypeError):
        raise ValueError(f"unknown time zone {tz!r}") from None


def parse_now(value: str, tz: str) -> datetime:
    """An ISO 8601 date-time ('2025-10-22T09:15:00', with or without offset, or a bare date) as an
    aware datetime in `tz`; a naive value is local wall time in `tz`."""
    z = zone(tz)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"invalid --now value {value!r}: expected an ISO date-time such as 2025-10-22T09:15:00")
    v = value.strip()
    if v.endswith(("Z", "z")):
        v = v[:-1] + "+00:00"
    try:
        dt = datetime.fromisoformat(v)
    except ValueError:
        raise ValueError(f"invalid --now value {value!r}: expected an ISO date-time such as 2025-10-22T09:15:00") from None
    return _to_zone(dt, z)


def _to_zone(dt: datetime, z: ZoneInfo) -> datetime:
    if dt.tzinfo is None:
        return dt.replace(tzinfo=z)
    return dt.astimezone(z)


def resolve(text: str, now: datetime, tz: str) -> Resolution:
    """Every date/time expression in `text`, resolved relative to `now` in the person's zone `tz`.
    `now` may be naive (local wall time in tz) or aware (converted to tz)."""
    z = zone(tz)
    if isinstance(now, str):
        now = parse_now(now, tz)
    elif isinstance(now, datetime):
        now = _to_zone(now, z)
    elif isinstance(now, date):
        now = datetime.combine(now, time(0), z)
    else:
        raise ValueError(f"invalid now {now!r}")
    text = text if isinstance(text, str) else str(text)
    ctx = Ctx(now=now, tz=z, today=now.date())
    exprs = []
    for g in find_expressions(text, ctx):
        g["candidates"] = tuple(Candidate(*c) for c in g["candidates"])
        exprs.append(Expression(**g))
    return Resolution(text=text, now=now, timezone=tz, expressions=tuple(exprs))


__all__ = ["Candidate", "Expression", "Resolution", "resolve", "parse_now", "zone"]
