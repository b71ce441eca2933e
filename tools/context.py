"""What a tool call runs with, and what it gives back.

`ToolResult` carries two views of one outcome: compact text for the model and structured event
cards for the app, plus `data`, the contract's `result` shape that the guard judges.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tools.backends.accounts import CalendarChoice
from tools.backends.base import CalendarBackend
from tools.calendar.events import EventCard
from tools.journal.journal import Journal
from tools.locations import LocationService
from tools.masking import mask_secrets


@dataclass(frozen=True)
class Confirmation:
    """A destructive request put to the person before it runs."""

    tool: str
    summary: str
    reasons: tuple[str, ...]


ConfirmCallback = Callable[[Confirmation], bool]
DateCalculator = Callable[[str, str | None], dict[str, Any]]


def grant_all(_: Confirmation) -> bool:
    """The default of non-interactive commands: the person already said what to do."""
    return True


@dataclass
class ToolResult:
    text: str
    is_error: bool = False
    cards: list[EventCard] = field(default_factory=list)
    data: Any = None

    @classmethod
    def error(cls, message: str) -> ToolResult:
        """An error result; any secret in `message` is masked (the model reads it)."""
        message = mask_secrets(message)
        return cls(text=f"Error: {message}", is_error=True, data={"error": message})


@dataclass
class ToolCall:
    """One tool_use block and, once run, its result."""

    id: str
    name: str
    input: dict[str, Any]
    result: ToolResult | None = None


@dataclass
class ToolContext:
    """Everything a handler may touch, so handlers stay plain functions."""

    backend: CalendarBackend
    journal: Journal | None
    calendar_id: str
    timezone: str
    locations: LocationService
    turn_id: str = "adhoc"
    attempt: int = 1
    confirm: ConfirmCallback = grant_all
    calculate: DateCalculator | None = None
    now: Callable[[], datetime] | None = None
    deleted_in_turn: int = 0
    created_in_turn: set[str] = field(default_factory=set)
    calendars: CalendarChoice = field(default_factory=CalendarChoice)
    """The calendars a listing without a calendar id reads, and their names (several accounts:
    `tools.backends.accounts`); empty: `calendar_id` alone, as with one calendar."""
    call_memo: dict[str, Any] = field(default_factory=dict)
    """What one call's check, confirmation and handler share, so a bulk update's events are read
    once and its patches applied once (`tools.handlers`); emptied by the registry before and
    after every call, so nothing read for one call is ever seen by the next."""
