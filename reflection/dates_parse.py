"""The scanner and combiner behind reflection.resolver (see that module's docstring)."""
from __future__ import annotations

import re
from calendar import monthrange
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

from dateutil.relativedelta import relativedelta
from dateutil.rrule import DAILY, MONTHLY, WEEKLY, YEARLY, rrule, weekday as rr_weekday

from reflection.dates_lexicon import (
    AP_RE, DAY_RE, HOURW, MONTH_NAMES, MONTH_RE, MONTHS, NUMW, ORDW, PARTS_OF_DAY, RRULE_DAYS,
    WEAK_WEEKDAY_ABBR, WEEKDAY_NAMES, WEEKDAY_RE, WEEKDAYS, YEARW, ZONE_ALONE, ZONE_CITY, ZONES,
    words_to_int, year_words_to_int, HOLIDAY_RE, holiday_fn,
)

I = re.IGNORECASE
UTC = timezone.utc


@dataclass(frozen=True)
class Ctx:
    now: datetime
    tz: ZoneInfo
    today: date


@dataclass
class DateRes:
    """Readings of a date phrase: items are (start date, end date or None, reading, flags)."""
    items: list = field(default_factory=list)
    contradiction: str | None = None
    relative: bool = True
    weekday: int | None = None
    explicit: bool = False        # a month and day (year maybe inferred)
    weekday_only: bool = False    # just a weekday ("Friday", "next Friday")
    md: tuple | None = None       # (month, day, year or None) of an explicit date
    is_range: bool = False
    leftover: tuple = ()


@dataclass
class Atom:
    start: int
    end: int
    cat: str          # date | time | trange | pod | zone | badzone | anchor | dtfix | dur | recur
    data: object = None
    weak: bool = False
    prio: int = 5


# ---------------------------------------------------------------- small helpers

def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def _dfmt(d: date) -> str:
    return f"{WEEKDAY_NAMES[d.weekday()]}, {MONTH_NAMES[d.month]} {d.day}, {d.year}"


def _monday(d: date) -> date:
    return d - timedelta(days=d.weekday())


def _year2(y: int) -> int:
    return 2000 + y if y < 40 else 1900 + y


def _wd_of(tok: str) -> int | None:
    return WEEKDAYS.get(tok.lower().rstrip(".").rstrip("s") if tok.lower().rstrip(".") not in WEEKDAYS
                        else tok.lower().rstrip("."))


def _month_of(tok: str) -> int | None:
    return MONTHS.get(tok.lower().rstrip("."))


def localize(naive: datetime, z: ZoneInfo) -> tuple[datetime, tuple[str, ...]]:
    """Wall time in z per the policy: a nonexistent time is shifted forward by the gap, a repeated
    time is its first occurrence; both flagged."""
    dt = naive.replace(tzinfo=z, fold=0)
    back = dt.astimezone(UTC).astimezone(z)
    if back.replace(tzinfo=None) != naive:
        return back, ("nonexistent_local_time",)
    if dt.replace(fold=1).utcoffset() != dt.utcoffset():
        return dt, ("repeated_local_time",)
    return dt, ()


# ---------------------------------------------------------------- date readings

def md_res(ctx: Ctx, m: int, d: int, y: int | None, wd: int | None = None) -> DateRes:
    """An explicit month/day (year given or inferred: the first such date on or after today)."""
    name = MONTH_NAMES[m] if 1 <= m <= 12 else str(m)
    if not (1 <= m <= 12) or d < 1:
        return DateRes(contradiction=f"{name} {d} does not exist", relative=False, explicit=True)
    if y is not None:
        try:
            dd = date(y, m, d)
        except ValueError:
            return DateRes(contradiction=f"{name} {d}, {y} does not exist", relative=False, explicit=True,
                           md=(m, d, y))
    else:
        if d > (29 if m == 2 else monthrange(2001, m)[1]):
            return DateRes(contradiction=f"{name} {d} does not exist", relative=False, explicit=True,
                           md=(m, d, None))
        dd = None
        for yy in range(ctx.today.year, ctx.today.year + 9):
            try:
                cand = date(yy, m, d)
            except ValueError:
                continue
            if cand >= ctx.today:
                dd = cand
                break
    res = DateRes(items=[(dd, None, f"{name} {d}, {dd.year}", ())], relative=False, explicit=True,
                  md=(m, d, y))
    if wd is not None:
        res = check_weekday(res, wd)
    return res


def check_weekday(res: DateRes, wd: int) -> DateRes:
    if res.contradiction or not res.items:
        return res
    dd = res.items[0][0]
    res.weekday = wd
    if dd.weekday() != wd:
        m, d = dd.month, dd.day
        return DateRes(contradiction=(f"{WEEKDAY_NAMES[wd]}, {MONTH_NAMES[m]} {d} {dd.year}: "
                                      f"{MONTH_NAMES[m]} {d} is a {WEEKDAY_NAMES[dd.weekday()]}"),
                       relative=False, explicit=True, weekday=wd, md=res.md)
    res.items = [(dd, None, f"{WEEKDAY_NAMES[wd]}, {MONTH_NAMES[dd.month]} {dd.day}, {dd.year}", ())]
    return res


def weekday_res(ctx: Ctx, wd: int, mod: str, tail: str) -> DateRes:
    t = ctx.today
    W = WEEKDAY_NAMES[wd]
    mod = " ".join(mod.lower().split()).replace("the ", "") if mod else ""
    tail = " ".join(tail.lower().split()) if tail else ""
    if tail == "after next":
        mod = "next"
    elif tail == "before last":
        mod = "last"
    if tail.endswith("week"):             # Friday of next week / Friday this week
        which = tail.split()[-2]
        base = _monday(t) + timedelta(days=wd)
        if which in ("next", "following", "coming"):
            return DateRes(items=[(base + timedelta(7), None, f"{W} of next week", ())], weekday=wd)
        if which in ("last", "previous"):
            return DateRes(items=[(base - timedelta(7), None, f"{W} of last week", ())], weekday=wd)
        return DateRes(items=[(base, None, f"{W} of this week", ())], weekday=wd)
    if mod in ("next", "following"):
        d = t + timedelta(days=(wd - t.weekday() - 1) % 7 + 1)
        if _monday(d) == _monday(t):
            items = [(d, None, f"the coming {W}", ()), (d + timedelta(7), None, f"{W} of next week", ())]
        else:
            items = [(d, None, f"{W} of next week", ())]
    elif mod in ("last", "previous"):
        d = t - timedelta(days=(t.weekday() - wd - 1) % 7 + 1)
        if _monday(d) == _monday(t):
            items = [(d, None, f"this past {W}", ()), (d - timedelta(7), None, f"{W} of last week", ())]
        else:
            items = [(d, None, f"{W} of last week", ())]
    elif mod in ("past", "this past"):
        d = t - timedelta(days=(t.weekday() - wd - 1) % 7 + 1)
        items = [(d, None, f"this past {W}", ())]
    else:                                   # Friday, this Friday, on Friday, coming Friday
        d = t + timedelta(days=(wd - t.weekday()) % 7)
        if d == t:
            items = [(d, None, f"today, {W}", ()), (d + timedelta(7), None, f"{W} of next week", ())]
        else:
            items = [(d, None, f"the coming {W}", ())]
    if tail == "after next":
        items = [(a + timedelta(7), None, f"{W} after next" + ("" if len(items) == 1 else f" ({r})"), f)
                 for a, _, r, f in items]
    elif tail == "before last":
        items = [(a - timedelta(7), None, f"{W} before last", f) for a, _, r, f in items]
    return DateRes(items=items, weekday=wd, weekday_only=True)


def dom_res(ctx: Ctx, n: int, wd: int | None = None, month_shift: int | None = None) -> DateRes:
    """'the 3rd' (first 3rd on or after today), 'Monday the 3rd' (within 400 days),
    'the 15th of next month'."""
    t = ctx.today
    if not 1 <= n <= 31:
        return DateRes(contradiction=f"the {_ordinal(n)} is not a day of the month")
    if month_shift is not None:
        first = (t.replace(day=1) + relativedelta(months=month_shift))
        try:
            d = first.replace(day=n)
        except ValueError:
            return DateRes(contradiction=f"{MONTH_NAMES[first.month]} {n} does not exist")
        res = DateRes(items=[(d, None, f"the {_ordinal(n)} ({_dfmt(d)})", ())])
        return check_weekday(res, wd) if wd is not None else res
    first = t.replace(day=1)
    for k in range(0, 15):
        mfirst = first + relativedelta(months=k)
        if n > monthrange(mfirst.year, mfirst.month)[1]:
            continue
        d = mfirst.replace(day=n)
        if d < t or (d - t).days > 400:
            continue
        if wd is None or d.weekday() == wd:
            label = f"{WEEKDAY_NAMES[wd]} the {_ordinal(n)}" if wd is not None else f"the {_ordinal(n)}"
            return DateRes(items=[(d, None, f"{label} ({_dfmt(d)})", ())], weekday=wd)
    if wd is not None:
        return DateRes(contradiction=f"no {WEEKDAY_NAMES[wd]} the {_ordinal(n)} within 400 days", weekday=wd)
    return DateRes(contradiction=f"the {_ordinal(n)} does not exist")


def single(d: date, reading: str, relative=True) -> DateRes:
    return DateRes(items=[(d, None, reading, ())], relative=relative)


def span_res(a: date, b: date, reading: str) -> DateRes:
    return DateRes(items=[(a, b, reading, ())], is_range=True)


# ---------------------------------------------------------------- patterns

def C(p: str, flags=I) -> re.Pattern:
    return re.compile(p, flags)


YEAR_TAIL = (rf"(?:(?:\s*,\s*|\s+|\s*[-/]\s*)(?:in\s+|of\s+)?(?P<y>\d{{4}}|'\d\d|(?<=of\s)\d\d|{YEARW})(?![\d:]))?")
P_MDY = C(rf"(?<![a-z])(?P<mon>{MONTH_RE})[\s,/-]*(?P<d>{DAY_RE})(?!\s*(?::\d|{AP_RE}|\.\d|o'?clock))"
          + YEAR_TAIL)
P_DMY = C(rf"(?<![\w.$€£])(?<!\d:)(?<![$€£]\s)(?:the\s+)?(?P<d>{DAY_RE})(?:\s+day)?(?:\s+of)?[\s/-]*(?P<mon>{MONTH_RE})" + YEAR_TAIL)
_TOK = r"[a-z]{3,9}|\d{1,4}"
P_TRIPLE = C(rf"(?<![0-9a-z/:.])(?P<a>{_TOK})(?P<s>[-/. ])(?P<b>{_TOK})(?P=s)(?P<c>{_TOK})(?![0-9a-z/:]|\.\d)")
P_PAIR = C(r"(?<![0-9a-z/:.])(?P<a>[a-z]{3,9}|\d{1,2})(?P<s>[-/.])(?P<b>[a-z]{3,9}|\d{1,2})(?![0-9a-z/:]|[-/.]\d)")
P_COMPACT = C(r"(?<!\d)(?P<y>(?:19|20)\d\d)(?P<m>0[1-9]|1[0-2])(?P<d>0[1-9]|[12]\d|3[01])(?!\d)")
PAIR_CTX = C(rf"(?:\bon|\bthis|\bnext|\blast|\buntil|\bthrough|\bby|{WEEKDAY_RE},?|\()\s*$")

WD_PL = (r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday"
         r"|mon|tues|tue|weds|wed|thurs|thur|thu|fri|sat|sun)s?\b\.?")
P_WEEKDAY = C(rf"(?:\b(?P<mod>this\s+coming|this\s+upcoming|this\s+past|this|next|last|coming|upcoming|"
              rf"the\s+following|following|the\s+previous|previous|past)\s+)?\b(?P<wd>{WEEKDAY_RE})"
              rf"(?:\s+(?P<tail>after\s+next|before\s+last|(?:of\s+)?(?:the\s+)?(?:this|next|last|following|previous|coming)\s+week)\b)?")
P_WEEK_WD = C(rf"\b(?P<which>this|next|last|previous|following|coming)\s+week[\s,-]*(?:on\s+)?(?P<wd>{WEEKDAY_RE})")
P_WD_DOM = C(rf"\b(?P<wd>{WEEKDAY_RE})[\s,]+(?P<the>the\s+)?(?P<d>{DAY_RE})"
             rf"(?!\s*(?:[:.]\d|{AP_RE}|o'?clock|[/-]\d|{MONTH_RE}|(?:hours?|minutes?|mins?|days?|weeks?)\b))")
P_THE_DOM = C(rf"\bthe\s+(?P<d>(?:[0-3]?\d)(?:st|nd|rd|th)\b|{ORDW})(?:\s+day)?"
              rf"(?:\s+(?:of\s+)?(?:the\s+)?(?P<which>this|next|last|following|previous)\s+month)?")
P_RELDAY = C(r"\b(?P<w>(?:the\s+)?day\s+after\s+tomorrow|(?:the\s+)?day\s+before\s+yesterday|today|tod?ay's|"
             r"tomorrow|tomorow|tmrw|tmr|yesterday)\b")
P_END = C(r"\b(?:at\s+)?(?:the\s+)?(?:end\s+of\s+(?:the\s+)?(?P<w>day|today|tomorrow|tonight|"
          r"(?:this\s+|next\s+|the\s+)?month|(?:this\s+|next\s+)?year)|(?P<eod>eod))\b")
P_WEEKS = C(r"\b(?P<which>this|next|last|the\s+following|the\s+coming|coming|the\s+previous|previous|the|over\s+the|on\s+the)"
            r"\s+(?P<unit>weekend|week|month)\b")
P_NOW = C(r"(?<!\bfor )(?<!\bby )(?<!from )(?<!until )(?<!\btill )\b(?:right\s+)?now\b")
P_POD = C(r"\b(?P<pre>this\s+|in\s+the\s+|at\s+|last\s+|early\s+|late\s+|(?:the\s+)?same\s+)?(?P<pod>tonight|tonite|"
          r"morning|afternoon|evening|night|lunch\s*time|lunch)\b")

P_T_AP = C(rf"(?<![\d:.])(?P<h>\d{{1,2}})(?:[:.](?P<m>[0-5]\d)(?:[:.](?P<s>[0-5]\d))?)?\s*(?P<ap>{AP_RE})")
P_T_24 = C(rf"(?<![\d:.])(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)(?::(?P<s>[0-5]\d))?(?!\d)(?!\s*{AP_RE})")
P_T_DOT = C(rf"(?:\b(?P<pre>at|around|about|by|@)\s+)?(?<![\d:.])(?P<h>[01]?\d|2[0-3])\.(?P<m>[0-5]\d)(?![\d.])(?!\s*{AP_RE})")
_NOT_HOUR_AFTER = (rf"(?!\s*(?:[:.]\d|\d|%|/|-\d|{AP_RE}|(?:st|nd|rd|th|hours?|hrs?|minutes?|mins?|days?|weeks?|months?|years?"
                   rf"|people|persons|guests|of|percent|o'?\s?clock|{MONTH_RE})\b))")
P_T_BARE = C(r"(?:\b(?:at|around|about|by|from|until|till|before|after|between)\s+|@\s*)(?P<h>\d{1,2})(?![\d])" + _NOT_HOUR_AFTER)
P_T_BARE_POD = C(r"(?<![\d:.])(?P<h>\d{1,2})(?=,?\s+(?:tonight|tonite|this\s+(?:morning|afternoon|evening)|"
                 r"in\s+the\s+(?:morning|afternoon|evening)|at\s+night|tomorrow\s+(?:morning|afternoon|evening|night)))")
P_T_OCLOCK = C(rf"\b(?P<h>\d{{1,2}}|{HOURW})\s*o'?\s?clock\b(?:\s*(?P<ap>{AP_RE}))?")
P_T_WORD = C(rf"(?:\b(?P<pre>at|around|about|@)\s+)?\b(?P<h>{HOURW})(?:[\s-]+(?P<m>(?:o[\s-](?:one|two|three|four|five|six|seven|eight|nine)\b)|{NUMW})(?:\s+minutes)?)?"
             rf"(?:\s*(?P<ap>{AP_RE}))?(?!\s*(?:of|point|another|more|other|day|days|week|weeks|hours?|minutes?|people|years?)\b)(?![-'])")
P_T_PAST = C(rf"\b(?P<q>half|quarter|\d{{1,2}}|{NUMW})(?:\s+minutes?)?\s+(?P<dir>past|to|till)\s+(?P<h>\d{{1,2}}|{HOURW})(?:\s*(?P<ap>{AP_RE}))?")
P_T_NOON = C(r"\b(?:12\s+)?(?P<w>noon|midday|mid-day|midnight)\b")
P_TRANGE = C(rf"(?<![\d:.])(?P<h1>\d{{1,2}})(?::(?P<m1>[0-5]\d))?\s*(?P<ap1>{AP_RE})?\s*(?:-|–|to)\s*(?P<h2>\d{{1,2}})(?::(?P<m2>[0-5]\d))?\s*(?P<ap2>{AP_RE})")

_Z_ALONE = "|".join(sorted(ZONE_ALONE, key=len, reverse=True))
_Z_CITY = "|".join(re.escape(c) for c in ZONE_CITY)
P_ZONE = C(rf"\b(?:(?P<a>{_Z_ALONE})\b(?:\s+time\b)?|(?P<c>{_Z_CITY})\s+time\b|(?P<iana>(?-i:[A-Z][A-Za-z_]+/[A-Z][A-Za-z_]+(?:/[A-Za-z_]+)?)))")
P_BADZONE = C(r"\b(?P<w>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\s+time|[A-Z]{2,4}T)\b", 0)

_QTY = rf"(?:\d+(?:\.\d+)?|a\s+couple\s+of|a\s+few|half\s+an?|an?|{NUMW})"
_UNIT = r"(?:years?|yrs?|months?|fortnights?|weeks?|wks?|days?|hours?|hrs?|hr|h|minutes?|mins?|min|seconds?|secs?)\b"
_CHUNK = rf"(?:(?:an?|one)\s+hour\s+and\s+a\s+half|{_QTY}\s*{_UNIT})"
P_OFFSET = C(rf"\b(?:(?P<pre>in|within|for|after)\s+)?(?P<q>{_CHUNK}(?:(?:\s*,\s*|\s+and\s+|\s+){_CHUNK})*)"
             rf"(?:(?:'s|’s)\s+time)?(?P<suf>\s+(?:from\s+now|later|hence|ago|earlier|before\s+now))?\b")
P_CHUNK = C(rf"(?P<hh>(?:an?|one)\s+hour\s+and\s+a\s+half)|(?P<q>{_QTY})\s*(?P<u>{_UNIT})")

P_RECUR = C(rf"\b(?:(?:every|each)\s+(?:(?P<other>other|second|2nd|third|3rd|(?P<n>\d+|{NUMW}))\s+)?"
            rf"(?P<unit>(?P<wds>{WD_PL}(?:\s*(?:,|and|&)\s*{WD_PL})*)|weekdays?|weekends?|days?|weeks?|months?|years?|mornings?|evenings?|nights?)"
            rf"|(?P<adv>daily|weekly|monthly|yearly|annually|biweekly|bi-weekly|fortnightly)"
            rf"|on\s+(?P<plural>(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)(?:\s*(?:,|and|&)\s*(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays))*))"
            rf"(?:\s+on\s+(?:the\s+)?(?P<ondom>(?:[0-3]?\d)(?:st|nd|rd|th)\b|{ORDW})|\s+on\s+(?P<onwd>{WD_PL}(?:\s*(?:,|and|&)\s*{WD_PL})*))?")

P_HOLIDAY = C(rf"\b(?:(?P<mod>next|last|previous|following|this|coming|the\s+next|the\s+last|the\s+previous|the\s+following)\s+)?"
              rf"(?:the\s+)?(?P<h>{HOLIDAY_RE})\b(?:(?:\s*,\s*|\s+)(?:of\s+|in\s+)?(?P<y>\d{{4}})\b|\s+(?:of\s+)?(?P<which>this|next|last)\s+year\b)?")
HOLIDAY_CTX = C(r"\b(?:on|for|until|till|by|before|after|since|through|thru|over|at|around|celebrate|is|was)\s+(?:the\s+)?$")
P_NOW2 = C(r"\b(?:at\s+the\s+moment|at\s+present|at\s+the\s+present\s+time|at\s+this\s+moment)\b")

GAP_OK = C(r"^(?:[\s,()@]|-|–|\b(?:at|on|around|about|approximately|approx|by|the)\b)*$")
GAP_OK_T = C(r"^(?:[\s,()@]|-|–|\b(?:at|on|around|about|approximately|approx|by|the|from|between)\b)*$")
GAP_DATE_JOIN = C(r"^[\s,(\-–]*$")
GAP_RANGE_T = C(r"^\s*(?:-|–|to|until|till|and|through|thru)\s*$")
GAP_RANGE_D = C(r"^\s*(?:-|–|through|thru|until|till)\s*$")
GAP_ANCHOR = C(r"^\s+(?P<w>from|after|before|since)\s+$")
MOVE_VERB = C(r"\b(?:move|moving|moved|reschedul\w*|chang\w*|push\w*|shift\w*|bump\w*|switch\w*)\b")
UNTIL_BEFORE = C(r"\b(?:until|till|through|thru)\s+$")


# ---------------------------------------------------------------- scanning

def _year_val(s: str | None) -> int | None:
    if not s:
        return None
    s = s.strip()
    if s.startswith("'"):
        return 2000 + int(s[1:])
    if s.isdigit():
        return int(s) if len(s) == 4 else _year2(int(s))
    return year_words_to_int(s)


def _may_ok(text: str, m: re.Match, dword: str) -> bool:
    tok = m.group("mon")
    if tok.lower() == "may" and tok != "May" and not dword[0].isdigit():
        return False
    return True


def scan(text: str, ctx: Ctx) -> list[Atom]:
    atoms: list[Atom] = []
    add = atoms.append
    t = ctx.today

    for m in P_MDY.finditer(text):
        d = words_to_int(m.group("d"))
        if d is None or not _may_ok(text, m, m.group("d")):
            continue
        y = _year_val(m.group("y"))
        add(Atom(m.start(), m.end(), "date", md_res(ctx, MONTHS[m.group("mon").lower().rstrip(".")], d, y), prio=2))
    for m in P_DMY.finditer(text):
        d = words_to_int(m.group("d"))
        if d is None or not _may_ok(text, m, m.group("d")):
            continue
        if m.group("d").isdigit() and int(m.group("d")) > 31:
            continue
        y = _year_val(m.group("y"))
        add(Atom(m.start(), m.end(), "date", md_res(ctx, MONTHS[m.group("mon").lower().rstrip(".")], d, y), prio=2))
    for m, r in _search_all(P_TRIPLE, text, lambda m: _triple(ctx, m)):
        add(Atom(m.start(), m.end(), "date", r, prio=1))
    for m, r in _search_all(P_PAIR, text, lambda m: _pair(ctx, text, m)):
        add(Atom(m.start(), m.end(), "date", r, prio=3))
    for m in P_COMPACT.finditer(text):
        add(Atom(m.start(), m.end(), "date", md_res(ctx, int(m.group("m")), int(m.group("d")), int(m.group("y"))), prio=3))

    for m in P_WEEKDAY.finditer(text):
        tok = m.group("wd")
        low = tok.lower().rstrip(".")
        if low in WEAK_WEEKDAY_ABBR and not m.group("mod"):
            after = text[m.end():m.end() + 12].lower()
            before = text[max(0, m.start() - 4):m.start()].lower()
            if not (re.match(r"\s*(?:\d|at\s+\d|the\s+\d|,\s*\w+\s+\d|morning|afternoon|evening|night)", after) or before.endswith("on ")):
                continue
        wd = WEEKDAYS[low]
        add(Atom(m.start(), m.end(), "date", weekday_res(ctx, wd, m.group("mod"), m.group("tail")), prio=4))
    for m in P_WEEK_WD.finditer(text):
        wd = WEEKDAYS[m.group("wd").lower().rstrip(".")]
        add(Atom(m.start(), m.end(), "date", weekday_res(ctx, wd, "", f"of {m.group('which')} week"), prio=3))
    for m in P_WD_DOM.finditer(text):
        dtok = m.group("d")
        n = words_to_int(dtok)
        if n is None or n > 31 or n < 1:
            continue
        plain_digits = dtok.isdigit()
        if not m.group("the"):
            if plain_digits and n < 13:
                continue
            if not plain_digits and not dtok[0].isdigit() and not re.search(ORDW + "$", dtok, I):
                continue
        wd = WEEKDAYS[m.group("wd").lower().rstrip(".")]
        add(Atom(m.start(), m.end(), "date", dom_res(ctx, n, wd), prio=3))
    for m in P_THE_DOM.finditer(text):
        n = words_to_int(m.group("d"))
        if n is None:
            continue
        which = (m.group("which") or "").lower()
        shift = {"this": 0, "next": 1, "following": 1, "last": -1, "previous": -1}.get(which)
        add(Atom(m.start(), m.end(), "date", dom_res(ctx, n, None, shift), prio=4))
    for m in P_RELDAY.finditer(text):
        w = " ".join(m.group("w").lower().split()).replace("the ", "")
        if w.startswith("day after"):
            r = single(t + timedelta(2), "the day after tomorrow")
        elif w.startswith("day before"):
            r = single(t - timedelta(2), "the day before yesterday")
        elif w.startswith("tod"):
            r = single(t, "today")
        elif w == "yesterday":
            r = single(t - timedelta(1), "yesterday")
        else:
            r = single(t + timedelta(1), "tomorrow")
        add(Atom(m.start(), m.end(), "date", r, prio=3))
    for m in P_END.finditer(text):
        w = " ".join((m.group("w") or "day").lower().split())
        if w in ("day", "today", "tonight", "tomorrow"):
            d = t + timedelta(1) if w == "tomorrow" else t
            add(Atom(m.start(), m.end(), "dtfix", ([(datetime.combine(d, time(23, 59, 59)), f"the end of {_dfmt(d)}")], True), prio=2))
        elif w.endswith("month"):
            base = t + relativedelta(months=1) if w.startswith("next") else t
            d = base.replace(day=monthrange(base.year, base.month)[1])
            add(Atom(m.start(), m.end(), "date", single(d, f"the end of the month ({_dfmt(d)})"), prio=2))
        else:
            y = t.year + (1 if w.startswith("next") else 0)
            add(Atom(m.start(), m.end(), "date", single(date(y, 12, 31), f"the end of the year ({y}-12-31)"), prio=2))
    for m in P_WEEKS.finditer(text):
        r = _weeks(ctx, m)
        if r is not None:
            add(Atom(m.start(), m.end(), "date", r, prio=4))
    for m in P_HOLIDAY.finditer(text):
        r = _holiday(ctx, m)
        if r is not None:
            strong = bool(m.group("mod") or m.group("y") or m.group("which")
                          or HOLIDAY_CTX.search(text[max(0, m.start() - 12):m.start()]))
            add(Atom(m.start(), m.end(), "date", r, weak=not strong, prio=2))
    for m in P_NOW2.finditer(text):
        n = ctx.now.replace(microsecond=0)
        add(Atom(m.start(), m.end(), "dtfix", ([(n.replace(tzinfo=None), "now")], True), prio=6))
    for m in P_NOW.finditer(text):
        n = ctx.now.replace(microsecond=0)
        add(Atom(m.start(), m.end(), "dtfix", ([(n.replace(tzinfo=None), "now")], True), prio=6))
    for m in P_POD.finditer(text):
        pre = " ".join((m.group("pre") or "").lower().split())
        pod = m.group("pod").lower().replace(" ", "")
        pod = {"tonite": "tonight", "lunchtime": "lunch"}.get(pod, pod)
        day = None
        if pod == "tonight" or pre == "this":
            day = 0
        elif pre == "last" and pod in ("night", "evening"):
            day = -1
        elif pre == "last":
            continue
        strong = pod == "tonight" or pre in ("this", "in the", "last") or (pre == "at" and pod == "night")
        start = m.start() if pre not in ("at",) else m.start("pod")
        add(Atom(start, m.end(), "pod", (pod, day), weak=not strong, prio=5))

    # ---- times
    for m in P_T_AP.finditer(text):
        h = int(m.group("h"))
        if not 0 <= h <= 12:
            if h <= 23 and m.group("m"):    # "15:00pm": read as 24-hour
                add(Atom(m.start(), m.end(), "time", _tm(h, m.group("m"), m.group("s"), None, True), prio=1))
            continue
        ap = "am" if m.group("ap").lower().startswith("a") else "pm"
        add(Atom(m.start(), m.end(), "time", _tm(h, m.group("m"), m.group("s"), ap, False), prio=1))
    for m in P_T_24.finditer(text):
        hs = m.group("h")
        h = int(hs)
        exact = h == 0 or h >= 12 or (len(hs) == 2 and hs[0] == "0")
        add(Atom(m.start(), m.end(), "time", dict(_tm(h, m.group("m"), m.group("s"), None, exact), clock=True), prio=2))
    for m in P_T_DOT.finditer(text):
        hs = m.group("h")
        h = int(hs)
        exact = h == 0 or h >= 12 or (len(hs) == 2 and hs[0] == "0")
        st = m.start("h")
        add(Atom(st if not m.group("pre") else m.start(), m.end(), "time", dict(_tm(h, m.group("m"), None, None, exact), clock=True),
                 weak=not m.group("pre"), prio=4))
    for rx in (P_T_BARE, P_T_BARE_POD):
        for m in rx.finditer(text):
            h = int(m.group("h"))
            if h > 23:
                continue
            add(Atom(m.start("h"), m.end(), "time", _tm(h, None, None, None, h == 0 or h >= 12), prio=5))
    for m in P_T_OCLOCK.finditer(text):
        h = words_to_int(m.group("h"))
        if h is None or h > 23:
            continue
        ap = m.group("ap")
        ap = None if not ap else ("am" if ap.lower().startswith("a") else "pm")
        add(Atom(m.start(), m.end(), "time", _tm(h, None, None, ap, h == 0 or h >= 12), prio=2))
    for m in P_T_WORD.finditer(text):
        h = words_to_int(m.group("h"))
        mins = m.group("m")
        mm = None
        if mins:
            mm = words_to_int(re.sub(r"^o[\s-]", "", mins, flags=I))
            if mm is None or mm > 59:
                continue
        ap = m.group("ap")
        if not ap and not mins and not m.group("pre"):
            continue
        if ap and not ap[0].isalpha():
            continue
        ap = None if not ap else ("am" if ap.lower().startswith("a") else "pm")
        weak = not ap and not m.group("pre")
        start = m.start("h") if not ap else m.start("h")
        add(Atom(start, m.end(), "time", _tm(h, mm, None, ap, False), weak=weak, prio=6))
    for m in P_T_PAST.finditer(text):
        q = m.group("q").lower()
        mins = 30 if q == "half" else 15 if q == "quarter" else words_to_int(q)
        h = words_to_int(m.group("h"))
        if mins is None or h is None or mins > 59 or not 1 <= h <= 12:
            continue
        ap = m.group("ap")
        ap = None if not ap else ("am" if ap.lower().startswith("a") else "pm")
        if m.group("dir").lower() in ("to", "till"):
            if q not in ("quarter",) and not re.search(r"minutes?", m.group(0), I):
                continue
            h, mins = (h - 1) or 12, 60 - mins
        add(Atom(m.start(), m.end(), "time", _tm(h, mins, None, ap, False), prio=1))
    for m in P_T_NOON.finditer(text):
        w = m.group("w").lower()
        h = 0 if w == "midnight" else 12
        add(Atom(m.start(), m.end(), "time", _tm(h, None, None, None, True, w), prio=1))
    move = MOVE_VERB.search(text) is not None
    for m in P_TRANGE.finditer(text):
        if move and re.search(r"\bto\b", m.group(0), I):
            continue
        t1 = _tm(int(m.group("h1")), m.group("m1"), None, _ap(m.group("ap1")), False)
        t2 = _tm(int(m.group("h2")), m.group("m2"), None, _ap(m.group("ap2")), False)
        if t1 is None or t2 is None or t1["h"] > 12 or t2["h"] > 12:
            continue
        add(Atom(m.start(), m.end(), "trange", _fix_trange(t1, t2), prio=0))

    # ---- zones
    for m in P_ZONE.finditer(text):
        if m.group("iana"):
            try:
                ZoneInfo(m.group("iana"))
                add(Atom(m.start(), m.end(), "zone", m.group("iana"), weak=True, prio=1))
            except Exception:
                add(Atom(m.start(), m.end(), "badzone", m.group("iana"), weak=True, prio=2))
            continue
        key = (m.group("a") or m.group("c")).lower()
        key = " ".join(key.split())
        add(Atom(m.start(), m.end(), "zone", ZONES[key], weak=True, prio=1))
    for m in P_BADZONE.finditer(text):
        w = m.group("w")
        if w.lower() in ZONES or w.lower().replace(" time", "") in ZONES or w.lower().replace(" time", "") in PARTS_OF_DAY:
            continue
        add(Atom(m.start(), m.end(), "badzone", w, weak=True, prio=3))

    # ---- offsets, durations
    for m in P_OFFSET.finditer(text):
        a = _offset(ctx, text, m)
        if a is not None:
            add(a)

    # ---- recurrences
    for m in P_RECUR.finditer(text):
        r = _recur(m)
        if r is not None:
            add(Atom(m.start(), m.end(), "recur", r, prio=1))
    return atoms


def _search_all(rx, text, judge):
    """Like finditer, but a match the judge rejects does not hide a later overlapping one."""
    pos = 0
    while True:
        m = rx.search(text, pos)
        if m is None:
            return
        r = judge(m)
        if r is None:
            pos = m.start() + 1
            continue
        yield m, r
        pos = m.end()


def _holiday(ctx, m):
    f = holiday_fn(m.group("h"))
    if f is None:
        return None
    t = ctx.today
    name = " ".join(m.group("h").split())
    mod = " ".join((m.group("mod") or "").lower().split()).replace("the ", "")
    if m.group("y") or m.group("which"):
        y = int(m.group("y")) if m.group("y") else t.year + {"this": 0, "next": 1, "last": -1}[m.group("which").lower()]
        d = f(y)
        return DateRes(items=[(d, None, f"{name} {y} ({_dfmt(d)})", ())], relative=not m.group("y"))
    if mod in ("last", "previous"):
        d = f(t.year)
        if d >= t:
            d = f(t.year - 1)
        return DateRes(items=[(d, None, f"the last {name} ({_dfmt(d)})", ())])
    d = f(t.year)
    strict = mod in ("next", "following")
    if d < t or (strict and d == t):
        d = f(t.year + 1)
    return DateRes(items=[(d, None, f"{name} ({_dfmt(d)})", ())], relative=bool(mod))


def _ap(s):
    return None if not s else ("am" if s.lower().startswith("a") else "pm")


def _tm(h, m, s, ap, exact, word=None):
    mi = int(m) if m not in (None, "") else 0
    se = int(s) if s not in (None, "") else 0
    if ap and not 1 <= h <= 12 and not (h == 0 and ap == "am"):
        return None
    return {"h": h, "m": mi, "s": se, "ap": ap, "exact": exact, "word": word}


def _fix_trange(t1, t2):
    if t1["ap"] is None and t2["ap"]:
        h1 = t1["h"] % 12 + (12 if t2["ap"] == "pm" else 0)
        h2 = t2["h"] % 12 + (12 if t2["ap"] == "pm" else 0)
        if h1 * 60 + t1["m"] > h2 * 60 + t2["m"] and t2["ap"] == "pm":
            t1 = dict(t1, ap="am")
        else:
            t1 = dict(t1, ap=t2["ap"])
    return (t1, t2)


def _triple(ctx, m):
    a, b, c, sep = m.group("a"), m.group("b"), m.group("c"), m.group("s")
    toks = [a, b, c]
    names = [x for x in toks if not x.isdigit()]
    if names:
        if len(names) != 1 or sep == " ":
            return None
        mon = _month_of(names[0])
        if mon is None:
            return None
        nums = [x for x in toks if x.isdigit()]
        years = [x for x in nums if len(x) == 4]
        days = [x for x in nums if len(x) <= 2]
        if len(years) == 1 and len(days) == 1:
            return md_res(ctx, mon, int(days[0]), int(years[0]))
        if len(days) == 2 and toks[1] == names[0]:      # 05-Aug-16
            return md_res(ctx, mon, int(a), _year2(int(c)))
        return None
    if len(a) == 4:
        if len(b) > 2 or len(c) > 2:
            return None
        y, x1, x2 = int(a), int(b), int(c)
        if x1 > 12 and x2 <= 12:
            x1, x2 = x2, x1
        return md_res(ctx, x1, x2, y)
    if sep == " " or len(a) > 2 or len(b) > 2 or len(c) == 3:
        return None
    x1, x2 = int(a), int(b)
    y = int(c) if len(c) == 4 else _year2(int(c))
    if x1 > 12 and x2 <= 12:
        x1, x2 = x2, x1
    if x1 > 12:
        return None
    return md_res(ctx, x1, x2, y)


def _pair(ctx, text, m):
    a, b, sep = m.group("a"), m.group("b"), m.group("s")
    if a.isdigit() and b.isdigit():
        if sep != "/" and not PAIR_CTX.search(text, 0, m.start()) :
            return None
        if sep != "/" and not PAIR_CTX.search(text[max(0, m.start() - 16):m.start()]):
            return None
        x1, x2 = int(a), int(b)
        if x1 > 12 and x2 <= 12:
            x1, x2 = x2, x1
        if x1 > 12 or x1 == 0 or x2 == 0:
            return None
        return md_res(ctx, x1, x2, None)
    if a.isdigit() == b.isdigit():
        return None
    name, num = (a, b) if b.isdigit() else (b, a)
    mon = _month_of(name)
    if mon is None:
        return None
    return md_res(ctx, mon, int(num), None)


def _weeks(ctx, m):
    t = ctx.today
    which = " ".join(m.group("which").lower().split()).replace("the ", "")
    unit = m.group("unit").lower()
    mon = _monday(t)
    if unit == "week":
        if which in ("", "over", "on over", "on", "the"):
            return None
        k = {"this": 0, "next": 1, "following": 1, "coming": 1, "last": -1, "previous": -1}.get(which)
        if k is None:
            return None
        a = mon + timedelta(7 * k)
        label = {0: "this week", 1: "next week", -1: "last week"}[k]
        return span_res(a, a + timedelta(6), f"{label} ({a} to {a + timedelta(6)})")
    if unit == "month":
        k = {"this": 0, "next": 1, "following": 1, "coming": 1, "last": -1, "previous": -1}.get(which)
        if k is None:
            return None
        a = t.replace(day=1) + relativedelta(months=k)
        b = a.replace(day=monthrange(a.year, a.month)[1])
        return span_res(a, b, f"{MONTH_NAMES[a.month]} {a.year}")
    sat = mon + timedelta(5)
    if which in ("this", "", "over", "on", "coming"):
        return span_res(sat, sat + timedelta(1), f"this weekend ({sat} to {sat + timedelta(1)})")
    if which in ("next", "following"):
        if t.weekday() >= 5:
            s = sat + timedelta(7)
            return span_res(s, s + timedelta(1), f"the following weekend ({s} to {s + timedelta(1)})")
        s2 = sat + timedelta(7)
        return DateRes(items=[(sat, sat + timedelta(1), f"the coming weekend ({sat} to {sat + timedelta(1)})", ()),
                              (s2, s2 + timedelta(1), f"the weekend after ({s2} to {s2 + timedelta(1)})", ())],
                       is_range=True)
    if which in ("last", "previous"):
        s = sat - timedelta(7)
        return span_res(s, s + timedelta(1), f"last weekend ({s} to {s + timedelta(1)})")
    return None


_SUBDAY = ("h", "m", "s")


def _unit_key(u: str) -> str:
    u = u.lower()
    if u.startswith(("y",)):
        return "years"
    if u.startswith("mo"):
        return "months"
    if u.startswith("f"):
        return "fortnights"
    if u.startswith("w"):
        return "weeks"
    if u.startswith("d"):
        return "days"
    if u.startswith("h"):
        return "hours"
    if u.startswith("s"):
        return "seconds"
    return "minutes"


def _qty(q: str) -> float | None:
    q = " ".join(q.lower().split())
    if q in ("a", "an"):
        return 1
    if q.startswith("half"):
        return 0.5
    if q == "a couple of":
        return 2
    if q == "a few":
        return 3
    try:
        return float(q)
    except ValueError:
        return words_to_int(q)


def _offset(ctx, text, m):
    comps: dict[str, float] = {}
    for c in P_CHUNK.finditer(m.group("q")):
        if c.group("hh"):
            comps["minutes"] = comps.get("minutes", 0) + 90
            continue
        n = _qty(c.group("q"))
        if n is None:
            return None
        k = _unit_key(c.group("u"))
        if k == "fortnights":
            k, n = "weeks", n * 2
        comps[k] = comps.get(k, 0) + n
    if not comps:
        return None
    pre = (m.group("pre") or "").lower()
    suf = " ".join((m.group("suf") or "").lower().split())
    subday = all(k in ("hours", "minutes", "seconds") for k in comps)
    sign = -1 if suf in ("ago", "earlier") else 1
    rd = _rd(comps, sign)
    start = m.start()
    if pre == "for" or (not pre and not suf and subday and not GAP_ANCHOR.match(text[m.end():m.end() + 8] + " ")):
        if pre == "after":
            return None
        if any(k in ("months", "years") for k in comps):
            return None
        td = timedelta(weeks=comps.get("weeks", 0), days=comps.get("days", 0), hours=comps.get("hours", 0),
                       minutes=comps.get("minutes", 0), seconds=comps.get("seconds", 0))
        return Atom(start, m.end(), "dur", td, prio=2)
    if pre in ("in", "within") or suf:
        if pre == "after" and not suf:
            return None
        label = m.group(0).strip()
        if subday:
            inst = (ctx.now.astimezone(UTC) + timedelta(hours=comps.get("hours", 0) * sign,
                                                         minutes=comps.get("minutes", 0) * sign,
                                                         seconds=comps.get("seconds", 0) * sign)).astimezone(ctx.tz)
            return Atom(start, m.end(), "dtfix", ([(inst.replace(microsecond=0), f"{label}: {inst:%Y-%m-%d %H:%M}")], False), prio=1)
        d = ctx.today + rd
        res = single(d, f"{label} ({_dfmt(d)})")
        return Atom(start, m.end(), "date", res, prio=1)
    if pre == "after":
        return None
    # bare: an anchor waiting for "from/after/before <date>"
    return Atom(start, m.end(), "anchor", (comps, rd, " ".join(m.group("q").split())), prio=3)


def _rd(comps, sign=1):
    kw = {}
    for k, v in comps.items():
        if k in ("years", "months", "weeks") and v != int(v):
            if k == "weeks":
                kw["days"] = kw.get("days", 0) + v * 7
            continue
        kw[k] = kw.get(k, 0) + v
    return relativedelta(**{k: (int(v) if float(v).is_integer() else v) * sign for k, v in kw.items()})


def _recur(m):
    rule = {"freq": None, "interval": 1, "byday": None, "bymonthday": None}
    if m.group("adv"):
        a = m.group("adv").lower().replace("-", "")
        rule["freq"] = {"daily": DAILY, "weekly": WEEKLY, "monthly": MONTHLY, "yearly": YEARLY,
                        "annually": YEARLY, "biweekly": WEEKLY, "fortnightly": WEEKLY}[a]
        if a in ("biweekly", "fortnightly"):
            rule["interval"] = 2
    elif m.group("plural"):
        rule["freq"] = WEEKLY
        rule["byday"] = _wd_list(m.group("plural"))
    else:
        other = (m.group("other") or "").lower()
        if m.group("n"):
            n = words_to_int(m.group("n"))
            if not n:
                return None
            rule["interval"] = n
        elif other in ("other", "second", "2nd"):
            rule["interval"] = 2
        elif other in ("third", "3rd"):
            rule["interval"] = 3
        unit = m.group("unit").lower()
        if m.group("wds"):
            rule["freq"] = WEEKLY
            rule["byday"] = _wd_list(m.group("wds"))
        elif unit.startswith("weekday"):
            rule["freq"], rule["byday"] = WEEKLY, [0, 1, 2, 3, 4]
        elif unit.startswith("weekend"):
            rule["freq"], rule["byday"] = WEEKLY, [5, 6]
        elif unit.startswith(("day", "morning", "evening", "night")):
            rule["freq"] = DAILY
        elif unit.startswith("week"):
            rule["freq"] = WEEKLY
        elif unit.startswith("month"):
            rule["freq"] = MONTHLY
        else:
            rule["freq"] = YEARLY
    if m.group("ondom"):
        n = words_to_int(m.group("ondom"))
        if not n or n > 31:
            return None
        rule["bymonthday"] = n
        if rule["freq"] in (None, DAILY, WEEKLY) and not rule["byday"]:
            rule["freq"] = MONTHLY
    if m.group("onwd"):
        rule["byday"] = _wd_list(m.group("onwd"))
        if rule["freq"] == DAILY:
            rule["freq"] = WEEKLY
    unit = (m.group("unit") or "").lower()
    rule["pod"] = next((p for p in ("morning", "evening", "night") if unit.startswith(p)), None)
    return rule


def _wd_list(s):
    out = []
    for tok in re.findall(WD_PL, s, I):
        low = tok.lower().rstrip(".")
        w = WEEKDAYS.get(low)
        if w is None and low.endswith("s"):
            w = WEEKDAYS.get(low[:-1])
        if w is not None and w not in out:
            out.append(w)
    return sorted(out)


def rrule_text(rule) -> str:
    freq = {DAILY: "DAILY", WEEKLY: "WEEKLY", MONTHLY: "MONTHLY", YEARLY: "YEARLY"}[rule["freq"]]
    parts = [f"FREQ={freq}"]
    if rule["interval"] > 1:
        parts.append(f"INTERVAL={rule['interval']}")
    if rule["byday"]:
        parts.append("BYDAY=" + ",".join(RRULE_DAYS[d] for d in rule["byday"]))
    if rule["bymonthday"]:
        parts.append(f"BYMONTHDAY={rule['bymonthday']}")
    return "RRULE:" + ";".join(parts)


def recur_dates(rule, today: date, count=2) -> list[date]:
    kw = {}
    if rule["byday"]:
        kw["byweekday"] = [rr_weekday(d) for d in rule["byday"]]
    if rule["bymonthday"]:
        kw["bymonthday"] = rule["bymonthday"]
    first = rrule(rule["freq"], dtstart=datetime.combine(today, time(0)), count=1, **kw)[0]
    r = rrule(rule["freq"], interval=rule["interval"], dtstart=first, count=count, **kw)
    return [x.date() for x in r]


# ---------------------------------------------------------------- grouping

def select(atoms: list[Atom]) -> list[Atom]:
    atoms.sort(key=lambda a: (-(a.end - a.start), a.prio, a.start))
    taken: list[Atom] = []
    occupied = []
    for a in atoms:
        if any(a.start < e and s < a.end for s, e in occupied):
            continue
        taken.append(a)
        occupied.append((a.start, a.end))
    taken.sort(key=lambda a: a.start)
    return taken


class Group:
    def __init__(self, atom: Atom, text: str):
        self.atoms = [atom]
        self.start, self.end = atom.start, atom.end
        self.date: DateRes | None = None
        self.time = None        # time dict
        self.trange = None      # (t1, t2)
        self.pod = None
        self.zone = None
        self.badzone = None
        self.anchor = None
        self.recur = None
        self.dtfix = None
        self.dur = None
        self.date_range_end: DateRes | None = None
        self.until = False
        self.leftover: list[str] = []
        self._set(atom, text)

    def _set(self, a: Atom, text: str):
        c = a.cat
        if c == "date":
            self.date = a.data
            if UNTIL_BEFORE.search(text[max(0, a.start - 10):a.start]):
                self.until = True
        elif c == "time":
            self.time = a.data
        elif c == "trange":
            self.trange = a.data
        elif c == "pod":
            self.pod = a.data
        elif c == "zone":
            self.zone = a.data
        elif c == "badzone":
            self.badzone = a.data
        elif c == "anchor":
            self.anchor = a.data
        elif c == "recur":
            self.recur = a.data
        elif c == "dtfix":
            self.dtfix = a.data
        elif c == "dur":
            self.dur = a.data

    def accept(self, a: Atom, text: str) -> bool:
        gap = text[self.end:a.start]
        c = a.cat
        if self.dtfix is not None or self.dur is not None:
            return False
        if all(x.cat in ("zone", "badzone") for x in self.atoms):
            return False
        ok = bool(GAP_OK.match(gap))
        if c == "date":
            if self.anchor is not None and self.date is None and GAP_ANCHOR.match(gap):
                comps, rd, qlabel = self.anchor
                w = GAP_ANCHOR.match(gap).group("w").lower()
                sign = -1 if w == "before" else 1
                rdx = rd if sign == 1 else -rd
                d = a.data
                if d.contradiction:
                    self.date = d
                else:
                    items = [(x + rdx, None if y is None else y + rdx, f"{qlabel} {w} {r}: {_dfmt(x + rdx)}", f)
                             for x, y, r, f in d.items]
                    self.date = DateRes(items=items, relative=d.relative or not d.explicit, weekday=None)
                self.anchor = None
                return self._add(a, keep_set=False)
            if self.anchor is not None:
                return False
            if self.date is not None and GAP_DATE_JOIN.match(gap) and self.time is None:
                if self.date.weekday_only and a.data.explicit and not a.data.weekday_only:
                    self.date = check_weekday(_copy(a.data), self.date.weekday)
                    return self._add(a, keep_set=False)
                if self.date.explicit and a.data.weekday_only:
                    self.date = check_weekday(_copy(self.date), a.data.weekday)
                    return self._add(a, keep_set=False)
            if self.date is not None and self.time is None and self.trange is None and GAP_RANGE_D.match(gap) \
                    and not self.date.contradiction and not a.data.contradiction and self.recur is None:
                self.date_range_end = a.data
                return self._add(a, keep_set=False)
            if self.date is None and self.recur is None and ok and (self.pod is None or self.pod[1] is None):
                return self._add(a)
            return False
        if self.anchor is not None:
            return False
        if c == "time":
            if self.time is None and self.trange is None and (ok or GAP_OK_T.match(gap) or (gap.strip().lower() == "for" and not a.weak)):
                return self._add(a)
            if self.time is not None and self.trange is None and GAP_RANGE_T.match(gap):
                g = gap.strip().lower()
                if g == "to" and MOVE_VERB.search(text):
                    return False
                if g == "and" and not re.search(r"between\s+$", text[max(0, self.start - 12):self.start], I):
                    return False
                self.trange = _fix_trange(self.time, a.data)
                self.time = None
                return self._add(a, keep_set=False)
            return False
        if c == "trange":
            return self.time is None and self.trange is None and (ok or GAP_OK_T.match(gap)) and self._add(a)
        if c == "pod":
            return self.pod is None and ok and not (a.data[1] is not None and self.date is not None) and self._add(a)
        if c in ("zone", "badzone"):
            return (self.time is not None or self.trange is not None) and self.zone is None and self.badzone is None \
                and re.match(r"^[\s(]*$", gap) is not None and self._add(a)
        if c == "recur":
            return self.recur is None and self.date is None and ok and self._add(a)
        return False

    def _add(self, a: Atom, keep_set=True) -> bool:
        if keep_set:
            self._set(a, "")
        self.atoms.append(a)
        self.end = a.end
        return True


def _copy(d: DateRes) -> DateRes:
    return DateRes(items=list(d.items), contradiction=d.contradiction, relative=d.relative, weekday=d.weekday,
                   explicit=d.explicit, weekday_only=d.weekday_only, md=d.md, is_range=d.is_range)


GAP_FEW_WORDS = C(r"^\s+(?:[a-z'’]+\s+){0,2}(?:at|around|@)?\s*$|^\s+(?:[a-z'’]+\s+){1,3}$")
GAP_STOP = C(r"\b(?:to|from|until|till|through|thru|and|or|then|but|instead|not|every|each|than)\b|[,.;:!?()]")


def _is_date_only(g: Group) -> bool:
    return (g.date is not None and not g.date.contradiction and not g.date.is_range and g.time is None
            and g.trange is None and g.dtfix is None and g.dur is None and g.anchor is None
            and g.date_range_end is None and not g.until)   # a weak holiday name counts when a time joins it


def _is_time_only(g: Group) -> bool:
    return ((g.time is not None or g.trange is not None) and g.date is None and g.recur is None
            and g.dtfix is None and g.pod is None and any(not a.weak for a in g.atoms))


def group_atoms(atoms: list[Atom], text: str) -> list[Group]:
    groups: list[Group] = []
    cur: Group | None = None
    for a in atoms:
        if cur is not None and cur.accept(a, text):
            continue
        cur = Group(a, text)
        groups.append(cur)
    # "next Friday hockey at 6pm": a lone time a few words after a lone date belongs to it
    dates = [g for g in groups if _is_date_only(g)]
    times = [g for g in groups if _is_time_only(g)]
    if len(dates) == 1 and len(times) == 1:
        d, t = dates[0], times[0]
        first, second = (d, t) if d.start < t.start else (t, d)
        gap = text[first.end:second.start]
        if GAP_FEW_WORDS.match(gap) and not GAP_STOP.search(gap) and not MOVE_VERB.search(gap):
            words = [w for w in gap.split() if w.lower() not in ("at", "around", "@", "on", "the")]
            d.time, d.trange, d.zone, d.badzone = t.time, t.trange, t.zone, t.badzone
            d.atoms = sorted(d.atoms + t.atoms, key=lambda a: a.start)
            d.start, d.end = first.start, second.end
            d.leftover = words
            groups.remove(t)
    return groups


# ---------------------------------------------------------------- resolving a group

def _time_readings(tm, pod, ctx, on_day: date | None):
    """[(hour, minute, second, reading, flags, day_shift)] for a time, narrowed by a part of day."""
    h, mi, se, ap = tm["h"], tm["m"], tm["s"], tm["ap"]
    if tm.get("word") in ("noon", "midday", "mid-day"):
        return [(12, 0, 0, "noon", (), 0)]
    if tm.get("word") == "midnight":
        return [(0, 0, 0, "midnight", (), 0)]
    podname = pod[0] if pod else None
    if tm.get("clock") and not tm["exact"] and ap is None:
        hours = [h]
        if podname and 1 <= h <= 11:
            lo, hi, hint = PARTS_OF_DAY[podname]
            if not lo <= h * 60 + mi < hi and (lo <= (h + 12) * 60 + mi < hi or hint == "pm"):
                if not (podname in ("tonight", "night") and h <= 4):
                    hours = [h + 12]
    elif tm["exact"]:
        hours = [h]
    elif ap == "am":
        hours = [h % 12]
    elif ap == "pm":
        hours = [h % 12 + 12]
    elif h == 12:
        hours = [12]
    elif 1 <= h <= 11:
        hours = [h, h + 12]
    else:
        hours = [h]
    out = []
    if podname and len(hours) == 2:
        lo, hi, hint = PARTS_OF_DAY[podname]
        if podname in ("tonight", "night") and h <= 4:
            hours = [h]
        else:
            fit = [x for x in hours if lo <= x * 60 + mi < hi]
            if len(fit) == 1:
                hours = fit
            elif hint == "am":
                hours = [hours[0]]
            elif hint == "pm":
                hours = [hours[1]]
            elif hint == "lunch":
                hours = [hours[0] if h >= 11 else hours[1]]
    for x in hours:
        flags = ()
        shift = 0
        if podname:
            lo, hi, _ = PARTS_OF_DAY[podname]
            if podname in ("tonight", "night") and x < 5:
                if not (on_day == ctx.today and ctx.now.hour < 5):
                    shift = 1
            elif not lo <= x * 60 + mi < hi + (1 if hi == 23 * 60 + 59 else 0):
                flags = ("outside_part_of_day",)
        out.append((x, mi, se, _tfmt(x, mi, se), flags, shift))
    return out


def _tfmt(h, m, s=0):
    if h == 12 and m == 0 and not s:
        return "12 PM (noon)"
    if h == 0 and m == 0 and not s:
        return "12 AM (midnight)"
    ap = "AM" if h < 12 else "PM"
    hh = h % 12 or 12
    if s:
        return f"{hh}:{m:02d}:{s:02d} {ap}"
    return f"{hh} {ap}" if m == 0 else f"{hh}:{m:02d} {ap}"


def finalize(g: Group, text: str, ctx: Ctx) -> dict | None:
    strong = [a for a in g.atoms if not a.weak]
    if not strong:
        return None
    if g.anchor is not None and len(g.atoms) == 1:
        return None
    start, end = g.start, g.end
    # "until Friday" / "through Monday, November 3": include the keyword in the span
    if g.until and g.date is not None and g.date_range_end is None:
        mm = UNTIL_BEFORE.search(text[max(0, start - 10):start])
        start = max(0, start - 10) + mm.start()
    span = text[start:end]
    z = ctx.tz
    explicit_zone = None
    leftover: list[str] = list(g.leftover)
    contradiction = None
    if g.zone:
        explicit_zone = g.zone
        z = ZoneInfo(g.zone)
    if g.badzone:
        leftover.append(g.badzone)
        contradiction = f"unknown time zone '{g.badzone}'"
    out = dict(span=span, start_index=start, end_index=end, kind="date", candidates=(), relative=False,
               weekday_named=None, explicit_zone=explicit_zone, contradiction=None, recurrence=None,
               duration=None, leftover=tuple(leftover), time_of_day_only=False)
    now_z = ctx.now.astimezone(z)

    if g.dur is not None:
        out.update(kind="duration", duration=g.dur)
        return out
    if g.dtfix is not None:
        items, relative = g.dtfix
        cands = []
        for dt, reading in items:
            if dt.tzinfo is None:
                dt, fl = localize(dt, ctx.tz)
            else:
                fl = ()
            cands.append((dt, None, reading, fl))
        out.update(kind="datetime", candidates=tuple(cands), relative=True)
        return out

    d = g.date
    pod = g.pod
    relative = False
    weekday = None
    if d is not None:
        relative = d.relative
        weekday = d.weekday
        if d.contradiction:
            contradiction = d.contradiction
    if pod is not None and pod[1] is not None and d is None:
        day = ctx.today + timedelta(pod[1])
        d = single(day, {0: "today", -1: "yesterday"}[pod[1]] if pod[0] != "tonight" else "tonight")
        relative = True
    if g.recur is not None:
        relative = True
        out["recurrence"] = rrule_text(g.recur)
        if pod is None and g.recur.get("pod"):
            pod = (g.recur["pod"] if g.recur["pod"] != "night" else "night", None)
    out.update(relative=relative, weekday_named=weekday)

    if contradiction:
        out.update(contradiction=contradiction,
                   kind=("datetime" if d is not None or g.recur is not None else "time") if (g.time or g.trange)
                   else ("range" if (d and d.is_range) else "date"))
        return out

    # date readings
    if g.recur is not None:
        dates = recur_dates(g.recur, ctx.today)
        ditems = [(dates[0], None, f"first occurrence: {_dfmt(dates[0])}", ())]
        second = dates[1] if len(dates) > 1 else None
    elif d is not None:
        ditems = d.items
        second = None
    else:
        ditems = None
        second = None

    # date ranges: "Monday through Friday", "until Nov 3", "this week"
    if ditems is not None and (g.date_range_end is not None or g.until) and not (g.time or g.trange):
        if g.date_range_end is not None:
            ends = g.date_range_end.items
            cands = []
            for a0, a1, r, f in ditems:
                for b0, b1, r2, f2 in ends:
                    e = b1 or b0
                    cands.append((a0, e, f"{r} through {r2}", ()))
            out.update(kind="range", candidates=tuple(cands),
                       relative=relative or g.date_range_end.relative)
        else:
            cands = [(ctx.today, (b1 or b0), f"today through {r}", ()) for b0, b1, r, f in ditems]
            out.update(kind="range", candidates=tuple(cands), relative=True)
        return _flag_past(out, ctx)
    if ditems is not None and any(x[1] is not None for x in ditems):
        out.update(kind="range", candidates=tuple(ditems))
        return _flag_past(out, ctx)

    def combine(day: date, dr: str, dflags, tr) -> tuple:
        h, mi, se, treading, tflags, shift = tr
        naive = datetime.combine(day + timedelta(shift), time(h, mi, se))
        dt, fl = localize(naive, z)
        return dt, f"{dr} at {treading}" if dr else treading, tuple(dflags) + tflags + fl

    if g.time is not None or g.trange is not None:
        t_main = g.time if g.time is not None else g.trange[0]
        cands = []
        if ditems is None:
            out["time_of_day_only"] = True
            for tr in _time_readings(t_main, pod, ctx, None):
                day = now_z.date()
                dt, reading, fl = combine(day, "", (), tr)
                if dt <= now_z:
                    day = day + timedelta(1)
                    dt, reading, fl = combine(day, "", (), tr)
                    reading = f"tomorrow at {reading}"
                else:
                    reading = f"today at {reading}"
                cands.append((dt, day, reading, fl))
        else:
            for day, _, dr, dfl in ditems:
                for tr in _time_readings(t_main, pod, ctx, day):
                    dt, reading, fl = combine(day, dr, dfl, tr)
                    if g.recur is not None and dt < now_z and second is not None:
                        dt, reading, fl = combine(second, f"first occurrence: {_dfmt(second)}", dfl, tr)
                    cands.append((dt, day, reading, fl))
        if g.trange is not None:
            t2 = g.trange[1]
            res = []
            for dt, day, reading, fl in cands:
                ends = _time_readings(t2, None, ctx, None)
                # the end reading nearest after the start
                best = None
                for e in ends:
                    end_naive = datetime.combine(dt.replace(tzinfo=None).date(), time(e[0], e[1], e[2]))
                    if end_naive <= dt.replace(tzinfo=None):
                        end_naive += timedelta(1)
                    if best is None or end_naive < best:
                        best = end_naive
                edt, efl = localize(best, z)
                res.append((dt, edt, f"{reading} to {_tfmt(best.hour, best.minute)}", fl + efl))
            out.update(kind="range", candidates=tuple(res))
        else:
            if ditems is None:
                cands.sort(key=lambda c: c[0])
            out.update(kind="time" if ditems is None else "datetime",
                       candidates=tuple((dt, None, r, fl) for dt, _, r, fl in cands))
        return _flag_past(out, ctx)

    if pod is not None:
        lo, hi, _ = PARTS_OF_DAY[pod[0]]
        if ditems is None:
            day = ctx.today
            endnaive = datetime.combine(day, time(hi // 60, hi % 60))
            if localize(endnaive, z)[0] <= now_z:
                day += timedelta(1)
            ditems = [(day, None, "today" if day == ctx.today else "tomorrow", ())]
            out["time_of_day_only"] = True
        cands = []
        for day, _, dr, dfl in ditems:
            a, f1 = localize(datetime.combine(day, time(lo // 60, lo % 60)), z)
            b, f2 = localize(datetime.combine(day, time(hi // 60, hi % 60)), z)
            name = pod[0]
            reading = "tonight" if name == "tonight" else f"{dr} {name}"
            cands.append((a, b, reading, tuple(dfl) + f1 + f2))
        out.update(kind="range", candidates=tuple(cands))
        return _flag_past(out, ctx)

    if ditems is None:
        return None
    out.update(kind="date", candidates=tuple(ditems))
    return _flag_past(out, ctx)


def _flag_past(out, ctx):
    cands = []
    for s, e, r, f in out["candidates"]:
        past = (s < ctx.now) if isinstance(s, datetime) else (s < ctx.today)
        if e is not None:
            past = (e < ctx.now) if isinstance(e, datetime) else (e < ctx.today)
        if past and "past" not in f:
            f = tuple(f) + ("past",)
        cands.append((s, e, r, tuple(f)))
    out["candidates"] = tuple(cands)
    return out


def find_expressions(text: str, ctx: Ctx) -> list[dict]:
    atoms = select(scan(text, ctx))
    out = []
    for g in group_atoms(atoms, text):
        e = finalize(g, text, ctx)
        if e is not None:
            out.append(e)
    return out
