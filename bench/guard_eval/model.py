"""The generator's intent: calls in abstract form, what each timed call may read as, and scenarios."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from .world import Event
from .zones import Setting


@dataclass(frozen=True)
class Literal:
    """A datetime already written as text (a mutation that must be rendered exactly so)."""

    text: str
    instant: datetime


@dataclass
class Call:
    """A guarded call; ``start``/``end`` inputs are aware datetimes rendered later in ``zone``."""

    name: str
    input: dict[str, Any]
    zone: str

    def clone(self) -> Call:
        return Call(self.name, copy.deepcopy(self.input), self.zone)


@dataclass(frozen=True)
class Target:
    """What the message allows for the start of ``calls[call]`` (instants) and its length."""

    call: int
    allowed: tuple[datetime, ...]
    duration: timedelta | None = None  # required length; None when the message leaves it free
    ampm_fixed: bool = False
    shift: timedelta | None = None  # an event-relative shift, anchored at ``anchor``
    anchor: datetime | None = None
    phrase_zone: str = ""


@dataclass
class Scenario:
    """One request on one calendar, with the correct calls and what mutations may use."""

    family: str
    scenario: str
    message: str
    setting: Setting
    home: str
    calendar: list[Event]
    calls: list[Call]
    targets: list[Target] = field(default_factory=list)
    referenced: set[str] = field(default_factory=set)  # ids the message names (series ids included)
    info: dict[str, Any] = field(default_factory=dict)
    expect_warnings: list[str] | None = None
    relative_phrases: list[str] = field(default_factory=list)


def start_of(call: Call) -> datetime:
    value = call.input["start"]
    return value.instant if isinstance(value, Literal) else value


def set_start(call: Call, new_start: datetime, keep_length: bool = True) -> None:
    """Move a call's start; its end (when written) moves with it so the length is kept."""
    old = start_of(call)
    call.input["start"] = new_start
    end = call.input.get("end")
    if keep_length and isinstance(end, datetime):
        call.input["end"] = end + (new_start - old)
