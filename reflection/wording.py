"""Days and times in words, for findings, facts and corrections: "Friday 2025-10-24 18:00".

Findings are read by the model (which needs exact dates) and, through the app, by people (who
need weekdays): every date carries both.
"""
from __future__ import annotations

from datetime import date, datetime

from tools.calendar.wording import WEEKDAYS

__all__ = ["WEEKDAYS", "describe_day", "describe_when", "join_or", "relation_to_today", "weekday_name"]


def weekday_name(day: date) -> str:
    return WEEKDAYS[day.weekday()]


def describe_day(day: date) -> str:
    return f"{weekday_name(day)} {day.isoformat()}"


def describe_when(value: date | datetime) -> str:
    if isinstance(value, datetime):
        return f"{weekday_name(value.date())} {value:%Y-%m-%d %H:%M}"
    return describe_day(value)


def relation_to_today(day: date, today: date) -> str:
    delta = (day - today).days
    if delta == 0:
        return "today"
    if delta == 1:
        return "tomorrow"
    if delta == -1:
        return "yesterday"
    return f"{delta} days after today" if delta > 0 else f"{-delta} days before today"


def join_or(parts: list[str]) -> str:
    unique = list(dict.fromkeys(parts))
    return " or ".join(unique)
