"""Date rules: one handler per phrase family (month-day dates, numeric dates, weekday phrases,
days of the month, relative days, ends of periods, weeks and weekends, ordinal weekdays of a
month, holidays). Each turns a match into an Atom carrying a DatePhrase."""
from __future__ import annotations

import re
from datetime import datetime, time, timedelta

from reflection.dates import arithmetic as cal
from reflection.dates.lexicon import (
    AP_RE,
    DAY_RE,
    HOLIDAY_RE,
    MONTH_NAMES,
    MONTH_RE,
    MONTHS,
    ORDW,
    WEAK_WEEKDAY_ABBR,
    WEEKDAY_RE,
    WEEKDAYS,
    YEARW,
    holiday_fn,
    words_to_int,
    year_words_to_int,
)
from reflection.dates.rule import I, Rule, rx
from reflection.dates.values import Atom, Ctx, DatePhrase, Instant

YEAR_TAIL = (rf"(?:(?:\s*,\s*|\s+|\s*[-/]\s*)(?:in\s+|of\s+)?"
             rf"(?P<y>\d{{4}}|'\d\d|(?<=of\s)\d\d|{YEARW})(?![\d:]))?")
P_MDY = rx(rf"(?<![a-z])(?P<mon>{MONTH_RE})[\s,/-]*(?P<d>{DAY_RE})(?!\s*(?::\d|{AP_RE}|\.\d|o'?clock))"
           + YEAR_TAIL)
P_DMY = rx(rf"(?<![\w.$€£])(?<!\d:)(?<![$€£]\s)(?:the\s+)?(?P<d>{DAY_RE})(?:\s+day)?(?:\s+of)?"
           rf"[\s/-]*(?P<mon>{MONTH_RE})"
           + YEAR_TAIL)
_TOK = r"[a-z]{3,9}|\d{1,4}"
P_TRIPLE = rx(rf"(?<![0-9a-z/:.])(?P<a>{_TOK})(?P<s>[-/. ])(?P<b>{_TOK})(?P=s)(?P<c>{_TOK})(?![0-9a-z/:]|\.\d)")
P_PAIR = rx(r"(?<![0-9a-z/:.])(?P<a>[a-z]{3,9}|\d{1,2})(?P<s>[-/.])(?P<b>[a-z]{3,9}|\d{1,2})(?![0-9a-z/:]|[-/.]\d)")
P_COMPACT = rx(r"(?<!\d)(?P<y>(?:19|20)\d\d)(?P<m>0[1-9]|1[0-2])(?P<d>0[1-9]|[12]\d|3[01])(?!\d)")
PAIR_CTX = rx(rf"(?:\bon|\bthis|\bnext|\blast|\buntil|\bthrough|\bby|{WEEKDAY_RE},?|\()\s*$")

P_WEEKDAY = rx(rf"(?:\b(?P<mod>this\s+coming|this\s+upcoming|this\s+past|this|next|last|coming|upcoming|"
               rf"the\s+following|following|the\s+previous|previous|past)\s+)?\b(?P<wd>{WEEKDAY_RE})"
               rf"(?:\s+(?P<tail>after\s+next|before\s+last"
               rf"|(?:of\s+)?(?:the\s+)?(?:this|next|last|following|previous|coming)\s+week"
               rf"|week(?!\s+of\b))\b)?")
P_WEEK_WD = rx(rf"\b(?P<which>this|next|last|previous|following|coming)\s+week[\s,-]*(?:on\s+)?(?P<wd>{WEEKDAY_RE})")
P_WD_DOM = rx(rf"\b(?P<wd>{WEEKDAY_RE})[\s,]+(?P<the>the\s+)?(?!one\b)(?P<d>{DAY_RE})"
              rf"(?!\s*(?:[:.]\d|{AP_RE}|o'?clock|[/-]\d|{MONTH_RE}|(?:hours?|minutes?|mins?|days?|weeks?)\b))")
P_THE_DOM = rx(rf"\bthe\s+(?P<d>(?:[0-3]?\d)(?:st|nd|rd|th)\b|{ORDW})(?:\s+day)?"
               rf"(?:\s+(?:of\s+)?(?:the\s+)?(?P<which>this|next|last|following|previous)\s+month)?")
_WORD_AFTER = rx(r"\s+([a-z]+)")
_JOINS = rx(r"of|at|in|on|for|from|to|till|til|until|and|or|but|please|pls|plz|instead|then|so|if|is|it|"
            r"works|would|will|by|around|after|before|between|this|next|that|which|when|with|as|too|also|"
            r"maybe|ok|okay|thanks|thx|ty|cheers|morning|afternoon|evening|night|tonight|noon|midnight|am|pm|"
            r"a|an|the|my|our|we|i|you|she|he|they|not|no|yes|again|only|just|ish|o|oclock|still|now|day")
_CHOICE_AFTER = rx(r"\s+(?:one|ones|option|choice|slot|time|of\s+(?:them|those|these|the\s+two|the\s+three))\b")
P_ORD_WD = rx(rf"\b(?:the\s+)?(?P<n>first|second|third|fourth|fifth|last|final|1st|2nd|3rd|4th|5th)\s+"
              rf"(?P<wd>{WEEKDAY_RE})\s+(?:of|in)\s+(?:(?P<mon>{MONTH_RE})(?:,?\s+(?P<y>\d{{4}})\b)?"
              rf"|(?:the\s+)?(?P<which>this|next|the)\s+month\b)")
P_RELDAY = rx(r"\b(?P<w>(?:the\s+)?day\s+after\s+(?:tomorrow|tomorow|tmrw|tmr)|(?:the\s+)?day\s+before\s+yesterday|"
              r"today|tod?ay'?s|(?:tomorrow|tomorow|tmrw|tmr)(?:['\u2019]?s)?|yesterday)\b")
P_END = rx(r"\b(?:at\s+)?(?:the\s+)?(?:(?:end|last\s+day(?=\s+of\s+(?:the\s+|this\s+|next\s+)?month))\s+of\s+"
           r"(?:the\s+)?(?P<w>day|today|tomorrow|tonight|"
           r"(?:this\s+|next\s+|the\s+)?month|(?:this\s+|next\s+)?year)|(?P<eod>eod))\b")
"""'end of the month' (CONTRACT 4: its last day), and 'the last day of the month', the same day."""
P_WEEKS = rx(r"\b(?P<which>this|next|last|the\s+following|the\s+coming|coming|the\s+previous|previous"
             r"|the|over\s+the|on\s+the)"
             r"\s+(?P<unit>weekend|week|month)\b")
P_HOLIDAY = rx(rf"\b(?:(?P<mod>next|last|previous|following|this|coming"
               rf"|the\s+next|the\s+last|the\s+previous|the\s+following)\s+)?"
               rf"(?:the\s+)?(?P<h>{HOLIDAY_RE})\b"
               rf"(?:(?:\s*,\s*|\s+)(?:of\s+|in\s+)?(?P<y>\d{{4}})\b"
               rf"|\s+(?:of\s+)?(?P<which>this|next|last)\s+year\b)?")
HOLIDAY_CTX = rx(r"\b(?:on|for|until|till|by|before|after|since|through|thru|over|at|around|celebrate|is|was)"
                 r"\s+(?:the\s+)?$")
_WEAK_ABBR_AFTER = rx(r"\s*(?:\d|at\s+\d|the\s+\d|,\s*\w+\s+\d|morning|afternoon|evening|night|"
                      r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d)")  # "sat mar 7"

_CLOCK_BEFORE = rx(r"(?:\d:\d{2}|\d\s*(?:[ap]\.?m\.?))\s+$")
"""A clock time right before a weak abbreviation ("concert 18:30 wed", "6:30pm sat"): the day of
that time, as "wed 18:30" is."""

_ORD_N = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
          "fifth": 5, "5th": 5, "last": -1, "final": -1}
_MONTH_STEP = {"this": 0, "next": 1, "following": 1, "last": -1, "previous": -1}


def _norm(s: str | None) -> str:
    return " ".join((s or "").lower().split())


def _month_of(tok: str) -> int | None:
    return MONTHS.get(tok.lower().rstrip("."))


def _weekday_of(tok: str) -> int:
    return WEEKDAYS[tok.lower().rstrip(".")]


def _year_val(s: str | None) -> int | None:
    if not s:
        return None
    s = s.strip()
    if s.startswith("'"):
        return 2000 + int(s[1:])
    if s.isdigit():
        return int(s) if len(s) == 4 else cal.year2(int(s))
    return year_words_to_int(s)


def _date_atom(m: re.Match[str], res: DatePhrase, prio: int, weak: bool = False) -> Atom:
    return Atom(m.start(), m.end(), res, weak=weak, prio=prio)


# ---------------------------------------------------------------- month and day

def _named_month_day(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'November 5', 'Nov 5th 2026' (an impossible day is a contradiction)."""
    dword = m.group("d")
    d = words_to_int(dword)
    tok = m.group("mon")
    # "may" is also a verb ("we may two..."): lowercase, only a digit or an ordinal word after it
    # makes it the month ("may 15", "may fifteenth")
    if d is None or (tok.lower() == "may" and tok != "May" and not dword[0].isdigit()
                     and not re.fullmatch(ORDW, dword.strip(), re.I)):
        return None
    if not dword[0].isdigit() and re.match(rf"\s+{WEEKDAY_RE}", ctx.text[m.end():], re.I):
        return None  # "october, first saturday": that month's first Saturday, not October 1st
    mon = MONTHS[tok.lower().rstrip(".")]
    return _date_atom(m, cal.month_day(ctx.today, mon, d, _year_val(m.group("y"))), prio=2)


def _day_month(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'5 November', 'the 6th of April' (a number over 31 is not a day here)."""
    dword = m.group("d")
    if dword.isdigit() and int(dword) > 31:
        return None
    return _named_month_day(m, ctx)


def _triple_named(ctx: Ctx, toks: list[str], name: str, sep: str) -> DatePhrase | None:
    mon = _month_of(name)
    if mon is None or sep == " ":
        return None
    nums = [x for x in toks if x.isdigit()]
    years = [x for x in nums if len(x) == 4]
    days = [x for x in nums if len(x) <= 2]
    if len(years) == 1 and len(days) == 1:
        return cal.month_day(ctx.today, mon, int(days[0]), int(years[0]))
    if len(days) == 2 and toks[1] == name:      # 05-Aug-16
        return cal.month_day(ctx.today, mon, int(toks[0]), cal.year2(int(toks[2])))
    return None


_DAY_FIRST_PAIR = rx(r"(?<![0-9a-z/:.])(?:1[3-9]|2\d|3[01])/(?:0?[1-9]|1[0-2])(?![0-9/:]|\.\d)")


def _day_first_said(text: str) -> bool:
    """A numeric date in the message that only reads day/month ("30/6"): the person writes
    dates day first, so their other numeric dates may be day/month as well (CONTRACT 4 reads
    "11/5" as month/day; both readings stand then, and no date is proven from one alone)."""
    return bool(_DAY_FIRST_PAIR.search(text))


def _month_first(x1: int, x2: int) -> tuple[int, int]:
    return (x2, x1) if x1 > 12 and x2 <= 12 else (x1, x2)


def _triple_numeric(ctx: Ctx, a: str, b: str, c: str, sep: str) -> DatePhrase | None:
    if len(a) == 4:
        if len(b) > 2 or len(c) > 2:
            return None
        x1, x2 = _month_first(int(b), int(c))
        return cal.month_day(ctx.today, x1, x2, int(a))
    if sep == " " or len(a) > 2 or len(b) > 2 or len(c) == 3:
        return None
    x1, x2 = _month_first(int(a), int(b))
    if x1 > 12:
        return None
    return cal.month_day(ctx.today, x1, x2, int(c) if len(c) == 4 else cal.year2(int(c)))


def _numeric_triple(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'11/5/2025', '2019-01-04', '23.04.2022', '05-Aug-16', 'Aug-05-2016'."""
    a, b, c, sep = m.group("a"), m.group("b"), m.group("c"), m.group("s")
    toks = [a, b, c]
    names = [x for x in toks if not x.isdigit()]
    if len(names) > 1:
        return None
    res = _triple_named(ctx, toks, names[0], sep) if names else _triple_numeric(ctx, a, b, c, sep)
    return None if res is None else _date_atom(m, res, prio=1)


def _numeric_pair(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'11/5' (month/day), 'on 11-5', 'Nov-5'."""
    a, b, sep = m.group("a"), m.group("b"), m.group("s")
    if a.isdigit() and b.isdigit():
        if sep != "/" and not PAIR_CTX.search(ctx.text[max(0, m.start() - 16):m.start()]):
            return None
        if sep == "." and len(b) == 2 and int(b) in (0, 15, 30, 45) and int(a) <= 23:
            return None  # "friday, 6.30": a dotted clock time, not June 30
        x1, x2 = _month_first(int(a), int(b))
        if x1 > 12 or x1 == 0 or x2 == 0:
            return None
        first = cal.month_day(ctx.today, x1, x2, None)
        if int(a) <= 12 and int(b) <= 12 and int(a) != int(b) and _day_first_said(ctx.text):
            # "30/6 to 3/7": a date beside it can only be day/month, so this one may be too
            other = cal.month_day(ctx.today, x2, x1, None)
            if first.readings and other.readings:
                return _date_atom(m, DatePhrase(readings=first.readings + other.readings, relative=False,
                                                explicit=True), prio=3)
        return _date_atom(m, first, prio=3)
    if a.isdigit() == b.isdigit():
        return None
    name, num = (a, b) if b.isdigit() else (b, a)
    mon = _month_of(name)
    return None if mon is None else _date_atom(m, cal.month_day(ctx.today, mon, int(num), None), prio=3)


def _compact(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'20251105'."""
    res = cal.month_day(ctx.today, int(m.group("m")), int(m.group("d")), int(m.group("y")))
    return _date_atom(m, res, prio=3)


# ---------------------------------------------------------------- weekdays

_NAMING_WORD_BEFORE = re.compile(r"\b(?:cyber|black|good|easter|ash|holy|maundy|palm|shrove|whit|"
                                 r"super\s+bowl|blue|plough|mad)\s+$", re.I)
""""cyber monday", "black friday", "good friday", "easter monday": a day's name, not the coming
weekday; the policy gives it no reading (CONTRACT 4), so it is not read as one."""


def _weekday(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'Friday', 'next Friday', 'last Friday', 'Friday after next', 'Tuesday week'."""
    if not m.group("mod") and _NAMING_WORD_BEFORE.search(ctx.text, max(0, m.start() - 12), m.start()):
        return None
    low = m.group("wd").lower().rstrip(".")
    if low in WEAK_WEEKDAY_ABBR and not m.group("mod"):
        after = ctx.text[m.end():m.end() + 12].lower()
        before = ctx.text[max(0, m.start() - 4):m.start()].lower()
        clock_before = _CLOCK_BEFORE.search(ctx.text, max(0, m.start() - 12), m.start())
        if not (_WEAK_ABBR_AFTER.match(after) or before.endswith("on ") or clock_before):
            return None
    res = cal.weekday_phrase(ctx.today, WEEKDAYS[low], m.group("mod") or "", m.group("tail") or "")
    return _date_atom(m, res, prio=4)


def _week_weekday(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'next week Wednesday'."""
    res = cal.weekday_phrase(ctx.today, _weekday_of(m.group("wd")), "", f"of {m.group('which')} week")
    return _date_atom(m, res, prio=3)


def _weekday_dom(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'Monday the 3rd', 'Friday 17th'."""
    dtok = m.group("d")
    n = words_to_int(dtok)
    if n is None or not 1 <= n <= 31:
        return None
    if not m.group("the"):
        if dtok.isdigit() and n < 13:
            return None
        if not dtok[0].isdigit() and not re.search(ORDW + "$", dtok, I):
            return None
    return _date_atom(m, cal.day_of_month(ctx.today, n, _weekday_of(m.group("wd"))), prio=3)


def _the_dom(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'the 3rd', 'the 15th of next month'."""
    n = words_to_int(m.group("d"))
    if n is None or _CHOICE_AFTER.match(ctx.text, m.end()):
        return None  # "the second one", "the first option": a choice, not a day
    word_after = _WORD_AFTER.match(ctx.text, m.end())
    if not m.group("d")[0].isdigit() and not m.group("which") and word_after is not None \
            and not _JOINS.fullmatch(word_after.group(1)) and not re.fullmatch(MONTH_RE, word_after.group(1), I):
        return None  # "the first two lessons", "the first wednesday after", "first aid": counted things
    shift = _MONTH_STEP.get(_norm(m.group("which")))
    return _date_atom(m, cal.day_of_month(ctx.today, n, None, shift), prio=4)


def _ordinal_weekday(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'the first Monday of December', 'the last Friday of the month'."""
    n = _ORD_N[m.group("n").lower()]
    wd = _weekday_of(m.group("wd"))
    mon = _month_of(m.group("mon")) if m.group("mon") else None
    year = int(m.group("y")) if m.group("y") else None
    which = _norm(m.group("which"))
    shift = 1 if which == "next" else (0 if which == "this" else None)
    res = cal.ordinal_weekday_in_month(ctx.today, n, wd, mon, year, shift)
    return _date_atom(m, res, prio=1)


# ---------------------------------------------------------------- relative days and periods

def _relative_day(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'today', 'tomorrow', 'the day after tomorrow', 'yesterday'."""
    w = _norm(m.group("w")).replace("the ", "")
    t = ctx.today
    if w.startswith("day after"):
        res = cal.single(t + timedelta(2), "the day after tomorrow")
    elif w.startswith("day before"):
        res = cal.single(t - timedelta(2), "the day before yesterday")
    elif w.startswith("tod"):
        res = cal.single(t, "today")
    elif w == "yesterday":
        res = cal.single(t - timedelta(1), "yesterday")
    else:
        res = cal.single(t + timedelta(1), "tomorrow")
    return _date_atom(m, res, prio=3)


def _end_of(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'end of the day' (23:59:59), 'end of the month', 'end of next year', 'EOD'."""
    w = _norm(m.group("w") or "day")
    t = ctx.today
    if w in ("day", "today", "tonight", "tomorrow"):
        d = t + timedelta(1) if w == "tomorrow" else t
        inst = Instant(((datetime.combine(d, time(23, 59, 59)), f"the end of {cal.dfmt(d)}"),))
        return Atom(m.start(), m.end(), inst, prio=2)
    if w.endswith("month"):
        return _date_atom(m, cal.end_of_month(t, 1 if w.startswith("next") else 0), prio=2)
    return _date_atom(m, cal.end_of_year(t, 1 if w.startswith("next") else 0), prio=2)


def _weeks(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'this week', 'next weekend', 'last month'."""
    which = _norm(m.group("which")).replace("the ", "")
    unit = m.group("unit").lower()
    if unit == "week" and which in ("", "over", "on over", "on", "the"):
        return None
    res = cal.week_phrase(ctx.today, which, unit)
    return None if res is None else _date_atom(m, res, prio=4)


_DAY_SAID_AFTER = re.compile(r"[^.;!?\n,]*\b(?:tonight|tonite|today|tomorrow|tmrw)\b", re.I)


def _holiday(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'Christmas', 'next Thanksgiving', 'Easter 2026'; weak without a date word before it."""
    f = holiday_fn(m.group("h"))
    if f is None:
        return None
    mod = _norm(m.group("mod")).replace("the ", "")
    which = m.group("which").lower() if m.group("which") else None
    year = int(m.group("y")) if m.group("y") else None
    res = cal.holiday_phrase(ctx.today, f, " ".join(m.group("h").split()), mod, year, which)
    strong = bool(m.group("mod") or m.group("y") or m.group("which")
                  or HOLIDAY_CTX.search(ctx.text[max(0, m.start() - 12):m.start()])
                  or (m.group("h").casefold() == "nye" and not _DAY_SAID_AFTER.match(ctx.text, m.end())))
    # "nye bbq 6pm": no title says it but of that night ("nye fireworks tonight": tonight says it)
    return _date_atom(m, res, prio=2, weak=not strong)


P_DAYS_MONTH = rx(rf"(?<![\w.:/$])(?P<d1>[0-3]?\d)(?:st|nd|rd|th)?\s*(?:-|\u2013|to|till|until|thru|through)\s*"
                  rf"(?P<d2>[0-3]?\d)(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>{MONTH_RE})(?!\s*\d)")


def _days_of_month(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'3-12 april', '26th to 30th october': the days of one month from the first to the last,
    both included (its first day's first date on or after today)."""
    d1, d2, mon = int(m.group("d1")), int(m.group("d2")), _month_of(m.group("mon"))
    if mon is None or not 1 <= d1 < d2 <= 31:
        return None
    if m.group("mon") == "may" and re.match(r"\s+[a-z]", ctx.text[m.end():]):
        return None  # "from 3-4 may work": "may" the verb, after a time range
    first = cal.month_day(ctx.today, mon, d1, None)
    if first.contradiction or not first.readings:
        return None
    start = first.readings[0].start
    try:
        last = start.replace(day=d2)
    except ValueError:
        return None
    return _date_atom(m, cal.days_span(start, last, f"{MONTH_NAMES[mon]} {d1}-{d2}, {start.year}"), prio=1)


DATE_RULES: tuple[Rule, ...] = (
    Rule("days-of-month", P_DAYS_MONTH, _days_of_month),
    Rule("month-day", P_MDY, _named_month_day),
    Rule("day-month", P_DMY, _day_month),
    Rule("numeric-triple", P_TRIPLE, _numeric_triple, retry=True),
    Rule("numeric-pair", P_PAIR, _numeric_pair, retry=True),
    Rule("compact-date", P_COMPACT, _compact),
    Rule("weekday", P_WEEKDAY, _weekday),
    Rule("week-weekday", P_WEEK_WD, _week_weekday),
    Rule("weekday-day", P_WD_DOM, _weekday_dom),
    Rule("day-of-month", P_THE_DOM, _the_dom),
    Rule("ordinal-weekday", P_ORD_WD, _ordinal_weekday),
    Rule("relative-day", P_RELDAY, _relative_day),
    Rule("end-of", P_END, _end_of),
    Rule("weeks", P_WEEKS, _weeks),
    Rule("holiday", P_HOLIDAY, _holiday),
)
