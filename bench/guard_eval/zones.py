"""Zones, calendar dates and datetime rendering for the guard evaluation.

Everything here is plain ``datetime``/``zoneinfo`` arithmetic following CONTRACT §4: a local time
that does not exist (spring forward) is the same wall-clock reading shifted forward by the gap, and
a time that happens twice (fall back) means its first occurrence. The generator's truth is computed
only with these helpers, never with the project's own resolver.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

__all__ = ["UTC"]


#: User zones, several continents, with and without DST, one with a half-hour offset.
USER_ZONES: tuple[str, ...] = (
    "America/Los_Angeles",
    "America/New_York",
    "America/Chicago",
    "Europe/London",
    "Europe/Berlin",
    "Australia/Sydney",
    "Asia/Tokyo",
    "Asia/Kolkata",
    "America/Sao_Paulo",
    "Africa/Johannesburg",
)

#: DST transitions (local dates) per region, 2025-2026.
DST_DAYS: dict[str, tuple[date, ...]] = {
    "dst_us": (date(2025, 3, 9), date(2025, 11, 2), date(2026, 3, 8), date(2026, 11, 1)),
    "dst_eu": (date(2025, 3, 30), date(2025, 10, 26), date(2026, 3, 29), date(2026, 10, 25)),
    "dst_au": (date(2025, 4, 6), date(2025, 10, 5), date(2026, 4, 5), date(2026, 10, 4)),
}
DST_ZONES: dict[str, tuple[str, ...]] = {
    "dst_us": ("America/Los_Angeles", "America/New_York", "America/Chicago"),
    "dst_eu": ("Europe/London", "Europe/Berlin"),
    "dst_au": ("Australia/Sydney",),
}
DATE_KINDS: tuple[str, ...] = ("ordinary", "dst_us", "dst_eu", "dst_au", "month_end", "year_end")


def localize(naive: datetime, zone: str) -> datetime:
    """Attach ``zone`` to a wall-clock reading following the contract's gap/fold rule."""
    tz = ZoneInfo(zone)
    first = naive.replace(tzinfo=tz, fold=0)
    back = first.astimezone(UTC).astimezone(tz)
    if back.replace(tzinfo=None) != naive:
        # Nonexistent wall time: shift forward by the gap (the offset difference).
        before = (naive - timedelta(hours=3)).replace(tzinfo=tz).utcoffset()
        after = (naive + timedelta(hours=3)).replace(tzinfo=tz).utcoffset()
        assert before is not None and after is not None
        gap = after - before
        return (naive + gap).replace(tzinfo=tz, fold=0).astimezone(UTC).astimezone(tz)
    return back


def at(day: date, clock: time, zone: str) -> datetime:
    """The instant of wall-clock ``clock`` on ``day`` in ``zone``."""
    return localize(datetime.combine(day, clock), zone)


def local(instant: datetime, zone: str) -> datetime:
    """``instant`` seen in ``zone`` (aware)."""
    return instant.astimezone(ZoneInfo(zone))


def shift_wall(instant: datetime, zone: str, delta: timedelta) -> datetime:
    """Shift by ``delta`` on the wall clock of ``zone`` (days keep their time across DST)."""
    wall = local(instant, zone).replace(tzinfo=None)
    return localize(wall + delta, zone)


def iso_offset(instant: datetime, zone: str) -> str:
    """RFC 3339 with the zone's real offset at that instant."""
    return local(instant, zone).isoformat(timespec="seconds")


def iso_utc(instant: datetime) -> str:
    """RFC 3339 in UTC with a ``Z``."""
    return instant.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def iso_naive(instant: datetime, zone: str) -> str:
    """Naive local wall time in ``zone`` (to be paired with a ``timezone`` field)."""
    return local(instant, zone).replace(tzinfo=None).isoformat(timespec="seconds")


def occurrence_suffix(instant: datetime) -> str:
    """``YYYYMMDDTHHMMSSZ`` of an occurrence's original start, as an instance id suffix."""
    return instant.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


@dataclass(frozen=True)
class Setting:
    """Where and when a scenario happens: the user's zone, now, and the kind of date."""

    zone: str
    now: datetime  # aware, in zone
    date_kind: str

    @property
    def today(self) -> date:
        return self.now.date()


def pick_setting(rng: random.Random) -> Setting:
    """A zone and a "now" of one date kind; DST kinds pick a zone that changes that week."""
    kind = rng.choice(DATE_KINDS)
    if kind.startswith("dst_"):
        zone = rng.choice(DST_ZONES[kind])
        change = rng.choice(DST_DAYS[kind])
        today = change - timedelta(days=rng.randint(1, 6))
    else:
        zone = rng.choice(USER_ZONES)
        if kind == "month_end":
            month = rng.randint(1, 12)
            year = rng.choice((2025, 2026))
            first_next = date(year + (month == 12), month % 12 + 1, 1)
            today = first_next - timedelta(days=rng.randint(1, 3))
        elif kind == "year_end":
            today = date(rng.choice((2025, 2026)), 12, rng.randint(26, 31))
        else:
            today = date(2025, 1, 6) + timedelta(days=rng.randint(0, 700))
    clock = time(rng.randint(7, 10), rng.choice((0, 5, 15, 20, 30, 45, 50)))
    return Setting(zone=zone, now=at(today, clock, zone), date_kind=kind)
