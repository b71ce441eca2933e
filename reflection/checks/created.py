"""Values a write carries besides its times, checked against the people and things the message
names (CONTRACT 5, "verified in full means every value written was checked"): a created title,
the addresses invited, an all-day span (the calendar written to: `reflection.checks.calendars`).

Each check proves an error only from the message's own words ("book Leo's haircut" written as
"Maya haircut"; "invite carlos.m@example.com" written as carlos@example.com; "a 3-day trip"
written as two days). Anything it cannot read for sure
leaves the call unverified, so the reflection model looks at it.
"""
from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Any

from reflection.checks.binding import bind
from reflection.checks.context import CheckContext, WriteCall
from reflection.dates.lexicon import MONTH_NAMES, WEEKDAY_NAMES, WEEKDAY_STEM_RE
from reflection.reading.request import Phrase, joined_as_span, single_days
from tools.calendar.events import as_date

_EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
_WORD_RE = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?", re.UNICODE)
_POSSESSIVE_RE = re.compile(r"\b([^\W\d_]{2,})['\u2019]s\s+((?:[^\W\d_]+\s+){0,2}[^\W\d_]+)", re.UNICODE)
# Words a title may carry that the message need not say: kinds of event, joiners, filler.
GENERIC = frozenset("""a an the and with w for of at on in to from my our your his her their
appt appointment appointments meeting call lesson lessons class session visit practice party event
time day night trip run pickup pick up drop off dinner lunch breakfast check checkup -
mr mrs ms dr""".split())
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "a": 1, "an": 1}
_DAYS_LENGTH_RE = re.compile(r"\b(\d+|one|two|three|four|five|six|seven|a)[\s-]+days?\b(?![\s-]+(?:later|earlier|"
                             r"before|after|from|ago))", re.I)


def _words(text: str) -> list[str]:
    return [w.casefold().replace("\u2019", "'") for w in _WORD_RE.findall(text)]


def _stem(word: str) -> str:
    word = word.removesuffix("'s")
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _said(word: str, message: set[str]) -> bool:
    """Whether the message says `word`, allowing plurals, short forms and small typos."""
    from rapidfuzz import fuzz

    w = _stem(word)
    for m in message:
        s = _stem(m)
        if w == s or (len(w) >= 3 and len(s) >= 3 and (w.startswith(s) or s.startswith(w))):
            return True
        if len(w) >= 5 and fuzz.ratio(w, s) >= 85:
            return True
    return False


def _people(ctx: CheckContext) -> set[str]:
    """Words that name people here: possessives in the message and the calendar ("Leo's"),
    names after a dash in titles ("Dentist - Leo"), and the names in invited addresses."""
    names: set[str] = set(_named_in(ctx.reading.text))
    texts = ctx.case.window_texts()  # each distinct text once, the whole window's
    for title, description in texts.titled:
        names |= _named_in(f"{title} {description or ''}")
        names |= _named_in_title(title.strip())
    for attendees in texts.guests:
        names |= _named_by(attendees)
    return {n for n in names if n not in GENERIC and len(n) > 1}


@lru_cache(maxsize=1 << 14)
def _named_in(text: str) -> frozenset[str]:
    """The people a text names by a possessive ("Leo's"; cached: every check reads the whole
    window's titles again)."""
    return frozenset(m.group(1).casefold() for m in _POSSESSIVE_RE.finditer(text)) - _NOT_OWNERS


@lru_cache(maxsize=1 << 14)
def _named_in_title(title: str) -> frozenset[str]:
    """"Dentist - Leo", "Olivia \u2013 gymnastics": a capitalised name on either side of a dash; a
    name first only before a lower-case activity (not "Haircut - Maya", not "Parent-teacher")."""
    names = {p.casefold() for p in re.findall(r"[-\u2013\u2014:]\s*([A-Z][^\W\d_]+)\s*$", title)}
    names |= {p.casefold() for p in re.findall(r"^([A-Z][^\W\d_]+)(?:\s+-|\s*[\u2013\u2014:])\s+[a-z]", title)}
    return frozenset(names)


@lru_cache(maxsize=1 << 12)
def _named_by(attendees: tuple[str, ...]) -> frozenset[str]:
    """The people invited addresses name ("leo.park@" names Leo), cached like `_named_in`."""
    names: set[str] = set()
    for address in attendees:
        names |= {w for w in re.split(r"[._+-]", address.split("@")[0].casefold()) if len(w) > 2}
    return frozenset(names)


def check_created_titles(ctx: CheckContext) -> None:
    """A created title against the message: naming a different person from the one whose thing
    was asked ("book Leo's haircut" written "Maya haircut") is an error; words the message does
    not say leave it unverified."""
    message = set(_words(ctx.reading.text))
    people = _people(ctx)
    for write in ctx.writes:
        if write.kind != "create" or write.failed or ctx.is_flagged(write):
            continue
        title = str(write.written("title") or "")
        title_words = [w for w in _words(title) if w not in GENERIC]
        quoted = _quoted_title(ctx)
        if quoted is not None and len([w for w in ctx.writes if w.kind == "create"]) == 1:
            missing = [w for w in _words(quoted) if w not in GENERIC and not _said(w, set(_words(title)))]
            if missing:
                ctx.error(write, "other", f"the person gave the title '{quoted}'; the call's title '{title}' "
                          f"leaves out {', '.join(repr(m) for m in missing)}", f"title it '{quoted}'", quoted,
                          proof={"title_given": quoted, "title_written": title, "missing": missing})
                continue
        in_title = _named_in(title) | _named_in_title(title.strip())  # "Dentist - Leo" names Leo
        proof = _other_person(ctx.reading.text, title, people | in_title) or \
            _other_for_with(ctx.reading.text, title, people | in_title)
        if proof is not None:
            ctx.error(write, "other", f"the message asks for {proof['owner'].title()}'s {proof['thing']}; the "
                      f"call's title '{title}' names {proof['named'].title()} instead",
                      f"title it for {proof['owner'].title()}", proof["owner"], proof=proof)
            continue
        unsaid = [w for w in title_words if not _said(w, message)]
        if unsaid:
            ctx.unsure(write, "the title has words the message does not say: " + ", ".join(unsaid[:3]))
        elif _owner_missing(ctx.reading.text, title):
            ctx.unsure(write, "the title leaves out whose it is")


QUOTED_AFTER_CREATE_RE = re.compile(
    r"\b(?:add|book|create|schedule|put|pencil\s+in|set\s+up|make)\s+(?:(?:an?\s+)?(?:event|entry|appointment)\s+"
    r"(?:called|named|titled)\s+)?(?:^|(?<=\s))['\"\u2018\u201c](?P<q>[^'\"\u2018\u2019\u201c\u201d\n]{2,60}?)"
    r"['\"\u2019\u201d](?=[\s,.!?;:]|$)", re.I)


RENAMED_TO_RE = re.compile(
    r"\b(?:rename\w*|call\s+it|retitle|change\s+the\s+(?:name|title))\b[^.!?\n]{0,60}?\bto\s+"
    r"['\"\u2018\u201c](?P<q>[^'\"\u2018\u2019\u201c\u201d\n]{2,60}?)['\"\u2019\u201d](?=[\s,.!?;:]|$)", re.I)


def _new_title_given(ctx: CheckContext) -> str | None:
    """The one new title the message writes out in quotes ("rename 'Arzt' to 'Kinderarzt - Mia'")."""
    found = [m["q"].strip() for m in RENAMED_TO_RE.finditer(ctx.reading.text)]
    return found[0] if len(found) == 1 else None


def renamed_as_given(ctx: CheckContext, write: WriteCall) -> bool:
    """The call's new title is the one the person wrote out in quotes, word for word (case and
    dashes aside): that title is checked, not for judgement."""
    given = _new_title_given(ctx)
    if given is None or write.kind != "update":
        return False
    return _words(given) == _words(str(write.written("title") or ""))


def check_renamed_titles(ctx: CheckContext) -> None:
    """"rename 'Arzt' to 'Kinderarzt - Mia'": the new title is written out, so every word of it
    must be in the title the call writes."""
    given = _new_title_given(ctx)
    renames = [w for w in ctx.writes if w.kind == "update" and not w.failed and "title" in w.input]
    if given is None or len(renames) != 1 or ctx.is_flagged(renames[0]):
        return
    write = renames[0]
    title = str(write.written("title") or "")
    missing = [w for w in _words(given) if w not in GENERIC and not _said(w, set(_words(title)))]
    if missing:
        ctx.error(write, "other", f"the person gave the new title '{given}'; the call's title '{title}' leaves "
                  f"out {', '.join(repr(m) for m in missing)}", f"title it '{given}'", given,
                  proof={"title_given": given, "title_written": title, "missing": missing})


def _quoted_title(ctx: CheckContext) -> str | None:
    """"add 'dentist \u2013 owen' for nov 20": a title the person wrote out, in quotes, right
    after asking for the event; the created title must carry its words."""
    found = [m["q"].strip() for m in QUOTED_AFTER_CREATE_RE.finditer(ctx.reading.text)]
    return found[0] if len(found) == 1 else None


def _other_person(text: str, title: str, people: set[str]) -> dict[str, Any] | None:
    """'leo's haircut' asked, 'Maya haircut' written: the proof, or None."""
    title_words = set(_words(title))
    named_in_title = {w.removesuffix("'s") for w in title_words} & people
    if not named_in_title:
        return None
    for match in _POSSESSIVE_RE.finditer(text):
        owner = match.group(1).casefold()
        if owner not in people:
            continue
        thing = [w for w in _words(match.group(2)) if w not in GENERIC]
        if not thing or not any(_said(w, title_words) for w in thing):
            continue
        if owner in named_in_title or any(owner in w for w in title_words):
            return None
        others = sorted(named_in_title - {owner})
        # "ollie and zara's swim lessons": every name said just before the possessive counts
        before = set(_words(text[max(0, match.start() - 30):match.start()]))
        within = {w.removesuffix("'s") for w in _words(match.group(0))}  # "leo's and maya's lessons"
        others = [o for o in others if o not in before and o not in within]
        if others:
            return {"owner": owner, "thing": " ".join(thing), "named": others[0], "title": title}
    return None


_FOR_WITH_RE = re.compile(r"\b((?:[^\W\d_]+\s+){0,2}[^\W\d_]+)\s+(?:for|with)\s+(?:the\s+)?([^\W\d_]{2,})\b",
                          re.UNICODE)
"""'a haircut for Maya', 'a playdate with Jordan': the thing, and the person it is for or with."""
_DAY_AND_MONTH_NAMES = frozenset(n.casefold() for n in (*WEEKDAY_NAMES, *MONTH_NAMES) if n)
_NOT_NAMES = frozenset("""mom mum mommy mummy mama ma dad daddy papa pa grandma grandpa nana gran granny grandad
granddad grandmother grandfather nan pop aunt auntie uncle nanny sis bro family kids kid boys girls everyone
everybody them him her us me you it this that all both today tonight tomorrow yesterday morning afternoon
evening noon week weekend month year""".split()) | _DAY_AND_MONTH_NAMES
"""Words after 'for'/'with' that are no one's name here: family roles (one person has several:
'Nana' is 'grandma'), pronouns, days and months."""


_NOT_OWNERS = frozenset("""there it that here what who let he she where when how why nobody somebody someone
one today tonight tomorrow yesterday week weekend month year""".split()) | frozenset(
    n.casefold() for n in WEEKDAY_NAMES)
"""Words before 's that own nothing: "there's", "it's", "let's", "today's lunch", "friday's game"."""


def _name_of(word: str, text: str, start: int, people: set[str]) -> bool:
    """Whether `word` (at `start` of `text`) names a person: known here (`_people`), or written
    with a capital inside a sentence, and not a role, a pronoun or a date word."""
    folded = word.casefold()
    if folded in _NOT_NAMES or folded in GENERIC:
        return False
    return folded in people or (word[:1].isupper() and start > 0 and
                                not re.search(r"(?:^|[.!?:]\s*)$", text[:start]))


def _people_in_title(title: str, people: set[str]) -> set[str]:
    """The people a title names: by a possessive, after a dash, after 'for'/'with', or known."""
    names = set(_named_in(title)) | set(_named_in_title(title.strip()))
    names |= {m.group(2).casefold() for m in _FOR_WITH_RE.finditer(title)
              if _name_of(m.group(2), title, m.start(2), people)}
    names |= {w.removesuffix("'s") for w in _words(title)} & people
    return {n for n in names if n not in _NOT_NAMES and n not in GENERIC}


def _other_for_with(text: str, title: str, people: set[str]) -> dict[str, Any] | None:
    """'a haircut for Maya' written 'Haircut - Sam', 'a playdate with Jordan' written 'Playdate
    with Noah': the title keeps the thing and names someone the message does not, instead of the
    person it names. The proof, or None."""
    title_words = set(_words(title))
    message = set(_words(text))
    named = {n for n in _people_in_title(title, people) if not _said(n, message)}
    if not named:
        return None
    for match in _FOR_WITH_RE.finditer(text):
        owner = match.group(2).casefold()
        if not _name_of(match.group(2), text, match.start(2), people):
            continue
        thing = [w for w in _words(match.group(1)) if w not in GENERIC]
        if not thing or not any(_said(w, title_words) for w in thing):
            continue
        if owner in title_words or any(w.startswith(owner) or owner.startswith(w.removesuffix("'s"))
                                       for w in title_words if len(w) > 2):
            return None
        return {"owner": owner, "thing": " ".join(thing), "named": sorted(named)[0], "title": title}
    return None


def _owner_missing(text: str, title: str) -> bool:
    """'leo's haircut' asked and a title with the haircut but not Leo (and some other name)."""
    title_words = set(_words(title))
    for match in _POSSESSIVE_RE.finditer(text):
        owner = match.group(1).casefold()
        thing = [w for w in _words(match.group(2)) if w not in GENERIC]
        if thing and any(_said(w, title_words) for w in thing) and owner not in title_words \
                and not any(w.startswith(owner) for w in title_words):
            extra = [w for w in title_words if w not in GENERIC and not any(_said(w, {t}) for t in thing)]
            if extra:
                return True
    return False


def check_invited(ctx: CheckContext) -> None:
    """Addresses written against the ones the message gives: an address the message gives is
    checked exactly; one it does not give is for judgement (and, left unverified, destructive)."""
    given = {a.casefold() for a in _EMAIL_RE.findall(ctx.reading.text)}
    for write in ctx.writes:
        if write.failed or write.kind == "delete" or "attendees" not in write.input:
            continue
        before = ctx.event(write.event_id) if write.kind == "update" else None
        known = {a.casefold() for a in (before.attendees if before else ())}
        written = write.input.get("attendees")
        new = [str(a).casefold() for a in written if str(a).casefold() not in known] \
            if isinstance(written, list) else []
        unknown = [a for a in new if a not in given]
        if unknown and given and not (given & set(new)):
            ctx.error(write, "other", f"the message gives {', '.join(sorted(given))}; the call invites "
                      f"{', '.join(unknown)}", f"invite {', '.join(sorted(given))}", None,
                      proof={"given": sorted(given), "written": unknown})
        elif unknown:
            ctx.unsure(write, "it invites an address the message does not give")


def _past_every_day_said(ctx: CheckContext, write: WriteCall, written: set[date]) -> bool:
    """The only write, an all-day create, covering a day that no phrase of the message names at
    all ("grandma's staying this thursday and friday" written thursday to saturday): whichever
    phrase is its own, that day was not asked (reported: True). Every phrase's days are allowed,
    so one that only tells of another event widens what stands, never what is proven (the caller
    has ruled out unread day words, which leave every day open)."""
    if len(ctx.writes) != 1:
        return False
    said: set[date] = set()
    for phrase in ctx.reading.phrases:
        if phrase.role == "negated" or phrase.expression is None:
            continue
        if phrase.shift is not None or phrase.day_relative is not None:
            return False
        for cand in phrase.expression.candidates:
            first = as_date(cand.start)
            said |= _days(first, as_date(cand.end) if cand.end is not None else first)
    outside = sorted(written - said)
    if not said or not outside:
        return False
    ctx.error(write, "date", f"the all-day event covers {outside[0].isoformat()}, a day the message does not "
              "name", "cover only the days asked", None,
              proof={"days_said": sorted(d.isoformat() for d in said),
                     "days_written": sorted(d.isoformat() for d in written)})
    return True


def _days(first: date, last: date) -> set[date]:
    """Every day from `first` to `last`, both included."""
    return {first + timedelta(days=i) for i in range((last - first).days + 1)}


def _one_day_short(phrases: list[Phrase], written: set[date]) -> tuple[str, date] | None:
    """A range of days the message names ("next week", Monday to Sunday) that the all-day event
    covers from its first day to the day before its last, and no reading it covers whole: the
    exclusive end taken for the last day. Only an event of two days or more that starts on the
    range's first day: one day inside a range ("dinner this weekend") is an event somewhere in
    it, not the range cut short. (phrase, the day left out), or None."""
    if len(written) < 2:
        return None
    found: tuple[str, date] | None = None
    for said, days in _range_readings(phrases):
        if days == written:
            return None  # a reading the event covers whole
        last = max(days)
        if found is None and days - {last} == written:
            found = (said, last)
    return found


def _range_readings(phrases: list[Phrase]) -> list[tuple[str, set[date]]]:
    """Each reading of each range of days the phrases name ("next week"), as (phrase, its days)."""
    out: list[tuple[str, set[date]]] = []
    for phrase in phrases:
        expr = phrase.expression
        if expr is None or expr.kind != "range":
            continue
        for cand in expr.candidates:
            if cand.end is None or isinstance(cand.end, datetime) or isinstance(cand.start, datetime):
                continue
            out.append((phrase.text, _days(as_date(cand.start), as_date(cand.end))))
    return out


def check_all_day_spans(ctx: CheckContext) -> None:
    """An all-day create's days against what was asked: 'a 3-day trip' is three days; a span
    reaching past every day the bound phrases can mean is an error. A day word the policy does
    not read ("the friday before thanksgiving") leaves the days open."""
    from reflection.checks.dates import unread_date_words  # dates imports this module

    for write in ctx.writes:
        if write.kind != "create" or write.failed or ctx.is_flagged(write):
            continue
        if not write.written("all_day"):
            continue
        start, end = _day(write.written("start")), _day(write.written("end"))
        if start is None:
            continue
        end = end or start + timedelta(days=1)
        days = (end - start).days
        asked = _days_asked(ctx.reading.text)
        if asked is not None:
            if days != asked:
                ctx.error(write, "date", f"{asked} days were asked; the all-day event covers {days} "
                          f"(its end {end.isoformat()} is exclusive)",
                          f"end it on {(start + timedelta(days=asked)).isoformat()} (exclusive)", None,
                          proof={"days_asked": asked, "days_written": days, "end": end.isoformat()})
            continue
        binding = bind(ctx, write)
        allowed: set[date] = set()
        for phrase in binding.phrases:
            expr = phrase.expression
            for cand in expr.candidates if expr is not None else ():
                first = as_date(cand.start)
                allowed |= _days(first, as_date(cand.end) if cand.end is not None else first)
        written = {start + timedelta(days=i) for i in range(days)}
        open_ended = re.search(r"\b(?:starting|from|beginning|begins?|leaving|till|until|through|thru)\b",
                               ctx.reading.text, re.I) or _DAY_TO_DAY_RE.search(ctx.reading.text)
        for first_day, last_day in _dates_joined(ctx):  # "26 oct to 30 oct": the days between too
            allowed |= _days(first_day, last_day)
        # the only write of a message naming no event: every day it names is this event's
        certain = binding.certain or (len(ctx.writes) == 1 and not ctx.reading.mentions)
        unread = not open_ended and bool(unread_date_words(ctx))  # read once: it may read the window
        if not allowed or not certain or open_ended or unread:
            if not open_ended and not unread and _past_every_day_said(ctx, write, written):
                continue
            if days > 1:
                ctx.unsure(write, "how many days the all-day event spans was not said")
            continue
        days_said = [p for p in binding.phrases if p.expression is None or p.expression.kind != "time"]
        named = single_days(days_said) if certain and len(ctx.writes) == 1 else set()  # "8am" names no day
        left_out = sorted(named - written)
        if left_out:
            ctx.error(write, "date", f"the all-day event leaves out {left_out[0].isoformat()}, a day the message "
                      "names", "cover every day asked", binding.phrases[0].text,
                      proof={"days_named": sorted(d.isoformat() for d in named),
                             "days_written": sorted(d.isoformat() for d in written)})
            continue
        short = _one_day_short(binding.phrases, written)
        if short is not None:
            said, last = short
            ctx.error(write, "date", f"'{said}' runs to {last.isoformat()}; the all-day event stops the day "
                      f"before (its end {end.isoformat()} is exclusive)",
                      f"end it on {(last + timedelta(days=1)).isoformat()} (exclusive)", said,
                      proof={"phrase": said, "last_day": last.isoformat(),
                             "days_written": sorted(d.isoformat() for d in written)})
            continue
        if not written <= allowed:
            outside = sorted(written - allowed)
            ctx.error(write, "date", f"the all-day event covers {outside[0].isoformat()}, a day no phrase asks "
                      "for", "cover only the days asked", binding.phrases[0].text,
                      proof={"days_allowed": sorted(d.isoformat() for d in allowed),
                             "days_written": sorted(d.isoformat() for d in written)})
            continue
        part = _part_of_range(binding.phrases, written)
        if part is not None and not (days == 1 and _ONE_DAY_SAID_RE.search(ctx.reading.text)):
            ctx.unsure(write, f"the all-day event covers only part of '{part}'")


_ONE_DAY_SAID_RE = re.compile(r"(?<!\ball\s)\bday\b(?![\s-]?s\b)|\bone[\s-]day\b", re.I)
"""'ski day this weekend', 'a day trip next weekend': one day inside the range is what was said."""


def _part_of_range(phrases: list[Phrase], written: set[date]) -> str | None:
    """The range of days ("next weekend", "next week") an all-day event covers only part of at
    every reading: "put the cabin trip on next weekend" as Saturday alone may be a day trip, or the
    weekend cut short; that is for judgement, never verified. None when a reading is covered whole
    or no phrase is a range of days."""
    found: str | None = None
    for said, days in _range_readings(phrases):
        if days == written:
            return None
        if written < days:
            found = said
    return found


_DAY_TO_DAY_RE = re.compile(r"\b" + WEEKDAY_STEM_RE + r"\.?\s*(?:to|-|\u2013)\s*"
                            r"(?:mon|tue|wed|thu|fri|sat|sun)", re.I)
"""'fri to sun': a span of days the phrases, read one by one, do not cover."""


def _dates_joined(ctx: CheckContext) -> list[tuple[date, date]]:
    """Two dates said as one span ("26 oct to 30 oct", "jan 3 to jan 5"): the days between are
    asked too, which the phrases, read one by one, do not cover."""
    dated = [p for p in ctx.reading.phrases if p.expression is not None and p.expression.kind == "date"
             and p.role != "negated"]
    out: list[tuple[date, date]] = []
    for a, b in zip(dated, dated[1:], strict=False):
        if not joined_as_span(ctx.reading.text, a, b):
            continue
        assert a.expression is not None and b.expression is not None
        for ca in a.expression.candidates:
            for cb in b.expression.candidates:
                if as_date(ca.start) <= as_date(cb.start):
                    out.append((as_date(ca.start), as_date(cb.start)))
    return out


def _days_asked(text: str) -> int | None:
    found = {_NUMBER_WORDS.get(m.group(1).casefold()) or int(m.group(1)) if m.group(1).isdigit()
             else _NUMBER_WORDS.get(m.group(1).casefold()) for m in _DAYS_LENGTH_RE.finditer(text)}
    found.discard(None)
    return found.pop() if len(found) == 1 else None


def _day(raw: Any) -> date | None:
    try:
        return date.fromisoformat(str(raw)[:10]) if raw else None
    except ValueError:
        return None
