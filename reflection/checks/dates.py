"""Date and time checks of each write: the start against the phrases bound to it, the end, the
length, spans of days, and written values that are not dates at all.

Errors follow CONTRACT section 5's certainty rule: a start is wrong only when it lies outside every
reading of the phrases that can refer to it (the bound ones when the binding is certain, otherwise
all of the message's phrases together), and only when every date-like word of the message was read.
"""
from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, cast
from zoneinfo import ZoneInfo

from reflection.checks.allowed import (
    Allowed,
    DaySlot,
    InstantSlot,
    Judgement,
    TimeSlot,
    am_pm_swapped,
    describe,
    judge,
    on_clock,
    slots_for,
)
from reflection.checks.binding import Binding, anchored_elsewhere, bind
from reflection.checks.context import CheckContext, WriteCall, is_date_only
from reflection.checks.created import renamed_as_given
from reflection.checks.placement import judge_placement
from reflection.checks.rules import SAMPLE as SAMPLE_DAYS
from reflection.checks.rules import compare_rules, days_seen_in, next_days
from reflection.dates.lexicon import MONTHS, WEEKDAY_FULL_RE, WEEKDAY_RE
from reflection.dates.result import Expression
from reflection.findings import Fact
from reflection.reading.request import (
    BARE_RANGE_RE,
    BOUND_RE,
    END_CLAUSE_RE,
    END_OF_DAY_RE,
    ENDED_WORDS,
    EXCEPTION_AFTER_RE,
    HOLIDAY_WORD_RE,
    YEAR_AFTER_RE,
    Phrase,
    phrase_kind,
    says_a_day,
)
from reflection.wording import describe_day, describe_when, relation_to_today, weekday_name
from tools.calendar.events import Event, EventFieldError, as_date, parse_when, zone

EARLY_MORNING_END = 7  # an AM reading of a bare clock time before 07:00 is a guess worth a look
LATE_EVENING_START = 20  # and so is a PM reading from 20:00, in a message that says nothing of the evening


def _wall(raw: Any) -> datetime | None:
    match = re.match(r"^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})", str(raw or "").strip())
    return datetime.fromisoformat(f"{match[1]}T{match[2]}:{match[3]}") if match else None


def _allowed(ctx: CheckContext, phrases: list[Phrase], event: Event | None, update: bool) -> Allowed:
    allowed = Allowed()
    # a new event's clock with no day said anywhere, in a message that names an event of the
    # calendar ("last day of term is early pickup at 1pm"): its day may be that event's, not
    # today's (a day said elsewhere, "wednesday at 6pm ... then make it 5", is the day)
    anchor_times = update or any(_says_day(p) for p in phrases) or (
        event is None and bool(ctx.reading.mentions) and all(phrase_kind(p) == "time" for p in phrases)
        and not any(_says_day(p) for p in ctx.reading.phrases))
    for phrase in phrases:
        slots_for(phrase, event, ctx.tz, allowed, anchor_times)
    if event is None and anchor_times and allowed.times and not allowed.days and allowed.instants:
        # "yoga wednesday at 6pm ... then make it 5": the clock said alone is on the day the
        # other phrase gives, not on any day
        allowed.days += [DaySlot(as_date(ctx.local(slot.start)), slot.phrase, slot.reading)
                         for slot in allowed.instants]
    if update and event is not None and allowed.times and not allowed.days and not allowed.instants:
        allowed.keeps_day = as_date(ctx.local(event.start))
    local_start = ctx.local(event.start) if update and event is not None else None
    if isinstance(local_start, datetime) and allowed.days and not allowed.times:
        allowed.keeps_time = local_start.time().replace(second=0, microsecond=0)
    if update and event is not None and ctx.reading.same_time and isinstance(event.start, datetime):
        local = event.start.astimezone(ctx.tz)
        # "move it to friday morning same time": a start in the window off the event's own clock
        # is not pinned down (`_only_a_window`)
        allowed.same_time = local.time().replace(second=0, microsecond=0)
        same = next((p for p in phrases), None)
        if same is not None and not allowed.times and not allowed.instants:
            allowed.times.append(TimeSlot(local.time(), None, ctx.tz, same, "the event's own time"))
    return allowed


def _on_a_day_ruled_out(ctx: CheckContext, write: WriteCall, start: date | datetime) -> bool:
    """"move the vet to next week, same time, any day but monday" written on next week's Monday:
    a start on the day the message rules out ("but monday", "not friday", "i can't do
    wednesday") is wrong whatever the rest allows (reported: True). The day ruled out is the
    one day its phrase reads as, or, of two, the one inside the span the move goes to. Not "i
    can't make it thursday, push the dentist to next week" written next Thursday: that
    Thursday is not the one ruled out. Only for the one write that has a start."""
    if sum(1 for w in ctx.writes if w.kind != "delete" and not w.failed and "start" in w.input) != 1:
        return False
    day = as_date(ctx.local(start)) if isinstance(start, datetime) else start
    spans = [(c.start, as_date(c.end)) for p in ctx.reading.phrases
             if p.role == "target" and p.expression is not None
             for c in p.expression.candidates if c.end is not None and not isinstance(c.start, datetime)]
    for phrase in ctx.reading.phrases:
        expr = phrase.expression
        if phrase.role != "negated" or expr is None or phrase_kind(phrase) != "date" or not expr.candidates:
            continue
        days = [c.start for c in expr.candidates if not isinstance(c.start, datetime) and c.end is None]
        if len(days) != len(expr.candidates):
            continue
        # one of its readings is the day written: the only one, or the one inside the span the
        # move goes to ("next week ... but monday", said on a Monday: this one or next week's)
        if day not in days or (len(days) > 1 and not any(lo <= day <= hi for lo, hi in spans)):
            continue
        ctx.error(write, "date", f"'{phrase.text}' is ruled out ({describe_day(day)}); the call puts it there",
                  "use a day the message allows", phrase.text, proof={"ruled_out": str(day)})
        return True
    return False


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
            _start_left(ctx, write)
            continue  # the end of an end-only change is judged by check_end
        if ctx.superseded(write):
            continue
        _check_one_start(ctx, write)


def _start_left(ctx: CheckContext, write: WriteCall) -> None:
    """"make it 45 mins later" written as a new end alone: the shift moves the start too
    (CONTRACT 4), so a start left where it was contradicts it."""
    current = _current(ctx, write)
    if current is None or not isinstance(current.start, datetime) or write.call.result and \
            write.written("start") not in (None, write.input.get("start")):
        return  # the tool's result says where the start is: judged there
    binding = bind(ctx, write)
    shifts = [p.shift for p in binding.phrases if p.shift is not None and p.role == "target"]
    if not binding.certain or len(shifts) != 1 or shifts[0].part != "both" or ctx.reading.pinned_start:
        return
    shift = shifts[0]
    before = ctx.local(current.start)
    wanted = " or ".join(describe_when(ctx.local(current.start + shift.amount * d)) for d in sorted(shift.directions))
    ctx.calls[write.index].dates_checked = True
    ctx.calls[write.index].dates_ok = False
    ctx.error(write, "time", f"'{shift.span}' moves the whole event; the call changes only its end and leaves "
              f"the start at {describe_when(before)}", f"move the start to {wanted} as well", shift.span,
              proof={"phrase": shift.span, "role": "target", "readings": [wanted], "written": str(before)})


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
    if anchored_elsewhere(ctx, write):
        placement = judge_placement(ctx, write, start, _end_after(ctx, write, current, start, tz_name)) \
            if isinstance(start, datetime) else "open"
        unread = unread_date_words(ctx)
        if placement == "exact" and not unread:
            check.dates_checked = True
            return
        if not unread and _anchored_day_off(ctx, write, start, current, update):
            return
        ctx.unsure(write, "its time is said relative to another event")
        return
    if isinstance(start, datetime) and judge_placement(
            ctx, write, start, _end_after(ctx, write, current, start, tz_name), bare_only=True) == "error":
        return
    binding = bind(ctx, write)
    end_only = [p for p in binding.phrases if p.shift is not None and p.shift.part == "end"]
    if end_only or (ctx.reading.pinned_start and update):
        binding = Binding([p for p in binding.phrases if p not in end_only], binding.certain)
        if current is not None and not [p for p in binding.phrases if p.role == "target"]:
            mentions = ctx.mentions_for(write.event_id)
            named = bool(mentions) and all(m.certain for m in mentions)
            _start_kept(ctx, write, current, start, binding.certain or named)
            return
    if not binding.phrases:
        if update and current is not None and _same_time_broken(ctx, write, current, start):
            return
        ctx.unsure(write, "no phrase of the message says when")
        return
    allowed = _allowed(ctx, binding.phrases, current, update)
    unread = _outside_context(ctx, write, binding, unread_date_words(ctx))
    unread = _only_of_the_end(ctx, binding, _month_agreed(ctx, binding, unread, allowed))
    if unread and _clock_pinned(binding):
        unread = [w for w in unread if not _time_of_the_day(w, binding)]  # "first thing sunday 7am"
    if unread:
        # a bound ("after 5") or a time of the day ("first thing", "eod") says nothing of the
        # day: a write off every day its phrases allow is still proven wrong
        if not (binding.certain and all(BOUND_RE.fullmatch(w) or _time_of_the_day(w, binding) for w in unread)
                and _off_every_day(ctx, write, start, allowed)):
            ctx.unsure(write, "some date words were not understood: " + ", ".join(repr(w) for w in unread[:3]))
        return
    wall = _wall(write.input.get("start"))
    _odd_offset(ctx, write, start, tz_name)
    _stated_state(ctx, write, current)
    allowed = _each_day_until(ctx, binding, allowed)
    if update and current is not None and current.recurrence and write.event_id == current.id:
        _series_clock_only(ctx, allowed)
        if allowed.empty:
            ctx.unsure(write, "a change to a whole series keeps its first date")
            return
    verdict = judge(start, allowed, ctx.tz, wall)
    check.dates_checked = True
    if verdict.ok:
        if binding.certain and _on_a_day_ruled_out(ctx, write, start):
            return
        if FALLBACK_RE.search(ctx.reading.text):
            # "6pm, but not if it clashes with book club, then make it 5": which time applies
            # turns on the clash; either may be right, neither is verified
            ctx.unsure(write, "the message gives another time if the first does not fit")
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
    if not update and _day_said_elsewhere(ctx, binding.phrases):
        # "the party is sat 24 oct 3-6pm, put me down for pickup at 6": a time said alone may
        # be on the day said for something else, not the next 6 o'clock; only the time is sure
        anchored = _allowed(ctx, binding.phrases, None, True)
        at_time = judge(start, anchored, ctx.tz, wall)
        if at_time.ok:
            ctx.unsure(write, "the time is said alone, and the day may be one said for something else")
            return
        allowed, verdict = anchored, at_time
    own = _own_clock(ctx, tz_name)
    if own is not None and judge(start, on_clock(allowed, ctx.tz, own), own, wall).ok:
        # "leaves heathrow 11:20am", written on London's clock for a person in Los Angeles: the
        # event's own zone is a reading too, and an error must exclude every reading
        ctx.unsure(write, f"the time may be meant on the clock of {tz_name}, the event's own zone")
        return
    if verdict.problem == "time" and FALLBACK_RE.search(ctx.reading.text):
        ctx.unsure(write, "the message gives another time if the first does not fit")
        return
    check.dates_ok = False
    _report(ctx, write, start, allowed, verdict)


FALLBACK_RE = re.compile(
    r"\b(?:if|in\s+case)\b[^.?!]{0,60}?\b(?:clash(?:es)?|conflicts?|overlaps?|busy|taken|booked|full|"
    r"not\s+free|isn['\u2019]?t\s+free|doesn['\u2019]?t\s+work|won['\u2019]?t\s+work|can['\u2019]?t)\b"
    r"[^.?!]{0,30}?\b(?:then|make\s+it|instead|go\s+(?:for|with)|move\s+it|push\s+it|try|use)\b"
    r"|\botherwise\b|\bfailing\s+that\b|\bor\s+else\b|\bif\s+not\b", re.I)
""""6pm, but not if it clashes with swim, then make it 7": a second time the person gives for
when the first does not fit, which the policy does not read; the time is then for judgement
(the day still proves)."""


def _off_every_day(ctx: CheckContext, write: WriteCall, start: date | datetime, allowed: Allowed) -> bool:
    """With only a time bound left unread ("tonight, he said after 7"), the day can still be
    proven: a start on no day the phrases allow (nor just past midnight after one) is an error
    (reported: True), whatever time the bound meant."""
    days = {slot.day for slot in allowed.days}
    for slot in allowed.instants:
        first = slot.start.astimezone(ctx.tz).date()
        last = slot.end.astimezone(ctx.tz).date() if slot.end is not None else first
        days |= {first + timedelta(days=n) for n in range((last - first).days + 1)}
    if allowed.keeps_day is not None:
        days.add(allowed.keeps_day)
    if not days or allowed.times and not (allowed.days or allowed.instants or allowed.keeps_day):
        return False
    local = ctx.local(start)
    day = as_date(local)
    early = isinstance(local, datetime) and local.hour < EARLY_MORNING_END - 2
    if day in days or (early and day - timedelta(days=1) in days):
        return False
    phrase = allowed.phrases()[0] if allowed.phrases() else None
    wanted = " or ".join(describe_day(d) for d in sorted(days)[:4])
    ctx.error(write, "date", f"'{phrase.text if phrase else 'the message'}' is {wanted}; the call uses "
              f"{describe_day(day)}", f"use {wanted}", phrase.text if phrase else None,
              proof={"phrase": phrase.text if phrase else None, "readings": [str(d) for d in sorted(days)],
                     "written": str(day)})
    return True


ADJACENT_ANCHOR_RE = re.compile(
    r"(?:right|just|straight|directly|immediately|shortly)\s+(?:before|after|following|ahead\s+of)\b"
    r"|(?:\d+|an?|one|two|three|half\s+an?)\s*(?:h|hrs?|hours?|min|mins|minutes)\s+(?:before|after)\b"
    r"|(?:as\s+soon\s+as|once|when|whenever|the\s+(?:minute|moment|second))\s.*\b(?:" + ENDED_WORDS
    + r"|starts|begins)$", re.I)
"""An event placed right next to another ("right after soccer", "2 hours before the flight", "as
soon as school ends"): whatever the other's time, the two are on one day, or a midnight apart."""


def _anchored_day_off(ctx: CheckContext, write: WriteCall, start: date | datetime, current: Event | None,
                      update: bool) -> bool:
    """"Start movie night as soon as school ends friday" written a week later: the day said beside
    an event the write is placed right next to dates both, so a start two days or more from every
    day it allows is wrong whatever the other event's time (reported: True). Placements that may
    be days apart ("the week after", "when piano used to be", "after the surgery") prove nothing.
    Called only with no date word left unread."""
    reading = ctx.reading
    if any(p.day_relative is not None for p in reading.phrases):
        return False
    binding = bind(ctx, write)
    days_said = [p for p in binding.phrases if _says_day(p) and p.role == "target"]
    if not binding.certain or len(days_said) != 1:
        return False
    phrase = days_said[0]
    spans = [(a, b) for a, b in reading.other_event_anchors
             if ADJACENT_ANCHOR_RE.match(reading.text[a:b].strip())]
    beside = [(a, b) for a, b in spans
              if not re.search(r"[.;!?]|\band\b", reading.text[min(b, phrase.end_index):max(a, phrase.start_index)])
              and (0 <= phrase.start_index - b <= 30 or 0 <= a - phrase.end_index <= 30)]
    if len(spans) != 1 or not beside:
        return False
    allowed = _allowed(ctx, [phrase], current, update)
    days = allowed.days_named(ctx.tz)
    day = as_date(ctx.local(start))
    if not days or min(abs((day - d).days) for d in days) < 2:
        return False
    return _off_every_day(ctx, write, start, allowed)


_TIME_LIKE_RE = re.compile(r"\d|noon|midnight|morning|afternoon|evening|night|tonight|\bam\b|\bpm\b|ish|"
                           r"clock|half|quarter|lunch|dinner|breakfast|early|late|earlier|later|sooner", re.I)
_SAME_TIME_ALONE_RE = re.compile(r"\b(?:same\s+time|same\s+hour|usual\s+time)\b(?!\s+as\b)", re.I)


def _same_time_broken(ctx: CheckContext, write: WriteCall, current: Event, start: date | datetime) -> bool:
    """"move swim to thrusday same time" moved to 4 instead of 5: no phrase says the day the
    policy reads, but "same time" keeps the event's clock time whatever the day, so a start at
    another time is wrong (reported: True). Only for the one event the message names for sure,
    with no other time-like word in the message and no "same time as" another thing."""
    if not _SAME_TIME_ALONE_RE.search(ctx.reading.text) or "at the same time" in ctx.reading.text.lower():
        return False
    if not isinstance(start, datetime) or not isinstance(current.start, datetime) or ctx.reading.other_event_anchors:
        return False
    mentions = ctx.mentions_for(write.event_id)
    if not mentions or not all(m.certain for m in mentions) or len(ctx.reading.mentions) != 1:
        return False
    rest = list(ctx.reading.text)
    for m in ctx.reading.mentions:
        rest[m.ref.start:m.ref.end] = " " * (m.ref.end - m.ref.start)
    if _TIME_LIKE_RE.search(_SAME_TIME_ALONE_RE.sub(" ", "".join(rest))):
        return False  # "same time or 4ish": another time said beside it, read or not
    was = ctx.local(current.start)
    now = start.astimezone(ctx.tz)
    if not isinstance(was, datetime) or (now.hour, now.minute) == (was.hour, was.minute):
        return False
    ctx.error(write, "time", f"'same time' keeps {describe_when(was)}'s time; the call starts at "
              f"{describe_when(now)}", f"keep the start at {was:%H:%M}", "same time",
              proof={"same_time": f"{was:%H:%M}", "written": str(now)})
    return True


_SENTENCE_END_RE = re.compile(
    r"[!?;\n]+|(?<![ap]\.m)(?<!\b[a-z])(?<!\bmrs)(?<!\bmr)(?<!\bms)(?<!\bdr)(?<!\bst)(?<!\bno)(?<!\bapprox)"
    r"(?<!\bappt)(?<!\bave)(?<!\brd)(?<!\d)\.+(?=\s|$)", re.I)
"""Where a sentence ends: not at the dot of "a.m.", "Dr.", "St." or "17.30"."""


def _sentences(text: str) -> list[tuple[int, int]]:
    spans, begin = [], 0
    for m in _SENTENCE_END_RE.finditer(text):
        spans.append((begin, m.end()))
        begin = m.end()
    if begin < len(text):
        spans.append((begin, len(text)))
    return spans


_ASKING_RE = re.compile(
    r"\?|\b(?:move|moving|push|pull|shift|change|make|put|add|book|schedule|set|bump|reschedule|switch|"
    r"swap|cancel|delete|remove|drop|clear|block|want|wanna|need|needs|should|could|can|would|will|pls|"
    r"please|plz|let['\u2019]?s|instead|actually|rather|mean|wait|sorry|no|nope|nah|not|or|maybe|either|"
    r"prefer|better|if|unless|try|do|go|keep|leave|also|too|then|same|it|that|this)\b", re.I)
"""Words of a sentence that asks for, corrects or points at something: such a sentence may
carry the day meant, so an unread word in it still blocks a proof."""


def _places_of(text: str, word: str) -> list[int]:
    """Where an unread word (which may hold spaces: "the one after") stands in the message."""
    return [m.start() for m in re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.I)]


_PROPOSED_CLOCK_RE = re.compile(r"\b(?:said|says|suggested|offered|proposed|asked\s+for)\b.*\b(?:1[0-2]|[1-9])"
                                r"(?:[:.][0-5]\d)?\b(?!\s*(?:min|mins|minutes|hours?|hrs?|days?|weeks?|kids?|people)\b)",
                                re.I)
""""they said 6 their time works": a sentence reporting the time someone proposes is where the
change may go, not what happens around it."""


def _clock_pinned(binding: Binding) -> bool:
    """A phrase bound to the write says one clock time ("sunday 7am"): a time of the day said
    beside it ("first thing") describes that time and adds no reading."""
    for phrase in binding.phrases:
        expr = phrase.expression
        if phrase.role == "target" and expr is not None and expr.kind in ("time", "datetime"):
            clocks = {(c.start.hour, c.start.minute) for c in expr.candidates if isinstance(c.start, datetime)}
            if len(clocks) == 1:
                return True
    return False


def _time_of_the_day(word: str, binding: Binding) -> bool:
    """"first thing", "eod" beside a day the write's phrases read ("eod tuesday"): a time of that
    day, never another day; not when the grammar took the words themselves for the day ("the end
    of the day" read as today's)."""
    return bool(END_OF_DAY_RE.fullmatch(word)) and not any(word.casefold() in p.text.casefold()
                                                            for p in binding.phrases)


def _outside_context(ctx: CheckContext, write: WriteCall, binding: Binding, words: list[str]) -> list[str]:
    """The unread words that may bear on `write`: a word found only in sentences that ask
    nothing, correct nothing and point at nothing ("my sister lands saturday so the weekend is
    gonna be chaos. can u push the dentist to monday morning"), with no phrase bound to the
    write and no name of the event it writes, says what happens around the change, not where
    the change goes, and is left out (CONTRACT 4: the phrase bound to the change is read)."""
    if not words or not binding.certain or not binding.phrases:
        return words
    text = ctx.reading.text
    own = [(p.start_index, p.end_index) for p in binding.phrases]
    own += [(m.ref.start, m.ref.end) for m in ctx.mentions_for(write.event_id)]
    quiet = [(start, end) for start, end in _sentences(text)
             if not _ASKING_RE.search(text[start:end]) and not any(start < b and a < end for a, b in own)
             and not _PROPOSED_CLOCK_RE.search(text[start:end])]
    if not quiet:
        return words

    def only_in_quiet(word: str) -> bool:
        found = _places_of(text, word)
        return bool(found) and all(any(a <= at < b for a, b in quiet) for at in found)
    return [w for w in words if not only_in_quiet(w)]


def _month_agreed(ctx: CheckContext, binding: Binding, words: list[str], allowed: Allowed) -> list[str]:
    """"in early december, saturday the 5th at 10": a month name left unread ("early december"
    is no wording of the policy) that every day the write's phrases allow already lies in adds
    no reading, and no longer blocks the write's date."""
    if not words or not binding.certain:
        return words
    days = allowed.days_named(ctx.tz)
    months = {d.month for d in days}
    return [w for w in words if not (len(months) == 1 and w.casefold() != "may"
                                     and MONTHS.get(w.casefold().rstrip(".")) in months)]


def _only_of_the_end(ctx: CheckContext, binding: Binding, words: list[str]) -> list[str]:
    """"saturday 22:50 from berlin, arrives 8:15 next morning": a word left unread right beside
    the time the event ends ("next morning"), nearer to it than to any other phrase and with no
    stop between, says when it ends; it cannot move the start, whose phrase is read."""
    ends = [p for p in ctx.reading.phrases if p.role == "end"]
    if not words or not ends or not binding.certain or not binding.phrases:
        return words
    text = ctx.reading.text

    def beside_end(at: int, size: int) -> bool:
        def gap(p: Phrase) -> int:
            return max(p.start_index - (at + size), at - p.end_index, 0)
        nearest = min(ctx.reading.phrases, key=gap)
        between = text[min(nearest.end_index, at):max(nearest.start_index, at + size)]
        return nearest.role == "end" and gap(nearest) <= 15 and not re.search(r"[,.;!?]", between)

    def only_by_ends(word: str) -> bool:
        found = _places_of(text, word)
        return bool(found) and all(beside_end(at, len(word)) for at in found)
    return [w for w in words if not only_by_ends(w)]


_UNTIL_START_RE = re.compile(r"\s*(?:until|till|til|through|thru|up\s+to)\b", re.I)
_EACH_DAY_RE = re.compile(r"\b(?:each|every|daily)\b", re.I)


def _each_day_until(ctx: CheckContext, binding: Binding, allowed: Allowed) -> Allowed:
    """"walk the dog each morning until friday, 7:30": a phrase that says up to when something
    repeats is the last of its days, and each day from today to it is a reading of a start (at
    the phrase's time, if it says one)."""
    if len(binding.phrases) != 1 or not _UNTIL_START_RE.match(binding.phrases[0].text) \
            or not _EACH_DAY_RE.search(ctx.reading.text):
        return allowed
    today = ctx.today
    out = Allowed(keeps_day=allowed.keeps_day, keeps_time=allowed.keeps_time, same_time=allowed.same_time,
                  times=list(allowed.times),
                  ambiguous_phrases=list(allowed.ambiguous_phrases))
    for slot in allowed.instants:
        local = slot.start.astimezone(ctx.tz)
        for n in range(max(0, (local.date() - today).days) + 1):
            start = datetime.combine(local.date() - timedelta(days=n), local.timetz().replace(tzinfo=None),
                                     tzinfo=ctx.tz)
            end = start + (slot.end - slot.start) if slot.end is not None else None
            out.instants.append(InstantSlot(start, end, slot.phrase, slot.reading + " (or a day before it)"))
    for day_slot in allowed.days:
        for n in range(max(0, (day_slot.day - today).days) + 1):
            out.days.append(DaySlot(day_slot.day - timedelta(days=n), day_slot.phrase,
                                    day_slot.reading + " (or a day before it)"))
    return out


def _says_day(phrase: Phrase) -> bool:
    """Whether a phrase names a day (not only a time of day)."""
    return phrase.day_relative is not None or (phrase.expression is not None and not
                                               phrase.expression.time_of_day_only and phrase.expression.kind != "time")


_POINTED_DAY_RE = re.compile(r"\b(?:that|the\s+same|same)\s+(?:day|date|night|evening|morning|afternoon)\b", re.I)
"""A day pointed at rather than named ("Deepavali is on the holidays calendar, lunch that day at
12:30"): its date is another event's, which no date phrase says. ("The day before the school
trip" is the resolver's: it reads the event it is anchored on.)"""


_EVERY_WEEKDAY_RE = re.compile(rf"\b{WEEKDAY_FULL_RE}s\b|\b(?:every|each)\s+{WEEKDAY_FULL_RE}\b", re.I)


def _day_said_elsewhere(ctx: CheckContext, phrases: list[Phrase]) -> bool:
    """The phrases bound to a new event say a time of day and no day, and another phrase of the
    message says a day, or the message points at a day ("that day")."""
    if any(_says_day(p) for p in phrases):
        return False
    if _EVERY_WEEKDAY_RE.search(ctx.reading.text) or any(e.recurrence for e in ctx.resolution.expressions):
        return True  # "i'm driving tuesdays this term, 8:10 pickup": the time is each tuesday's
    return bool(_POINTED_DAY_RE.search(ctx.reading.text)) or any(
        _says_day(p) for p in ctx.reading.phrases if p not in phrases and p.role != "negated")


def _own_clock(ctx: CheckContext, tz_name: str | None) -> ZoneInfo | None:
    """The event's own zone when it is not the person's (a flight, a call on grandma's time)."""
    if not tz_name or tz_name == ctx.case.timezone:
        return None
    try:
        return zone(tz_name)
    except EventFieldError:
        return None


def _end_after(ctx: CheckContext, write: WriteCall, current: Event | None, start: datetime,
               tz_name: str | None) -> datetime | None:
    """The end the write leaves: the written one, else the event's own length kept."""
    end = ctx.read_when(write.written("end"), write.end_zone(tz_name, current))
    if isinstance(end, datetime):
        return end
    if current is not None and isinstance(current.start, datetime):
        return start + current.duration
    return None


def _start_kept(ctx: CheckContext, write: WriteCall, current: Event, start: date | datetime,
                certain: bool) -> None:
    """"make it end half an hour earlier", "keep the start": the start must stay where it is."""
    before = ctx.local(current.start)
    ctx.calls[write.index].dates_checked = True
    if start == before:
        return
    if certain:
        ctx.error(write, "time", f"the start was to stay at {describe_when(before)}; the call moves it to "
                  f"{describe_when(start)}", f"keep the start at {describe_when(before)}", None,
                  proof={"pinned": "start", "kept": str(before), "written": str(start)})
    else:
        ctx.unsure(write, "the start was to stay where it was")


def _stated_state(ctx: CheckContext, write: WriteCall, current: Event | None) -> None:
    """"it's tues at 6:10, right?": when what the person says of the event now is not what the
    calendar holds, a change relative to it could start from either, so nothing is proven."""
    if current is None:
        return
    stated = [p for m in ctx.mentions_for(write.event_id) for p in m.current]
    for phrase in stated:
        # a clock said alone ("piano is thursdays at 4") is said of the event's own day
        allowed = _allowed(ctx, [phrase], current if phrase_kind(phrase) == "time" else None,
                           phrase_kind(phrase) == "time")
        if allowed.empty:
            continue
        if not judge(ctx.local(current.start), allowed, ctx.tz, None).ok:
            ctx.unsure(write, f"the message says '{phrase.text}' but the calendar has "
                       f"{describe_when(ctx.local(current.start))}")


def unread_date_words(ctx: CheckContext) -> list[str]:
    """Date-like words no phrase covers, leaving out words of titles ("Movie night", "Friday
    lunch"): while one is left, a date cannot be proven wrong."""
    words = ctx.reading.uncovered_date_words
    if not words:
        return []
    written = [str(w.written("title") or "") for w in ctx.writes]
    if ctx.case.around is None:
        known = [e.title for e in ctx.case.whole_calendar()]  # a phrase may span two titles
    else:
        known = sorted(ctx.case.window_texts().titles)  # a word sits inside one title
        folded = [t.casefold() for t in known + written]
        if any(_may_span(w.casefold(), folded) for w in words):
            known = [e.title for e in ctx.case.whole_calendar()]  # then the window's order tells
    titles = " ".join(known + written).casefold()
    # a holiday is the only day said ("thanksgiving dinner at my moms 4pm"): the day it names,
    # even inside the title the call writes; only an event already called so is a title alone
    calendar_titles = None if says_a_day(ctx.resolution) else " ".join(known).casefold()
    return [w for w in words if w.casefold() not in (
        calendar_titles if calendar_titles is not None and HOLIDAY_WORD_RE.fullmatch(w) else titles)]


def _may_span(word: str, titles: list[str]) -> bool:
    """Whether `word`, in no title by itself, may sit across the spaces joining titles in some
    order: its part before one of its spaces ends a title and the rest begins the titles that
    follow (`_continues`). Only then does the order of the window's titles decide (issue 25:
    "a week from tuesday" read all 2,000 events of a 100,000-event window to join their titles
    in order)."""
    if " " not in word or any(word in title for title in titles):
        return False
    return any(_continues(word[k + 1:], titles) for k, char in enumerate(word)
               if char == " " and any(title.endswith(word[:k]) for title in titles))


def _continues(rest: str, titles: list[str]) -> bool:
    """Whether `rest` can open what follows a joining space: it begins a title, or is a whole
    title, a joining space and again what can follow one."""
    return not rest or any(title.startswith(rest) or (
        rest.startswith(title + " ") and _continues(rest[len(title) + 1:], titles)) for title in titles)


def _best_single(ctx: CheckContext, phrases: list[Phrase], current: Event | None, update: bool,
                 start: date | datetime, wall: datetime | None) -> Judgement | None:
    for phrase in phrases:
        verdict = judge(start, _allowed(ctx, [phrase], current, update), ctx.tz, wall)
        if verdict.ok and verdict.matched is not None:
            return verdict
    return None


def _a_minute_apart(phrase: Phrase) -> bool:
    """Whether every reading of the phrase starts within a minute of the others."""
    starts = [c.start for c in phrase.expression.candidates] if phrase.expression is not None else []
    if not starts or not all(isinstance(x, datetime) for x in starts):
        return False
    timed = cast(list[datetime], starts)
    return max(timed) - min(timed) <= timedelta(minutes=1)


def _accepted(ctx: CheckContext, write: WriteCall, start: date | datetime, verdict: Judgement,
              allowed: Allowed, certain: bool) -> None:
    if not verdict.exact and not _free_slot_asked(ctx, start):
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
    if isinstance(start, datetime) and start.astimezone(ctx.tz).hour >= LATE_EVENING_START \
            and _bare_clock(phrase) and not _EVENING_SAID_RE.search(ctx.reading.text):
        # "daycare drop off tomorrow at 8:30" written 20:30: the policy allows it, but which half
        # of the day a bare clock means is the person's, and this half is the rarer guess
        ctx.unsure(write, f"'{phrase.text}' was read as a time after 8 in the evening")
    if certain:
        for vague in dict.fromkeys(allowed.ambiguous_phrases):
            if _a_minute_apart(vague):
                continue  # "midnight tonight": 00:00 or 23:59, one moment either way
            alone = _allowed(ctx, [vague], _current(ctx, write), write.kind == "update")
            if not judge(start, alone, ctx.tz, None).ok:
                alone = allowed  # "tomorrow ... at 8.20": its readings are the day's, not its own
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


FREE_SLOT_HOURS = (7, 21)
"""Where a free slot asked for "on Thursday" may lie: any free time at an hour people book."""


def _free_slot_asked(ctx: CheckContext, start: date | datetime) -> bool:
    """"find us a free 20 min on thursday and book the call": any free slot inside the words'
    window is right, so a start that fits it needs no more pinning. Whether it is free is the
    overlap check's (an error when a free time was asked), its length the end check's."""
    if not ctx.reading.free_time_asked or not isinstance(start, datetime):
        return False
    local = start.astimezone(ctx.tz)
    return FREE_SLOT_HOURS[0] <= local.hour and (local.hour, local.minute) < (FREE_SLOT_HOURS[1], 1)


_EVENING_SAID_RE = re.compile(r"\b(?:p\.?m\.?|evening|night|tonight|tonite|dinner|supper)\b|\d\s*p\b", re.I)


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
    proof = {"phrases": [{"text": p.text, "role": p.role} for p in allowed.phrases()],
             "bound_to": write.event_id or "the new event", "readings": wanted,
             "written": str(write.written("start")), "written_local": shown,
             "problem": verdict.problem or "date"}
    ctx.error(write, verdict.problem or "date", issue, f"use {wanted}", phrase, proof=proof)


def _weekday_fact(ctx: CheckContext, value: date | datetime, label: str, raw: Any) -> None:
    day = as_date(value)
    ctx.facts.append(Fact("weekday", str(raw), f"{label} {raw} is a {weekday_name(day)} "
                          f"({relation_to_today(day, ctx.today)})",
                          {"date": day.isoformat(), "weekday": weekday_name(day)}))


OTHER_FIELDS = ("title", "description", "attendees", "recurrence", "all_day", "calendar_id")


def _names_its_calendar(ctx: CheckContext, write: WriteCall) -> bool:
    """An update's `calendar_id` that is the calendar its event is on says where the event is
    (several accounts: `dad/dad@example.com`), it moves nothing: no field is changed by it."""
    current = ctx.event(write.event_id) if write.event_id else None
    return current is not None and current.calendar_id == write.input.get("calendar_id")


def check_other_fields(ctx: CheckContext) -> None:
    """A new title, description, attendees or repeat rule is for judgement, not for code."""
    for write in ctx.writes:
        changed = [k for k in OTHER_FIELDS if k in write.input
                   and not (k == "title" and renamed_as_given(ctx, write))
                   and not (k == "calendar_id" and _names_its_calendar(ctx, write))]
        if write.kind == "update" and changed:
            ctx.unsure(write, "it changes " + ", ".join(changed))


def check_end(ctx: CheckContext) -> None:
    """The end after the start (an all-day end is exclusive); a shift keeps the length; a length
    the person gave is the length written; a span of days "through" a day includes it."""
    for write in ctx.writes:
        if write.failed or write.kind == "delete" or ctx.is_flagged(write) or ctx.superseded(write):
            continue
        _check_one_end(ctx, write)


def _check_one_end(ctx: CheckContext, write: WriteCall) -> None:
    if anchored_elsewhere(ctx, write):
        if not _placed_length(ctx, write):
            ctx.unsure(write, "its time is said relative to another event")
        return
    current = _current(ctx, write)
    tz_name = write.input.get("timezone") or (current.timezone if current else None)
    start = ctx.read_when(write.written("start"), tz_name) if write.written("start") else None
    if start is None and current is not None:
        start = ctx.local(current.start)
    end_given = "end" in write.input or (write.call.result and write.written("end"))
    end = ctx.read_when(write.written("end"), write.end_zone(tz_name, current)) if end_given else None
    if end is None and current is not None and start is not None and "start" in write.input:
        if not isinstance(start, datetime):
            return
        # A new start alone: the tools keep the length, while "only the given fields change"
        # (CONTRACT 3) may also be read as the end staying. With no result to say which, the
        # end is judged under both readings, and only what both agree on counts.
        _judge_open_end(ctx, write, current, start)
        return
    if start is None or end is None:
        return
    _judge_end(ctx, write, current, start, end)


def _placed_length(ctx: CheckContext, write: WriteCall) -> bool:
    """"put the dinner right after it": a move with no word about length keeps the event's
    length (CONTRACT 4, the duration changes only when the person changes it). Returns whether
    the end was settled: kept (right) or proven changed (an error)."""
    current = _current(ctx, write)
    if current is None or not isinstance(current.start, datetime) or ctx.reading.lengths \
            or any(p.role == "end" for p in ctx.reading.phrases) or ctx.reading.pinned_end \
            or ctx.reading.pinned_start or "end" not in write.input:
        return False
    mentions = ctx.mentions_for(write.event_id)
    if not mentions or not all(m.certain for m in mentions) or any(m.targets for m in mentions):
        return False  # a phrase of its own ("at 6-7") may set the length
    tz_name = write.input.get("timezone") or current.timezone
    start = ctx.read_when(write.written("start"), tz_name)
    end = ctx.read_when(write.written("end"), write.end_zone(tz_name, current))
    if not isinstance(start, datetime) or not isinstance(end, datetime):
        return False
    if end - start == current.duration:
        return True
    ctx.error(write, "time", f"'{current.title}' is {_dur(current.duration)} long and no words change its "
              f"length; the call makes it {_dur(end - start)}", f"keep it {_dur(current.duration)} long",
              None, proof={"length_kept": str(current.duration), "written": str(end - start)})
    return True


def _judge_open_end(ctx: CheckContext, write: WriteCall, current: Event, start: datetime) -> None:
    kept_end = ctx.local(current.end)
    ends = [start + current.duration]
    if isinstance(kept_end, datetime) and kept_end > start and abs(kept_end - ends[0]) > timedelta(minutes=1):
        ends.append(kept_end)
    outcomes = []
    for end in ends:
        saved = (list(ctx.findings), set(ctx.flagged), ctx.calls[write.index].errors,
                 list(ctx.calls[write.index].unsure))
        _judge_end(ctx, write, current, start, end)
        outcomes.append((ctx.findings[len(saved[0]):], ctx.calls[write.index].errors - saved[2],
                         ctx.calls[write.index].unsure[len(saved[3]):]))
        ctx.findings[:], ctx.flagged, ctx.calls[write.index].errors = saved[0], saved[1], saved[2]
        ctx.calls[write.index].unsure[:] = saved[3]
    if len(outcomes) == 1 or all(bool(o[1]) for o in outcomes) or not any(o[1] or o[2] for o in outcomes):
        _judge_end(ctx, write, current, start, ends[0])
        return
    ctx.unsure(write, "the end depends on whether a new start alone keeps the length")


def _judge_end(ctx: CheckContext, write: WriteCall, current: Event | None, start: date | datetime,
               end: date | datetime) -> None:
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
    if _check_range_end(ctx, write, start, end) is not None:
        return
    if _check_end_words(ctx, write, current, start, end) is not None:
        return
    mentions = ctx.mentions_for(write.event_id)
    length_asked = any(m.lengths for m in mentions) if mentions else bool(ctx.reading.lengths)
    if write.kind == "update" and "start" not in write.input and "end" in write.input and not length_asked:
        ctx.unsure(write, "the end changed and no words of the message say to what")
        return
    length = end - start
    _check_length(ctx, write, current, length)


def _end_phrases(ctx: CheckContext, write: WriteCall) -> list[Phrase]:
    """Phrases that say when this write's event ends ("end at 5:30", "till 6:30")."""
    mentions = ctx.mentions_for(write.event_id)
    if mentions:
        return [p for m in mentions for p in m.phrases if p.role == "end"]
    if len([w for w in ctx.writes if w.kind != "delete"]) == 1:
        return [p for p in ctx.reading.phrases if p.role == "end"]
    return []


def _end_readings(ctx: CheckContext, write: WriteCall, current: Event | None, start: datetime
                  ) -> tuple[list[datetime], str] | None:
    """Every end the person's words allow for this write, and the words; None when they say
    nothing about its end."""
    ends: list[datetime] = []
    bound = bind(ctx, write).phrases
    for phrase in _end_phrases(ctx, write):
        expr = phrase.expression
        if expr is None:
            continue
        # a time said on a city's clock ("lands 07:40 dubai time") is that clock's wall time on
        # the day the event reaches there, never today's offset carried over a clock change
        clock_zone = zone(expr.explicit_zone) if expr.explicit_zone else ctx.tz
        for cand in expr.candidates:
            if not isinstance(cand.start, datetime):
                continue
            if expr.kind == "datetime" and (expr.explicit_zone or not expr.time_of_day_only):
                # its day said ("sun 3pm", "saturday 10am", "lands 07:40 dubai time"): that very
                # time, not its clock carried to the day the event starts on
                ends.append(cand.start.astimezone(ctx.tz))
                continue
            wall = cand.start.astimezone(clock_zone).time()
            base = start.astimezone(clock_zone)
            at = datetime.combine(base.date(), wall, tzinfo=clock_zone)
            if at <= base:
                at = datetime.combine(base.date() + timedelta(days=1), wall, tzinfo=clock_zone)
            ends.append(at.astimezone(ctx.tz))
        if ends:
            return ends, phrase.text
    if current is None:  # a new event: only an end time said holds its end
        return None
    end_shifts = [p for p in bound if p.shift is not None and p.shift.part == "end"]
    if end_shifts:
        shift = end_shifts[0].shift
        assert shift is not None
        old_end = ctx.local(current.end)
        return [old_end + shift.amount * d for d in sorted(shift.directions)
                if isinstance(old_end, datetime)], end_shifts[0].text
    if ctx.reading.pinned_end and isinstance(current.end, datetime):
        return [current.end.astimezone(ctx.tz)], "the same end"
    return None


_SPAN_FROM_A_TIME_RE = re.compile(r"(?:\d\s*(?:am|pm|a\.m\.|p\.m\.)|\d:\d\d|\bnoon)\s*"
                                  r"(?:to|till|til|until|thru|through|-|\u2013)\s*$", re.I)
""""friday 6pm to saturday 10am": a time, then "to" and the phrase: a span, the phrase its end."""
END_VERBS = r"end|ends|ending|finish\w*|wrap\w*|over|done|run\w*|go\w*|last\w*|stay|keep"
"""Words before an end time that make it this event's end ("end at", "run till", "stay until"):
a bare "until 7" may be about something else ("he has futsal until 7")."""


def _check_end_words(ctx: CheckContext, write: WriteCall, current: Event | None, start: datetime,
                     end: datetime) -> bool | None:
    """The end against what the person said of it: an end time, an end-only shift, a pinned end.
    True when it matches, False when flagged, None when the words say nothing of the end."""
    found = _end_readings(ctx, write, current, start)
    if found is None:
        return None
    ends, words = found
    if any(abs(end - e) <= timedelta(minutes=1) for e in ends):
        return True
    certain = bind(ctx, write).certain or (len(ctx.mentions_for(write.event_id)) == 1
                                            and ctx.mentions_for(write.event_id)[0].certain)
    # only an end verb proves what the person wants of this event's end (`END_VERBS`); "lands
    # 7:05am" and "arrives" do only with the zone said: a landing time is often the
    # destination's clock ("lands 2:05pm sat" at Heathrow, flown from San Francisco)
    phrase = next((p for p in _end_phrases(ctx, write) if p.text == words), None)
    verbs = END_VERBS + (r"|land\w*|arriv\w*" if phrase is not None and phrase.expression is not None
                         and phrase.expression.explicit_zone else "")
    if phrase is not None and not re.search(rf"\b(?:{verbs})\b[^.,;!?]{{0,12}}$",
                                            ctx.reading.text[max(0, phrase.start_index - 25):phrase.start_index],
                                            re.I) \
            and not END_CLAUSE_RE.fullmatch(re.split(r"[.;!?\n]", ctx.reading.text[:phrase.start_index])[-1]) \
            and not _SPAN_FROM_A_TIME_RE.search(ctx.reading.text[max(0, phrase.start_index - 25):phrase.start_index]):
        certain = False
    wanted = " or ".join(f"{e:%H:%M}" for e in ends)
    if certain:
        ctx.error(write, "time", f"'{words}' ends it at {wanted}; the call ends it at {end.astimezone(ctx.tz):%H:%M}",
                  f"end it at {wanted}", words,
                  proof={"phrase": words, "role": "end", "readings": [str(e) for e in ends], "written": str(end)})
    else:
        ctx.unsure(write, f"the end does not match '{words}'")
    return False


def _check_range_end(ctx: CheckContext, write: WriteCall, start: datetime, end: datetime) -> bool | None:
    """A time range the person gave ("sunday 9-11", "6-7:30") sets the end as well as the start:
    the end of the reading the start matches. None when no range phrase is bound to the write
    or none of its readings starts at the written start (the start check speaks to that)."""
    binding = bind(ctx, write)
    pairs: list[tuple[Phrase, datetime, datetime]] = []
    for phrase in binding.phrases:
        expr = phrase.expression
        if expr is None or expr.kind != "range" or expr.part_of_day is not None:
            continue
        for cand in expr.candidates:
            if isinstance(cand.start, datetime) and isinstance(cand.end, datetime):
                pairs.append((phrase, cand.start.astimezone(ctx.tz), cand.end.astimezone(ctx.tz)))
    local = start.astimezone(ctx.tz)
    matching = [(p, a, b) for p, a, b in pairs if (a.hour, a.minute) == (local.hour, local.minute)]
    if not matching:
        return None
    if any(abs((end - start) - (b - a)) <= timedelta(minutes=1) for _, a, b in matching):
        return True
    phrase, a, b = matching[0]
    if binding.certain:
        ctx.error(write, "time", f"'{phrase.text}' runs from {a:%H:%M} to {b:%H:%M}; the call ends the event at "
                  f"{end.astimezone(ctx.tz):%H:%M}", f"end it at {b:%H:%M}", phrase.text,
                  proof={"phrase": phrase.text, "role": phrase.role, "readings": [f"{x:%H:%M}-{y:%H:%M}"
                         for _, x, y in matching], "written": f"{local:%H:%M}-{end.astimezone(ctx.tz):%H:%M}"})
    else:
        ctx.unsure(write, f"the end does not match the range '{phrase.text}'")
    return False


_REPEATS_DAILY_RE = re.compile(r"\b(?:daily|every\s+(?:day|morning|evening|night)|each\s+(?:day|morning|evening|"
                               r"night)|(?:once|twice|\w+\s+times)\s+(?:a|per)\s+day)\b", re.I)


def _check_length(ctx: CheckContext, write: WriteCall, current: Event | None, length: timedelta) -> None:
    mentions = ctx.mentions_for(write.event_id) if current is not None else []
    lengths = [x for m in mentions for x in m.lengths] if mentions else list(ctx.reading.lengths)
    if write.written("recurrence") or _REPEATS_DAILY_RE.search(ctx.reading.text):
        # "twice a day 8am and 8pm for 7 days": days of a repeat are how long it repeats, not
        # how long each time lasts
        lengths = [x for x in lengths if x.relative != 0 or x.amount < timedelta(days=1)]
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
                          "set the end to the start plus that length", lengths[0].span,
                          proof={"phrase": lengths[0].span, "role": "length",
                                 "readings": [_dur(w) for w in sorted(wanted)], "written": _dur(length)})
            else:
                ctx.unsure(write, "the length does not match what was said")
        return
    if current is None:
        if length > timedelta(hours=24):
            ctx.unsure(write, "the new event is longer than a day")
        return
    if abs(length - current.duration) <= timedelta(minutes=1):
        return
    if any(p.shift is not None and p.shift.part == "start" for m in mentions for p in m.targets) \
            and not ctx.reading.same_length:
        ctx.unsure(write, "whether the end moves with the start was not said")
        return
    shifted = any(p.shift is not None for m in mentions for p in m.targets) or (
        not mentions and any(p.shift is not None for p in ctx.reading.phrases))
    ranged = any(p.expression is not None and p.expression.kind == "range" for m in mentions for p in m.targets) \
        or length in _bare_range_lengths(ctx)  # "a real booking now, 8 to 10" written 8-10
    certain = len(mentions) == 1 and mentions[0].certain and ctx.reading.clean_binding
    # an all-day event made timed (or back) has no length to keep ("the conference on friday is
    # just the afternoon, 1 to 5, not all day")
    if "all_day" in write.input and bool(write.input["all_day"]) != current.all_day:
        ctx.unsure(write, "the event's length changed though no length was asked")
    elif (shifted and len({m.ref.best for m in mentions}) <= 1) or (certain and not ranged and "end" in write.input):
        # CONTRACT 4: a shift moves start and end together; the length changes only when the
        # person changes it (one event, however many times the message names it: "saturday's
        # bbq at the okafors")
        ctx.error(write, "time", f"the event lasted {_dur(current.duration)} and now lasts {_dur(length)}, "
                  "though no new length was asked", f"keep it {_dur(current.duration)} long (move the end "
                  "by the same amount as the start)", None,
                  proof={"rule": "a move or shift keeps the length (CONTRACT 4)",
                         "readings": [_dur(current.duration)], "written": _dur(length)})
    else:
        ctx.unsure(write, "the event's length changed though no length was asked")


def _bare_range_lengths(ctx: CheckContext) -> set[timedelta]:
    """The lengths two clock numbers said as a range, outside every phrase read, may give ("8 to
    10": 2 hours; "11-1": 2 hours across noon): a length the person may have asked for."""
    out: set[timedelta] = set()
    for found in BARE_RANGE_RE.finditer(ctx.reading.text):
        if any(p.start_index <= found.start() and found.end() <= p.end_index for p in ctx.reading.phrases):
            continue  # read whole as a range; "9am-12" read as 9am alone still says its end
        numbers = re.findall(r"(\d{1,2})(?:[:.](\d\d))?", found.group(0))
        if len(numbers) != 2:
            continue
        (h1, m1), (h2, m2) = numbers
        first, last = int(h1) * 60 + int(m1 or 0), int(h2) * 60 + int(m2 or 0)
        minutes = (last - first) % (12 * 60) or 12 * 60
        out.add(timedelta(minutes=minutes))
    return out


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
        if not expr.candidates or expr.kind == "time" or expr.time_of_day_only:
            continue  # "dinner 7pm till 10": a clock, no last day of anything
        before = text[max(0, expr.start_index - 9): expr.start_index]
        lasts: set[date] = set()
        if _THROUGH_BEFORE.search(before):
            lasts = {as_date(ctx.local(c.start)) for c in expr.candidates}
        elif expr.kind == "range" and _THROUGH_INSIDE.search(expr.span):
            lasts = {as_date(c.end) for c in expr.candidates
                     if c.end is not None and not isinstance(c.end, datetime)}
        if lasts and as_date(end) - timedelta(days=1) not in lasts:
            if any(YEAR_AFTER_RE.fullmatch(w) for w in unread_date_words(ctx)):  # "july 3 thru july 6 next year"
                ctx.unsure(write, "the span's year is said in words the dates were not read with")
                return
            want = " or ".join(sorted((d + timedelta(days=1)).isoformat() for d in lasts))
            ctx.error(write, "date", f"'{expr.span}' includes its last day, so the all-day end should be "
                      f"{want} (exclusive); the call ends {as_date(end).isoformat()}",
                      f"set end to {want}", expr.span)
            return


def _first_off_rule(ctx: CheckContext, write: WriteCall, said: Expression, first: date) -> None:
    """"work drinks last friday of every month" written from the fourth Friday: the series' first
    event falls on a day the said rule never gives (RFC 5545 counts a DTSTART as an occurrence
    whatever its rule). Proven only when no phrase of the message says the day it starts, no date
    word is left unread, and the series is on the person's own clock."""
    zone_written = write.written("timezone")
    if not said.recurrence or (zone_written and zone_written != ctx.case.timezone) or \
            bind(ctx, write).phrases or unread_date_words(ctx):
        return
    want = next_days(said.recurrence, first, 1)
    if not want or want[0] == first:
        return
    ctx.error(write, "date", f"'{said.span}' never falls on {describe_day(first)}, the day the call starts the "
              f"series on", f"start it on {describe_day(want[0])}", said.span,
              proof={"phrase": said.span, "role": "repeat", "readings": [want[0].isoformat()],
                     "written": first.isoformat()})


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


def _written_days(ctx: CheckContext, write: WriteCall, written: Any, said: Expression) -> list[date] | None:
    """The written rule's days on the clock the phrase speaks of (its city's, "mondays 7pm
    chicago time", else the person's), the rule expanded on its event's own clock: Monday 19:00
    in Chicago is a Tuesday in Kolkata. None for an all-day series (its days are its own)."""
    before = ctx.event(write.event_id) if write.event_id else None
    tz_name = write.written("timezone") or (before.timezone if before is not None else None)
    try:
        start = parse_when(write.written("start"), zone(tz_name or ctx.case.timezone), "start") \
            if write.written("start") else (before.start if before is not None else None)
    except EventFieldError:
        return None
    if not isinstance(start, datetime):
        return None
    if tz_name:  # the rule's days are its event's zone's
        start = start.astimezone(zone(tz_name))
    days = days_seen_in(written, start, zone(said.explicit_zone or ctx.case.timezone))
    return days or None


def _stops_before_until(ctx: CheckContext, write: WriteCall, written: Any, said: Expression, first: date) -> bool:
    """"every day until the 18th" written with an UNTIL that falls before the 18th's occurrence
    (midnight UTC, before a 3pm pickup in Sydney): "until" a day includes that day (CONTRACT 4),
    so a rule whose last occurrence is before it, where the said rule has one on it, misses an
    occurrence asked for (reported: True). Stopping later is left for judgement."""
    untils = [p for p in ctx.reading.phrases if _UNTIL_START_RE.match(p.text) and p.expression is not None
              and len(p.expression.candidates) == 1 and p.role != "negated"]
    if len(untils) != 1 or unread_date_words(ctx):
        return False
    last = as_date(untils[0].expression.candidates[0].start)  # type: ignore[union-attr]
    want = next_days(said.recurrence or "", first, 400)
    got = _written_days(ctx, write, written, said) if first <= last else None
    if want is None or got is None or last not in want or len(got) >= SAMPLE_DAYS or last in got:
        return False
    if not got or max(got) >= last:
        return False
    ctx.error(write, "date", f"'{untils[0].text}' includes {describe_day(last)}; the call's repeat stops "
              f"after {describe_day(max(got))}", f"end the repeat after the occurrence on {describe_day(last)}",
              untils[0].text, proof={"until": str(last), "last_written": str(max(got))})
    return True


_WEEKDAY_WORD_RE = re.compile(rf"\b{WEEKDAY_RE}|\b{WEEKDAY_FULL_RE}s\b", re.I)


def _weekdays_beside(ctx: CheckContext, said: list[Expression]) -> bool:
    """A weekly rule said with no day of its own ("every week") in a message that names weekdays
    outside it: those may be the days it repeats on."""
    spans = [(e.start_index, e.end_index) for e in said]
    if not any("FREQ=WEEKLY" in (e.recurrence or "") and "BYDAY" not in (e.recurrence or "") for e in said):
        return False
    return any(not any(a <= m.start() < b for a, b in spans) for m in _WEEKDAY_WORD_RE.finditer(ctx.reading.text))


def check_recurrence_rule(ctx: CheckContext) -> None:
    """A rule the person said ("every other Tuesday") against the rule written, by occurrences."""
    for write in ctx.writes:
        written = write.written("recurrence")
        if write.kind == "create" and not write.failed and not written and \
                any(e.recurrence for e in ctx.resolution.expressions):
            # "add our wedding anniversary, aug 8, every year" written once: the repeat may have
            # been only told ("we go every year"), so it is for judgement, never verified
            ctx.unsure(write, "the message says it repeats and the call writes no repeat rule")
        if write.failed or not written:
            continue
        said = [e for e in ctx.resolution.expressions if e.recurrence]
        if not said:
            ctx.unsure(write, "a repeat rule was written that no phrase asked for")
            continue
        if any(EXCEPTION_AFTER_RE.match(ctx.reading.text[e.end_index:]) for e in said):
            ctx.unsure(write, "the repeat rule said has days taken out of it")
            continue
        first = _series_first_day(ctx, write)
        if next_days(written, first) is None:
            ctx.unsure(write, "the repeat rule written could not be read")  # so never verified
            continue
        outcomes = []
        for expr in said:
            days = _written_days(ctx, write, written, expr)
            outcomes.append(compare_rules(expr.recurrence or "", written, days[0] if days else first, days))
        problems = [problem for problem, _ in outcomes]
        if not any(problems) and len(said) == 1 and write.kind == "create":
            _first_off_rule(ctx, write, said[0], first)
        if not all(problems) and all(apart for _, apart in outcomes):
            if _stops_before_until(ctx, write, written, said[0], first):
                continue
            ctx.unsure(write, "the repeat written ends at another time than the one said")
        if all(problems) and unread_date_words(ctx):
            # "every year ... on normal years we do the 28th": words the rule reading does not hold
            ctx.unsure(write, "the repeat rule said has words beside it that were not understood")
        elif all(problems) and _weekdays_beside(ctx, said):
            # "tue & thu 12-1pm starting next week, every week": the weekdays said are its days
            ctx.unsure(write, "weekdays said beside a weekly repeat may be its days")
        elif all(problems):
            expr = said[0]
            ctx.error(write, "date", f"'{expr.span}' repeats {problems[0]}", f"use {expr.recurrence}",
                      expr.span)
