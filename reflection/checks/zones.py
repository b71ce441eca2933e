"""A repeating event kept on another place's clock (CONTRACT 4 and 5, `timezone`): "every sunday
from dec 6, a call with grandma, 6pm london time" written in the person's own zone is right on
its first Sunday and an hour off on the Sundays when the two places' clocks change on different
dates (the US moves two to three weeks before Europe in March, a week after it in autumn). Every
occurrence is a write the person asked for, so one that falls at another time there is proven
wrong: the write is judged on all of its next year's occurrences, not only its first.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from reflection.checks.binding import bind
from reflection.checks.context import CheckContext, WriteCall
from tools.calendar.events import Event
from tools.calendar.occurrences import occurrences

HORIZON = timedelta(days=400)
"""A year of occurrences and a little more: every clock change of both places falls in it."""


def check_zone_drift(ctx: CheckContext) -> None:
    for write in ctx.writes:
        if write.failed or write.kind == "delete":
            continue
        current = ctx.event(write.event_id) if write.kind == "update" else None
        rule = write.written("recurrence") or (current.recurrence if current is not None else None)
        if not rule:
            continue
        said = _named_zone(ctx, write)
        tz_name = str(write.written("timezone") or (current.timezone if current else ctx.case.timezone))
        if said is None or said[0] == tz_name:
            continue
        start = ctx.read_when(write.written("start"), tz_name) if write.written("start") else None
        if not isinstance(start, datetime):
            continue
        first = start.astimezone(ZoneInfo(said[0]))
        if (first.hour, first.minute) not in said[1]:
            continue  # the first occurrence is already off: the start's check says so
        _judge(ctx, write, start, tz_name, said[0], tuple(rule) if isinstance(rule, list) else rule)


def _named_zone(ctx: CheckContext, write: WriteCall) -> tuple[str, set[tuple[int, int]]] | None:
    """The one zone the phrases certainly bound to this write name ("6pm london time"), and the
    clock times they allow there."""
    binding = bind(ctx, write)
    if not binding.certain:
        return None
    named = [p.expression for p in binding.phrases
             if p.role == "target" and p.expression is not None and p.expression.explicit_zone]
    zones = {e.explicit_zone for e in named}
    if len(zones) != 1:
        return None
    zone = str(zones.pop())
    times = {(c.start.astimezone(ZoneInfo(zone)).hour, c.start.astimezone(ZoneInfo(zone)).minute)
             for e in named for c in e.candidates if isinstance(c.start, datetime)}
    return (zone, times) if times else None


def _judge(ctx: CheckContext, write: WriteCall, start: datetime, tz_name: str, named: str,
           rule: tuple[str, ...] | str) -> None:
    there = ZoneInfo(named)
    wanted = start.astimezone(there)
    lines = (rule,) if isinstance(rule, str) else rule
    series = Event(id="written", title="", start=start.astimezone(ZoneInfo(tz_name)),
                   end=start.astimezone(ZoneInfo(tz_name)) + timedelta(hours=1), timezone=tz_name,
                   recurrence=tuple(lines))
    try:
        found = occurrences(series, start, start + HORIZON)
    except Exception:  # noqa: BLE001 - a rule the tools would refuse: the rule checks say so
        return
    for original in found:
        if not isinstance(original, datetime):
            return
        local = original.astimezone(there)
        if (local.hour, local.minute) != (wanted.hour, wanted.minute):
            said = f"{wanted:%H:%M} {named} time"
            ctx.error(write, "timezone",
                      f"the series is kept on {tz_name} clocks, so on {local:%A %Y-%m-%d} it falls at "
                      f"{local:%H:%M} in {named}, not {said}",
                      f"write the series in {named} (timezone {named}) so every occurrence stays at {said}",
                      None, proof={"zone_said": named, "zone_written": tz_name,
                                   "drifts_on": f"{local:%Y-%m-%d}", "time_there": f"{local:%H:%M}"})
            return
