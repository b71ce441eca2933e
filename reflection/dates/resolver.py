"""Date/time resolver: finds the date and time expressions in a free sentence and resolves each to
every reading it can have, following the date policy of CONTRACT.md section 4.

Public API: resolve(text, now, tz) -> Resolution; parse_now(value, tz); zone(tz);
the dataclasses Candidate, Expression, Resolution (defined in reflection.dates.result).

Written with regexes and dateutil/zoneinfo arithmetic (no third-party parser). The grammar is a
table of typed rules, one per phrase family; reflection.dates.parse describes the pipeline.

Bounds: a text longer than MAX_TEXT_CHARS is refused with ValueError (scanning is near-linear,
but a calendar message is never that long); date arithmetic that leaves years 1-9999 gives the
phrase an "out of range" contradiction and no candidates instead of raising.
"""
from __future__ import annotations

from datetime import date, datetime, time
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from reflection.dates.parse import find_expressions
from reflection.dates.result import Candidate, Expression, Resolution
from reflection.dates.values import Ctx

MAX_TEXT_CHARS = 20_000
_NOW_HINT = "expected an ISO date-time such as 2025-10-22T09:15:00"


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
        raise ValueError(f"invalid --now value {value!r}: {_NOW_HINT}")
    v = value.strip()
    if v.endswith(("Z", "z")):
        v = v[:-1] + "+00:00"
    try:
        dt = datetime.fromisoformat(v)
    except ValueError:
        raise ValueError(f"invalid --now value {value!r}: {_NOW_HINT}") from None
    return _to_zone(dt, z)


def _to_zone(dt: datetime, z: ZoneInfo) -> datetime:
    if dt.tzinfo is None:
        return dt.replace(tzinfo=z)
    try:
        return dt.astimezone(z)
    except OverflowError:
        raise ValueError(f"now {dt.isoformat()} is out of range in {z.key}") from None


def _aware_now(now: datetime | date | str, tz: str, z: ZoneInfo) -> datetime:
    if isinstance(now, str):
        return parse_now(now, tz)
    if isinstance(now, datetime):
        return _to_zone(now, z)
    if isinstance(now, date):
        return datetime.combine(now, time(0), z)
    raise ValueError(f"invalid now {now!r}")


def resolve(text: str, now: datetime | date | str, tz: str) -> Resolution:
    """Every date/time expression in `text`, resolved relative to `now` in the person's zone `tz`.
    `now` may be naive (local wall time in tz) or aware (converted to tz). ValueError for an
    unknown zone, an unreadable `now`, or a text longer than MAX_TEXT_CHARS."""
    z = zone(tz)
    aware = _aware_now(now, tz, z)
    text = text if isinstance(text, str) else str(text)
    if len(text) > MAX_TEXT_CHARS:
        raise ValueError(f"text is longer than {MAX_TEXT_CHARS} characters")
    ctx = Ctx(now=aware, tz=z, today=aware.date())
    return Resolution(text=text, now=aware, timezone=tz, expressions=tuple(find_expressions(text, ctx)))


__all__ = ["MAX_TEXT_CHARS", "Candidate", "Expression", "Resolution", "parse_now", "resolve", "zone"]
