"""Date and time checks of each write: the start against the phrases bound to it, the end, the
length, spans of days, and written values that are not dates at all.

Errors follow CONTRACT section 5's certainty rule: a start is wrong only when it lies outside every
reading of the phrases that can refer to it (the bound ones when the binding is certain, otherwise
all of the message's phrases together), and only when every date-like word of the message was read.
"""
from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

from reflection.checks.allowed import Allowed, Judgement, TimeSlot, am_pm_swapped, describe, judge, slots_for
from reflection.checks.binding import bind
from reflection.checks.context import CheckContext, WriteCall, is_date_only
from reflection.checks.rules import compare_rules
from reflection.findings import Fact
from reflection.reading.request import Phrase
from reflection.wording import describe_when, relation_to_today, weekday_name
from tools.calendar.events import Event, as_date, zone

EARLY_MORNING_END = 7  # an AM reading of a bare clock time before 07:00 is a guess worth a look


def _wall(raw: Any) -> datetime | None:
    match = re.match(r"^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})", str(raw or "").strip())
    return datetime.fromisoformat(f"{match[1]}T{match[2]}:{match[3]}") if match else None


def _allowed(ctx: CheckContext, phrases: list[Phrase], event: Event | None, update: bool) -> Allowed:
    allowed = Allowed()
    has_day = any(p.day_relative is not None or (p.expression is not None and not p.expression.time_of_day_only
                                                  and p.expression.kind != "time") for p in phrases)
    anchor_times = update or has_day
    for phrase in phrases:
        slots_for(phrase, event, ctx.tz, allowed, anchor_times)
    if update and event is not None and allowed.times and not allowed.days and not allowed.instants:
        allowed.keeps_day = as_date(ctx.local(event.start))
    local_start = ctx.local(event.start) if update and event is not None else None
    if isinstance(local_start, datetime) and allowed.days and not allowed.times:
        allowed.keeps_time = local_start.time().replace(second=0, microsecond=0)
    if update and event is not None and ctx.reading.same_time and isinstance(event.start, datetime) \
            and not allowed.times and not allowed.instants:
        local = event.start.astimezone(ctx.tz)
        same = next((p for p in phrases), None)
        if same is not None:
            allowed.times.append(TimeSlot(local.time(), None, ctx.tz, same, "the event's own time"))
    return allowed


def _current(ctx: CheckContext, write: WriteCall) -> Event | None:
    return ctx.event(write.event_id) if write.kind == "update" else None


def check_written_values(ctx: CheckContext) -> None:
    """A start or end that is not a date ("2025-02-30") cannot have been written as asked."""
    for write in ctx.writes:
        if write.failed or write.kind == "delete":
            continue
        for key in ("start", "end"):
            raw = write.input.get(key)
            if raw is None:
                continue
            current = _current(ctx, write)
            tz_name = write.input.get("timezone") or (current.timezone if current else None)
            if ctx.read_when(raw, tz_name) is None:
                ctx.error(write, "date", f"the call's {key} {raw!r} is not a real date and time",
                          f"write {key} as a real ISO 8601 date or date-time")


def check_contradictions(ctx: CheckContext) -> None:
    """The request names an impossible date: nothing dated should have been written for it."""
    bad = [e for e in ctx.resolution.expressions if e.contradiction]
    if not bad:
        return
    for write in ctx.writes:
        if write.failed or write.kind == "delete" or "start" not in write.input:
            continue
        expr = bad[0]
        ctx.error(write, "date", f"the request names an impossible date ('{expr.span}': "
                  f"{expr.contradiction}) but the call wrote {write.written('start')}",
                  "ask the person which date they mean", expr.span)


def check_start(ctx: CheckContext) -> None:
    """Each written start against the phrases bound to its write."""
    for write in ctx.writes:
        if write.failed or write.kind == "delete" or ctx.is_flagged(write):
            continue
        if write.kind == "update" and "start" not in write.input:
            if "end" in write.input:
                ctx.unsure(write, "the end changed without a start")
            continue
        _check_one_start(ctx, write)


def _odd_offset(ctx: CheckContext, write: WriteCall, start: date | datetime, tz_name: str | None) -> None:
    """An offset that is neither UTC nor the zone's own offset at that instant (a summer offset
    in winter) is how a wrong DST guess looks, even when the time still fits a vague phrase."""
    raw = str(write.input.get("start") or "")
    match = re.search(r"([+-])(\d{2}):?(\d{2})$", raw)
    if not match or not isinstance(start, datetime):
        return
    sign = 1 if match.group(1) == "+" else -1
    written = timedelta(hours=int(match.group(2)), minutes=int(match.group(3))) * sign
    real = {start.astimezone(ctx.tz).utcoffset()}
    if tz_name:
        real.add(start.astimezone(zone(tz_name)).utcoffset())
    if written != timedelta(0) and written not in real and not any(
            e.explicit_zone for e in ctx.resolution.expressions):
        ctx.unsure(write, f"the offset {match.group(0)} is not the zone's offset at that time")


def _series_clock_only(ctx: CheckContext, allowed: Allowed) -> None:
    """A change to a whole series is written on its first occurrence: only the clock time can be
    held to the phrases ("all the Tuesday lessons are 5:30 now"), not the day."""
    for slot in allowed.instants:
        zone_of = slot.start.tzinfo if slot.start.tzinfo is not None else ctx.tz
        allowed.times.append(TimeSlot(slot.start.time(), slot.end.time() if slot.end else None,
                                      zone_of, slot.phrase, slot.reading))  # type: ignore[arg-type]
    allowed.instants.clear()
    allowed.days.clear()
    allowed.keeps_day = None
    allowed.keeps_time = None


def _check_one_start(ctx: CheckContext, write: WriteCall) -> None:
    current = _current(ctx, write)
    tz_name = write.input.get("timezone") or (current.timezone if current else None)
    start = ctx.read_when(write.written("start"), tz_name)
    check = ctx.calls[write.index]
    if start is None:
        ctx.unsure(write, "no start could be read")
        return
    _weekday_fact(ctx, start, "start", write.written("start"))
    update = write.kind == "update"
    binding = bind(ctx, write)
    if not binding.phrases:
        ctx.unsure(write, "no phrase of the message says when")
        return
    unread = unread_date_words(ctx)
    if unread:
        ctx.unsure(write, "some date words were not understood: " + ", ".join(repr(w) for w in unread[:3]))
        return
    wall = _wall(write.input.get("start"))
    _odd_offset(ctx, write, start, tz_name)
    allowed = _allowed(ctx, binding.phrases, current, update)
    if update and current is not None and current.recurrence and write.event_id == current.id:
        _series_clock_only(ctx, allowed)
        if allowed.empty:
            ctx.unsure(write, "a change to a whole series keeps its first date")
            return
    verdict = judge(start, allowed, ctx.tz, wall)
    check.dates_checked = True
    if verdict.ok:
        if not binding.certain:
            # judged against the message's phrases together: wrong would show, right is unproven
            verdict = _best_single(ctx, binding.phrases, current, update, start, wall) or verdict
            ctx.unsure(write, "the phrase for this change could not be told apart")
        _accepted(ctx, write, start, verdict, allowed, binding.certain)
        return
    if not binding.certain:
        # an uncertain binding proves nothing unless no single phrase allows the start either
        single = _best_single(ctx, [p for p in ctx.reading.phrases if p.role != "negated"],
                              current, update, start, wall)
        if single is not None:
            ctx.unsure(write, "the phrase for this change could not be told apart")
            return
    check.dates_ok = False
    _report(ctx, write, start, allowed, verdict)


def unread_date_words(ctx: CheckContext) -> list[str]:
    """Date-like words no phrase covers, leaving out words of titles ("Movie night", "Friday
    lunch"): while one is left, a date cannot be proven wrong."""
    titles = " ".join([e.title for e in ctx.case.calendar] +
                      [str(w.written("title") or "") for w in ctx.writes]).casefold()
    return [w for w in ctx.reading.uncovered_date_words if w.casefold() not in titles]


def _best_single(ctx: CheckContext, phrases: list[Phrase], current: Event | None, update: bool,
                 start: date | datetime, wall: datetime | None) -> Judgement | None:
    for phrase in phrases:
        verdict = judge(start, _allowed(ctx, [phrase], current, update), ctx.tz, wall)
        if verdict.ok and verdict.matched is not None:
            return verdict
    return None


def _accepted(ctx: CheckContext, write: WriteCall, start: date | datetime, verdict: Judgement,
              allowed: Allowed, certain: bool) -> None:
    if not verdict.exact:
        ctx.unsure(write, "the phrases do not pin the start down")
    phrase = verdict.matched
    if phrase is None:
        return
    ctx.facts.append(Fact("reading", str(write.written("start")),
                          f"{write.written('start')} matches '{phrase.text}'"
                          + (f" read as {verdict.reading}" if verdict.reading else ""),
                          {"phrase": phrase.text}))
    if isinstance(start, datetime) and start.hour < EARLY_MORNING_END and _bare_clock(phrase):
        ctx.unsure(write, f"'{phrase.text}' was read as a time before 7 in the morning")
    if certain:
        for vague in dict.fromkeys(allowed.ambiguous_phrases):
            alone = _allowed(ctx, [vague], _current(ctx, write), write.kind == "update")
            ctx.warning(write.index, "ambiguity",
                        f"'{vague.text}' can mean {describe(alone, ctx.tz)}; the call chose "
                        f"{describe_when(start)} without asking", "ask the person which one they mean",
                        vague.text)
    relative = [p for p in allowed.phrases() if p.expression is not None and p.expression.relative]
    if relative and not ctx.calculated_before(write.index):
        ctx.warning(write.index, "process",
                    f"'{relative[0].text}' is relative and no calculate_datetime call worked it out "
                    "before the write (the date is right)",
                    "call calculate_datetime for relative dates", relative[0].text)


def _bare_clock(phrase: Phrase) -> bool:
    expr = phrase.expression
    return expr is not None and not re.search(r"\b(?:a\.?m\.?|morning|am)\b|\d\s*a\b", phrase.text, re.I) \
        and bool(re.search(r"\d", phrase.text)) and len(expr.candidates) > 1


def _report(ctx: CheckContext, write: WriteCall, start: date | datetime, allowed: Allowed,
            verdict: Judgement) -> None:
    wanted = describe(allowed, ctx.tz)
    spans = ", ".join(f"'{p.text}'" for p in allowed.phrases())
    shown = describe_when(start)
    if verdict.problem == "timezone":
        issue = (f"the call writes {write.written('start')}, which is {shown} in {ctx.case.timezone}: "
                 f"its offset moves the time off {spans} ({wanted})")
    else:
        note = " (AM and PM swapped)" if isinstance(start, datetime) and verdict.problem == "time" \
            and am_pm_swapped(start, allowed, ctx.tz) else ""
        issue = f"{spans} is {wanted}; the call uses {shown}{note}"
    phrase = allowed.phrases()[0].text if allowed.phrases() else None
    ctx.error(write, verdict.problem or "date", issue, f"use {wanted}", phrase)


def _weekday_fact(ctx: CheckContext, value: date | datetime, label: str, raw: Any) -> None:
    day = as_date(value)
    ctx.facts.append(Fact("weekday", str(raw), f"{label} {raw} is a {weekday_name(day)} "
                          f"({relation_to_today(day, ctx.today)})",
                          {"date": day.isoformat(), "weekday": weekday_name(day)}))


OTHER_FIELDS = ("title", "description", "attendees", "recurrence", "all_day", "calendar_id")


def check_other_fields(ctx: CheckContext) -> None:
    """A new title, description, attendees or repeat rule is for judgement, not for code."""
    for write in ctx.writes:
        if write.kind == "update" and any(k in write.input for k in OTHER_FIELDS):
            changed = [k for k in OTHER_FIELDS if k in write.input]
            ctx.unsure(write, "it changes " + ", ".join(changed))


def check_end(ctx: CheckContext) -> None:
    """The end after the start (an all-day end is exclusive); a shift keeps the length; a length
    the person gave is the length written; a span of days "through" a day includes it."""
    for write in ctx.writes:
        if write.failed or write.kind == "delete" or ctx.is_flagged(write):
            continue
        _check_one_end(ctx, write)


def _check_one_end(ctx: CheckContext, write: WriteCall) -> None:
    current = _current(ctx, write)
    tz_name = write.input.get("timezone") or (current.timezone if current else None)
    start = ctx.read_when(write.written("start"), tz_name) if write.written("start") else None
    if start is None and current is not None:
        start = ctx.local(current.start)
    end_given = "end" in write.input or (write.call.result and write.written("end"))
    end = ctx.read_when(write.written("end"), tz_name) if end_given else None
    if end is None and current is not None and start is not None and "start" in write.input:
        end = start + current.duration if isinstance(start, datetime) else None
    if start is None or end is None:
        return
    if end is not None and write.written("end") is not None:
        _weekday_fact(ctx, end, "end", write.written("end"))
    all_day = bool(write.written("all_day")) or is_date_only(write.written("start")) or \
        (not isinstance(start, datetime))
    if all_day or not isinstance(end, datetime) or not isinstance(start, datetime):
        if as_date(end) <= as_date(start):
            ctx.error(write, "date", f"the all-day event ends {as_date(end).isoformat()}, not after its start "
                      f"{as_date(start).isoformat()}: an all-day end is exclusive",
                      f"set end to {(as_date(start) + timedelta(days=1)).isoformat()}")
            return
        _check_inclusive_span(ctx, write, end)
        return
    if end <= start:
        ctx.error(write, "time", f"the event ends ({write.written('end')}) before it starts "
                  f"({write.written('start')})", "set an end after the start")
        return
    length = end - start
    _check_length(ctx, write, current, length)


def _check_length(ctx: CheckContext, write: WriteCall, current: Event | None, length: timedelta) -> None:
    mentions = ctx.mentions_for(write.event_id) if current is not None else []
    lengths = [x for m in mentions for x in m.lengths] if mentions else list(ctx.reading.lengths)
    if lengths:
        wanted = set()
        for item in lengths:
            if item.relative == 0:
                wanted.add(item.amount)
            elif current is not None:
                wanted.add(current.duration + item.amount * item.relative)
        if wanted and all(abs(length - w) > timedelta(minutes=1) for w in wanted):
            if len(lengths) == 1 and (current is None or len(mentions) == 1):
                ctx.error(write, "time", f"'{lengths[0].span}' makes it {_dur(sorted(wanted)[0])} long; "
                          f"the call makes it {_dur(length)} long",
                          "set the end to the start plus that length", lengths[0].span)
            else:
                ctx.unsure(write, "the length does not match what was said")
        return
    if current is None:
        if length > timedelta(hours=24):
            ctx.unsure(write, "the new event is longer than a day")
        return
    if abs(length - current.duration) <= timedelta(minutes=1):
        return
    shifted = any(p.shift is not None for m in mentions for p in m.targets) or (
        not mentions and any(p.shift is not None for p in ctx.reading.phrases))
    ranged = any(p.expression is not None and p.expression.kind == "range" for m in mentions for p in m.targets)
    certain = len(mentions) == 1 and mentions[0].certain and ctx.reading.clean_binding
    if (shifted and len(mentions) <= 1) or (certain and not ranged and "end" in write.input):
        # CONTRACT 4: a shift moves start and end together; the length changes only when the
        # person changes it
        ctx.error(write, "time", f"the event lasted {_dur(current.duration)} and now lasts {_dur(length)}, "
                  "though no new length was asked", f"keep it {_dur(current.duration)} long (move the end "
                  "by the same amount as the start)")
    else:
        ctx.unsure(write, "the event's length changed though no length was asked")


def _dur(value: timedelta) -> str:
    minutes = int(value.total_seconds() // 60)
    hours, rest = divmod(minutes, 60)
    if hours and rest:
        return f"{hours} h {rest} min"
    return f"{hours} h" if hours else f"{rest} min"


_THROUGH_BEFORE = re.compile(r"\b(through|thru|until|till)\s*$", re.I)
_THROUGH_INSIDE = re.compile(r"\b(through|thru|until|till|to)\b|[-\u2013]", re.I)


def _check_inclusive_span(ctx: CheckContext, write: WriteCall, end: date | datetime) -> None:
    """"through November 5", "November 3 to 5": a span of days includes its last day, so an
    all-day event's exclusive end is the day after it."""
    text = ctx.resolution.text
    for expr in ctx.resolution.expressions:
        if not expr.candidates:
            continue
        before = text[max(0, expr.start_index - 9): expr.start_index]
        lasts: set[date] = set()
        if _THROUGH_BEFORE.search(before):
            lasts = {as_date(ctx.local(c.start)) for c in expr.candidates}
        elif expr.kind == "range" and _THROUGH_INSIDE.search(expr.span):
            lasts = {as_date(c.end) for c in expr.candidates
                     if c.end is not None and not isinstance(c.end, datetime)}
        if lasts and as_date(end) - timedelta(days=1) not in lasts:
            want = " or ".join(sorted((d + timedelta(days=1)).isoformat() for d in lasts))
            ctx.error(write, "date", f"'{expr.span}' includes its last day, so the all-day end should be "
                      f"{want} (exclusive); the call ends {as_date(end).isoformat()}",
                      f"set end to {want}", expr.span)
            return


def _series_first_day(ctx: CheckContext, write: WriteCall) -> date:
    """The day a written series starts on: its written start, else the start of the event it
    changes, else today (a rule with nothing to anchor it)."""
    before = ctx.event(write.event_id) if write.event_id else None
    start = ctx.read_when(write.written("start"), write.written("timezone")
                          or (before.timezone if before else None))
    if start is None and before is not None:
        start = ctx.local(before.start)
    if start is None:
        return ctx.today
    return start.date() if isinstance(start, datetime) else start


def check_recurrence_rule(ctx: CheckContext) -> None:
    """A rule the person said ("every other Tuesday") against the rule written, by occurrences."""
    for write in ctx.writes:
        written = write.written("recurrence")
        if write.failed or not written:
            continue
        said = [e for e in ctx.resolution.expressions if e.recurrence]
        if not said:
            ctx.unsure(write, "a repeat rule was written that no phrase asked for")
            continue
        first = _series_first_day(ctx, write)
        problems = [compare_rules(e.recurrence or "", written, first) for e in said]
        if all(problems):
            expr = said[0]
            ctx.error(write, "date", f"'{expr.span}' repeats {problems[0]}", f"use {expr.recurrence}",
                      expr.span)
