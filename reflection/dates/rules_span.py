"""Amount rules: 'now', offsets ('in 3 days', 'in 90 minutes', 'two weeks ago', '2 weeks before
<date>'), durations ('for 2 hours', '90 minutes') and recurrences ('every other Tuesday',
'monthly on the 3rd')."""
from __future__ import annotations

import re
from datetime import UTC, timedelta

from reflection.dates import arithmetic as cal
from reflection.dates.lexicon import NUMW, ORDW, WEEKDAYS, words_to_int
from reflection.dates.rule import I, Rule, rx
from reflection.dates.values import Anchor, Atom, Ctx, Instant, Length, Recurrence

P_NOW = rx(r"(?<!\bfor )(?<!\bby )(?<!from )(?<!until )(?<!\btill )\b(?:right\s+)?now\b")
P_NOW2 = rx(r"\b(?:at\s+the\s+moment|at\s+present|at\s+the\s+present\s+time|at\s+this\s+moment)\b")

_QTY = rf"(?:\d+(?:\.\d+)?|a\s+couple\s+of|a\s+few|half\s+an?|an?|{NUMW})"
_UNIT = r"(?:years?|yrs?|months?|fortnights?|weeks?|wks?|days?|hours?|hrs?|hr|h|minutes?|mins?|min|seconds?|secs?)\b"
_CHUNK = rf"(?:(?:an?|one)\s+hour\s+and\s+a\s+half|\d+(?:\.\d+)?\s*{_UNIT}|{_QTY}\s+{_UNIT})"
"""An amount of time: a number then its unit, close or apart ("2h", "90 mins"); a word then its
unit apart ("an hour", "two days"), never run together ("ah ma's": a name, not "a h")."""
P_OFFSET = rx(rf"\b(?:(?P<pre>in|within|for|after)\s+)?(?P<q>{_CHUNK}(?:(?:\s*,\s*|\s+and\s+|\s+){_CHUNK})*)"
              rf"(?:(?:'s|’s)\s+time)?(?P<suf>\s+(?:from\s+now|later|hence|ago|earlier|before\s+now))?\b")
P_CHUNK = rx(rf"(?P<hh>(?:an?|one)\s+hour\s+and\s+a\s+half)|(?P<q>\d+(?:\.\d+)?)\s*(?P<u>{_UNIT})|"
             rf"(?P<qw>{_QTY})\s+(?P<uw>{_UNIT})")
GAP_ANCHOR = rx(r"^\s+(?P<w>from|after|before|since)\s+$")

WD_PL = (r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday"
         r"|mon|tues|tue|weds|wed|thurs|thur|thu|fri|sat|sun)s?\b\.?")
_PLURALS = r"(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)"
_WD_SEP = r"(?:\s*(?:,|and|&|/|\+|-|\u2013|to|thru|through)\s*|\s+)"
"""Between the weekdays of one repeat: a list ("mon, wed and fri", "mon wed fri", "mon/wed/fri")
or a run of days ("mon-fri", "monday to friday": `weekday_list`)."""
_WD_RUN_RE = re.compile(r"^\s*(?:-|\u2013|to|thru|through)\s*$", re.I)
P_RECUR = rx(rf"\b(?:(?:every|each)\s+(?:(?P<other>other|second|2nd|third|3rd|(?P<n>\d+|{NUMW}))\s+)?"
             rf"(?P<unit>(?P<wds>{WD_PL}(?:{_WD_SEP}{WD_PL})*)|weekdays?|weekends?|days?|weeks?|months?|years?|mornings?|evenings?|nights?)"
             rf"|(?P<adv>daily|weekly|monthly|yearly|annually|biweekly|bi-weekly|fortnightly)"
             rf"|on\s+(?P<plural>{_PLURALS}(?:\s*(?:,|and|&)\s*{_PLURALS})*))"
             rf"(?:\s+on\s+(?:the\s+)?(?P<ondom>(?:[0-3]?\d)(?:st|nd|rd|th)\b|{ORDW})|\s+on\s+(?P<onwd>{WD_PL}(?:\s*(?:,|and|&)\s*{WD_PL})*))?")

_NTH = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "last": -1}
_NTH_RE = r"(?:first|1st|second|2nd|third|3rd|fourth|4th|last)"
P_NTH_WEEKDAY = rx(rf"\b(?:(?:on\s+)?(?:the\s+)?(?P<nth>{_NTH_RE})\s+(?P<wd>{WD_PL})\s+(?:of\s+)?(?:each|every)\s+month"
                   rf"|(?:every\s+month|each\s+month|monthly)\s+on\s+(?:the\s+)?(?P<nth2>{_NTH_RE})\s+(?P<wd2>{WD_PL}))")
"""'the first Monday of each month', 'monthly on the last Friday': one weekday of each month."""

_SUBDAY = ("hours", "minutes", "seconds")


def _now(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'now', 'right now', 'at the moment'."""
    n = ctx.now.replace(microsecond=0, tzinfo=None)
    return Atom(m.start(), m.end(), Instant(((n, "now"),)), prio=6)


# ---------------------------------------------------------------- amounts

def _unit_key(u: str) -> str:
    u = u.lower()
    for prefix, key in (("y", "years"), ("mo", "months"), ("f", "fortnights"), ("w", "weeks"), ("d", "days"),
                        ("h", "hours"), ("s", "seconds")):
        if u.startswith(prefix):
            return key
    return "minutes"


def _qty(q: str) -> float | None:
    q = " ".join(q.lower().split())
    fixed = {"a": 1.0, "an": 1.0, "a couple of": 2.0, "a few": 3.0}
    if q in fixed:
        return fixed[q]
    if q.startswith("half"):
        return 0.5
    try:
        return float(q)
    except ValueError:
        n = words_to_int(q)
        return None if n is None else float(n)


def _components(q: str) -> dict[str, float] | None:
    """'2 weeks and 3 days' -> {'weeks': 2, 'days': 3}; None when an amount is unreadable."""
    comps: dict[str, float] = {}
    for c in P_CHUNK.finditer(q):
        if c.group("hh"):
            comps["minutes"] = comps.get("minutes", 0) + 90
            continue
        n = _qty(c.group("q") or c.group("qw"))
        if n is None:
            return None
        k = _unit_key(c.group("u") or c.group("uw"))
        if k == "fortnights":
            k, n = "weeks", n * 2
        comps[k] = comps.get(k, 0) + n
    return comps or None


def _months_and_delta(comps: dict[str, float]) -> tuple[int, timedelta]:
    """Whole months (fractions of months and years are dropped) and the rest as a timedelta."""
    months = 0
    for k, per in (("years", 12), ("months", 1)):
        v = comps.get(k, 0)
        if v == int(v):
            months += int(v) * per
    delta = timedelta(weeks=comps.get("weeks", 0), days=comps.get("days", 0))
    return months, delta


def _subday(comps: dict[str, float]) -> timedelta:
    return timedelta(hours=comps.get("hours", 0), minutes=comps.get("minutes", 0), seconds=comps.get("seconds", 0))


def _duration(m: re.Match[str], comps: dict[str, float]) -> Atom | None:
    if any(k in ("months", "years") for k in comps):
        return None
    td = timedelta(weeks=comps.get("weeks", 0), days=comps.get("days", 0)) + _subday(comps)
    return Atom(m.start(), m.end(), Length(td), prio=2)


def _from_now(m: re.Match[str], ctx: Ctx, comps: dict[str, float], sign: int) -> Atom:
    label = m.group(0).strip()
    if all(k in _SUBDAY for k in comps):
        readings = [comps]
        first = _components(re.split(r"\s*,\s*", m.group("q"))[0])
        if "," in m.group("q") and first is not None and first != comps:
            # "in 2 hours, 20 min": the 20 min may be the event's length, not more of the wait
            readings.insert(0, first)
        pairs = []
        for reading in readings:
            inst = (ctx.now.astimezone(UTC) + sign * _subday(reading)).astimezone(ctx.tz).replace(microsecond=0)
            pairs.append((inst, f"{label}: {inst:%Y-%m-%d %H:%M}"))
        return Atom(m.start(), m.end(), Instant(tuple(pairs)), prio=1)
    months, delta = _months_and_delta(comps)
    d = cal.shift_date(ctx.today, sign * months, sign * delta)
    return Atom(m.start(), m.end(), cal.single(d, f"{label} ({cal.dfmt(d)})"), prio=1)


def _offset(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'in 3 days' / 'two weeks ago' (from today), 'in 90 minutes' (from now), 'for 2 hours' and
    a bare '90 minutes' (durations), '2 weeks' before 'from/after/before <date>' (an anchor)."""
    comps = _components(m.group("q"))
    if comps is None:
        return None
    pre = (m.group("pre") or "").lower()
    suf = " ".join((m.group("suf") or "").lower().split())
    subday = all(k in _SUBDAY for k in comps)
    anchored = GAP_ANCHOR.match(ctx.text[m.end():m.end() + 8] + " ") is not None
    if pre == "for" or (not pre and not suf and subday and not anchored):
        return _duration(m, comps)
    if pre in ("in", "within") or suf:
        return _from_now(m, ctx, comps, -1 if suf in ("ago", "earlier") else 1)
    if pre == "after":
        return None
    months, delta = _months_and_delta(comps)
    return Atom(m.start(), m.end(), Anchor(months, delta, " ".join(m.group("q").split())), prio=3)


# ---------------------------------------------------------------- recurrences

_ADVERBS = {"daily": ("DAILY", 1), "weekly": ("WEEKLY", 1), "monthly": ("MONTHLY", 1), "yearly": ("YEARLY", 1),
            "annually": ("YEARLY", 1), "biweekly": ("WEEKLY", 2), "fortnightly": ("WEEKLY", 2)}
_UNIT_FREQ = (("weekday", "WEEKLY", (0, 1, 2, 3, 4)), ("weekend", "WEEKLY", (5, 6)), ("day", "DAILY", ()),
              ("morning", "DAILY", ()), ("evening", "DAILY", ()), ("night", "DAILY", ()),
              ("week", "WEEKLY", ()), ("month", "MONTHLY", ()))


def weekday_list(s: str) -> tuple[int, ...]:
    """'Mondays and Thursdays' -> (0, 3); a run of days, 'mon-fri' or 'monday to friday', holds
    every day from the first to the last (0-4; 'fri-mon' runs over the weekend)."""
    out: set[int] = set()
    previous: tuple[int, int] | None = None  # the last weekday read, and where its word ends
    for match in re.finditer(WD_PL, s, I):
        low = match.group().lower().rstrip(".")
        w = WEEKDAYS.get(low)
        if w is None and low.endswith("s"):
            w = WEEKDAYS.get(low[:-1])
        if w is None:
            continue
        if previous is not None and _WD_RUN_RE.match(s[previous[1]:match.start()]):
            out.update((previous[0] + k) % 7 for k in range((w - previous[0]) % 7 + 1))
        out.add(w)
        previous = (w, match.end())
    return tuple(sorted(out))


def _interval(m: re.Match[str]) -> int | None:
    if m.group("n"):
        n = words_to_int(m.group("n"))
        return n or None
    other = (m.group("other") or "").lower()
    return {"other": 2, "second": 2, "2nd": 2, "third": 3, "3rd": 3}.get(other, 1)


def _every(m: re.Match[str]) -> Recurrence | None:
    """'every other Tuesday', 'every weekday', 'each month'."""
    interval = _interval(m)
    if interval is None:
        return None
    if m.group("wds"):
        return Recurrence("WEEKLY", interval, weekday_list(m.group("wds")))
    unit = m.group("unit").lower()
    pod = next((p for p in ("morning", "evening", "night") if unit.startswith(p)), None)
    for prefix, freq, days in _UNIT_FREQ:
        if unit.startswith(prefix):
            return Recurrence(freq, interval, days, pod=pod)
    return Recurrence("YEARLY", interval)


def _base_rule(m: re.Match[str]) -> Recurrence | None:
    if m.group("adv"):
        freq, interval = _ADVERBS[m.group("adv").lower().replace("-", "")]
        return Recurrence(freq, interval)
    if m.group("plural"):
        return Recurrence("WEEKLY", 1, weekday_list(m.group("plural")))
    return _every(m)


def _recurrence(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'every Tuesday', 'daily', 'on Mondays', 'every month on the 3rd', 'weekly on Mondays'."""
    rule = _base_rule(m)
    if rule is None:
        return None
    if m.group("ondom"):
        n = words_to_int(m.group("ondom"))
        if not n or n > 31:
            return None
        freq = "MONTHLY" if rule.freq in ("DAILY", "WEEKLY") and not rule.byday else rule.freq
        rule = Recurrence(freq, rule.interval, rule.byday, n, rule.pod)
    if m.group("onwd"):
        freq = "WEEKLY" if rule.freq == "DAILY" else rule.freq
        rule = Recurrence(freq, rule.interval, weekday_list(m.group("onwd")), rule.bymonthday, rule.pod)
    return Atom(m.start(), m.end(), rule, prio=1)


P_LAST_DAY_MONTHLY = rx(r"\b(?:on\s+)?(?:the\s+)?last\s+day\s+of\s+(?:each|every)\s+month\b"
                        r"|\b(?:(?:every|each)\s+month|monthly)\s+on\s+(?:the\s+)?last\s+day\b")
"""'the last day of every month', 'monthly on the last day': the month's last day, whatever its
length (BYMONTHDAY=-1), never the day of the month the series starts on."""


def _last_day_monthly(m: re.Match[str], ctx: Ctx) -> Atom | None:
    return Atom(m.start(), m.end(), Recurrence("MONTHLY", 1, (), -1), prio=0)


def _nth_weekday(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'the first Monday of each month', 'monthly on the last Friday'."""
    days = weekday_list(m.group("wd") or m.group("wd2"))
    if len(days) != 1:
        return None
    nth = _NTH[(m.group("nth") or m.group("nth2")).lower()]
    return Atom(m.start(), m.end(), Recurrence("MONTHLY", 1, days, nth=nth), prio=0)


SPAN_RULES: tuple[Rule, ...] = (
    Rule("now", P_NOW, _now),
    Rule("at-the-moment", P_NOW2, _now),
    Rule("offset", P_OFFSET, _offset),
    Rule("nth weekday of the month", P_NTH_WEEKDAY, _nth_weekday),
    Rule("last day of each month", P_LAST_DAY_MONTHLY, _last_day_monthly),
    Rule("recurrence", P_RECUR, _recurrence),
)
