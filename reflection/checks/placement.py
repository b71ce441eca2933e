"""An event placed relative to another: "put the dinner right after it", "maya's right before
his", "fireworks 2 hours after the bbq ends".

The other event may itself move in the same turn, and the person may mean its old or its new time
("move swim to when piano used to be" says old; "right after it" usually new), so each relation is
judged against both. An error is proven only when the written start contradicts the relation under
every one of those readings: the event starts before the other ends when "after" was said, ends
after the other starts when "before" was said, lies more than a quarter hour off when "right after/before"
was said, or misses the stated amount ("30 min after it ends") at every reading. Anything else
stays for judgement: these wordings are outside the date policy (CONTRACT 4), so a match is never
"verified" here, only a contradiction is proven.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo
from typing import Literal

from reflection.checks.context import CheckContext, WriteCall
from reflection.reading.request import ENDED_WORDS, Mention, sentence_at
from reflection.wording import describe_when
from tools.calendar.occurrences import occurrences

RELATION_RE = re.compile(
    r"\b(?:(?P<close>right|just|straight|directly|immediately)\s+)?"
    r"(?:(?P<amount>\d+|an?|one|two|three|half\s+an?)\s*(?P<unit>h|hrs?|hours?|min|mins|minutes)\s+)?"
    r"(?P<dir>before|after|ahead\s+of)\s+"
    r"(?P<what>it|that|this|him|her|his|hers|theirs|them|the\s+[a-z]+(?:\s+[a-z]+)?|[a-z]+['\u2019]s(?:\s+[a-z]+)?)"
    r"(?P<edge>\s+(?:ends?|finishes|is\s+over|is\s+done|wraps\s+up|starts?|begins?))?", re.I)
SOON_RE = re.compile(
    r"\b(?:(?P<close>as\s+soon\s+as|right\s+when|just\s+when|the\s+(?:minute|moment|second))|once)\s+"
    r"(?P<what>it|that|this|the\s+[a-z]+(?:\s+[a-z]+)?|[a-z]+['\u2019]s(?:\s+[a-z]+)?)"
    rf"(?:['\u2019]s|\s+is|\s+gets|\s+has)?\s+(?:{ENDED_WORDS})\b", re.I)
"""'as soon as it's over', 'once the game ends', 'the minute school lets out': after the other
event's end ('as soon as', 'right when', 'the minute': right after it)."""
ELLIPTIC_RE = re.compile(r"\b(?P<close>right|just|straight|directly|immediately)\s+(?P<dir>after(?:wards?)?|before)"
                         r"(?=\s*(?:[.?!,;]|$))", re.I)
"""'book dinner for right after?': right after (or before) the event named before it."""
PAST_RE = re.compile(r"\b(?:used\s+to|was|were|had|old|original\w*|previous\w*|before\s+it\s+moved|"
                     r"where\s+it\s+is\s+now|currently)\b", re.I)
DAY_UNIT_BEFORE_RE = re.compile(r"\b(day|night|week)\s*$", re.I)
PRONOUNS = frozenset({"it", "that", "this", "him", "her", "his", "hers", "theirs", "them"})
CLOSE_SLACK = timedelta(minutes=15)
"""'right after', 'just before': within a quarter of an hour of the other event."""
_WORD_AMOUNTS = {"a": 1.0, "an": 1.0, "one": 1.0, "two": 2.0, "three": 3.0}


@dataclass(frozen=True)
class Relation:
    """One placing phrase and what it says."""

    text: str
    start: int
    after: bool
    close: bool
    amount: timedelta | None
    edge: str | None  # "end" | "start" | None (not said)
    what: tuple[int, int]
    pronoun: bool
    days: int | None = None  # "the day after Emma's recital": that many days from the other's date


def find_relations(text: str) -> list[Relation]:
    out: list[Relation] = []
    for m in RELATION_RE.finditer(text):
        amount = None
        if m["amount"]:
            raw = m["amount"].casefold()
            n = 0.5 if raw.startswith("half") else _WORD_AMOUNTS.get(raw) or float(raw)
            unit = m["unit"].casefold()
            amount = timedelta(hours=n) if unit.startswith("h") else timedelta(minutes=n)
        edge_word = (m["edge"] or "").strip().casefold()
        edge = None if not edge_word else ("start" if edge_word.startswith(("start", "begin")) else "end")
        what = m["what"].casefold()
        after = m["dir"].casefold() == "after"
        unit = DAY_UNIT_BEFORE_RE.search(text[max(0, m.start() - 12):m.start()]) if not m["amount"] else None
        days = None if unit is None else (7 if unit[1].casefold() == "week" else 1) * (1 if after else -1)
        out.append(Relation(m.group(0), m.start(), after, bool(m["close"]), amount,
                            edge, (m.start("what"), m.end("what")), what in PRONOUNS, days))
    for m in ELLIPTIC_RE.finditer(text):
        out.append(Relation(m.group(0), m.start(), m["dir"].casefold().startswith("after"), True, None, None,
                            (m.end(), m.end()), True))
    for m in SOON_RE.finditer(text):
        out.append(Relation(m.group(0), m.start(), True, bool(m["close"]), None, "end",
                            (m.start("what"), m.end("what")), m["what"].casefold() in PRONOUNS))
    out.sort(key=lambda r: r.start)
    return out


_BARE_BEFORE_RE = re.compile(r"\b(?:(?P<close>right|just|straight|directly|immediately)\s+)?"
                             r"(?P<dir>before|after|ahead\s+of)\s+$", re.I)


def _bare_relations(ctx: CheckContext) -> list[Relation]:
    """"after yoga tonight", "right before swim": a relation to an event the message names by its
    bare title (`RELATION_RE` reads "after the X" and "after X's" only: a bare word after
    "after" is most often no event, "after school", "after work"; here the calendar says it is).
    A day unit before it ("the day before mia's party") is the date checks' to read."""
    text = ctx.reading.text
    out: list[Relation] = []
    for mention in ctx.reading.mentions:
        event = ctx.case.event(mention.ref.best) if mention.ref.best else None
        if event is None or not mention.certain:
            continue
        found = _BARE_BEFORE_RE.search(text, max(0, mention.ref.start - 30), mention.ref.start)
        if found is None or DAY_UNIT_BEFORE_RE.search(text[max(0, found.start() - 12):found.start()]):
            continue
        out.append(Relation(text[found.start():mention.ref.end], found.start(), found["dir"].casefold() == "after",
                            bool(found["close"]), None, None, (mention.ref.start, mention.ref.end), False))
    return out


_TITLE_WORD_RE = re.compile(r"[a-z]{3,}")


def _titled_beside(ctx: CheckContext, write: WriteCall, relation: Relation) -> bool:
    """A new event is what a bare relation places only when a word of its title is said in the
    relation's own sentence ("after yoga tonight i need a grocery run")."""
    sentence = ctx.reading.text[slice(*sentence_at(ctx.reading.text, relation.start))].casefold()
    title = str(write.written("title") or "").casefold()
    return any(re.search(rf"\b{word}", sentence) for word in _TITLE_WORD_RE.findall(title))


def _parties(ctx: CheckContext, relation: Relation) -> tuple[str | None, Mention | None]:
    """What the relation places (an event key, or "" for a new event) and the mention it places
    it against. "put maya's right before his": Maya's haircut against Leo's; "put the dinner right
    after it" (no dinner on the calendar): a new event against the event named before it."""
    mentions = [m for m in ctx.reading.mentions if m.ref.best]
    before = [m for m in mentions if m.ref.start < relation.start]
    if relation.pronoun:
        keys = list(dict.fromkeys(m.ref.best for m in reversed(before)))
        if len(keys) >= 2 and _same_clause(ctx, before[-1], relation):
            other = next(m for m in reversed(before) if m.ref.best == keys[1])
            return keys[0], other
        return ("", before[-1]) if before else (None, None)
    a, b = relation.what
    named = [m for m in mentions if m.ref.start < b and a < m.ref.end]
    if len(named) != 1:
        return None, None
    rest = [m for m in before if m.ref.best != named[0].ref.best]
    if rest and _same_clause(ctx, rest[-1], relation):
        return rest[-1].ref.best, named[0]
    return "", named[0]


def _same_clause(ctx: CheckContext, mention: Mention, relation: Relation) -> bool:
    return mention.clause[0] <= relation.start < mention.clause[1]


def _times(ctx: CheckContext, key: str, on: date) -> list[tuple[datetime, datetime, str]]:
    """The other event's times: as it was, and as this turn left it (when it wrote both). A
    repeating one is its occurrence on `on`, the placed write's day ("after yoga tonight": this
    Wednesday's class, not the first one); none that day, nothing to place against."""
    event = ctx.case.event(key)
    if event is None or not isinstance(event.start, datetime) or not isinstance(event.end, datetime):
        return []
    was: tuple[datetime, datetime] = (event.start, event.end)
    if event.recurrence:
        day_start = datetime.combine(on, time(0), ctx.tz)
        found = [o for o in occurrences(event, day_start, day_start + timedelta(days=1))
                 if isinstance(o, datetime) and o.astimezone(ctx.tz).date() == on]
        if len(found) != 1:
            return []
        was = (found[0], found[0] + event.duration)
    out: list[tuple[datetime, datetime, str]] = []
    for write in ctx.writes:
        if write.kind != "update" or write.failed or ctx.series_key(write.event_id) != key:
            continue
        start = ctx.read_when(write.written("start"), write.input.get("timezone") or event.timezone)
        end = ctx.read_when(write.written("end"), write.end_zone(write.input.get("timezone") or event.timezone, event))
        if isinstance(start, datetime) and not isinstance(end, datetime):
            end = start + event.duration
        if isinstance(start, datetime) and isinstance(end, datetime):
            out = [(start, end, "as this turn moved it")]
    if not out or PAST_RE.search(ctx.reading.text):
        # moved in this turn, the other event is where it now goes ("bbq is starting an hour
        # earlier ... fireworks 2 hours after the bbq ends"), unless the words look back
        out.insert(0, (*was, "as it was"))
    return out


def _fits(relation: Relation, start: datetime, end: datetime | None, other: tuple[datetime, datetime, str],
          tz: tzinfo) -> bool:
    o_start, o_end, _ = other
    if relation.days is not None:  # a day, in the person's zone, counted from the other's own day
        return start.astimezone(tz).date() == (o_start.astimezone(tz) + timedelta(days=relation.days)).date()
    if relation.amount is not None:
        if relation.after:
            refs = [o_start if relation.edge == "start" else o_end] if relation.edge else [o_end, o_start]
            return any(start == ref + relation.amount for ref in refs)
        targets = [o_start - relation.amount]
        return start in targets or (end is not None and end in targets)
    if relation.after:
        ref = o_start if relation.edge == "start" else o_end
        return start >= ref and (not relation.close or start - ref <= CLOSE_SLACK)
    if end is None:
        return True
    ref = o_end if relation.edge == "end" else o_start
    return end <= ref and (not relation.close or ref - end <= CLOSE_SLACK)


def _time_not_kept(ctx: CheckContext, write: WriteCall, start: datetime) -> bool:
    """"the day after Sofia's recital, same time as usual": the day comes from the other event,
    the time stays the event's own; a written time other than its own is proven wrong."""
    current = ctx.event(write.event_id) if write.kind == "update" else None
    if current is None or not isinstance(current.start, datetime) or not ctx.reading.same_time:
        return False
    own = current.start.astimezone(ctx.tz).time()
    written = start.astimezone(ctx.tz).time()
    if written == own:
        return False
    ctx.error(write, "time", f"'same time' keeps '{current.title}' at {own:%H:%M}; the call moves it to "
              f"{written:%H:%M}", f"keep it at {own:%H:%M}", "same time",
              proof={"kept": f"{own:%H:%M}", "written": f"{written:%H:%M}"})
    return True


Placement = Literal["error", "exact", "open"]
"""What judging a placement found: a contradiction (reported), the one start every reading
allows ("right after it" at the other's new end), or a start some readings allow."""


def _exact(relation: Relation, start: datetime, end: datetime | None, other: tuple[datetime, datetime, str]) -> bool:
    """The write is where the relation puts it, to the minute: "right after" at the other's end,
    "right before" ending at its start, "30 min after it ends" thirty minutes after its end."""
    o_start, o_end, _ = other
    if relation.days is not None:
        return False  # the day is settled; its time is the time checks' (kept, or said)
    if relation.amount is not None:
        if relation.edge is None:
            return False  # "2 hours after the bbq": after its start or its end is for judgement
        ref = o_end if relation.edge == "end" else o_start
        return start == (ref + relation.amount if relation.after else ref - relation.amount)
    if not relation.close:
        return False
    if relation.after:
        return start == (o_start if relation.edge == "start" else o_end)
    return end is not None and end == (o_end if relation.edge == "end" else o_start)


def judge_placement(ctx: CheckContext, write: WriteCall, start: datetime, end: datetime | None,
                    bare_only: bool = False) -> Placement:
    """Report an error when the write contradicts every reading of the relation that places it;
    say "exact" when one relation places it and the write is exactly where its only reading puts it.
    `bare_only`: only the relations to an event named by its bare title (`_bare_relations`), for a
    write whose time a date phrase gives as well ("after yoga tonight")."""
    own_key = ctx.series_key(write.event_id) if write.kind != "create" else ""
    creates = [w for w in ctx.writes if w.kind == "create" and not w.failed]
    placing: list[tuple[Relation, list[tuple[datetime, datetime, str]]]] = []
    read = find_relations(ctx.reading.text)
    bare = [r for r in _bare_relations(ctx) if not any(r.start <= x.start < r.start + len(r.text) for x in read)]
    for relation in bare if bare_only else read + bare:
        placed, other = _parties(ctx, relation)
        if placed is None or other is None or placed != own_key or (placed == "" and len(creates) != 1):
            continue
        if not other.certain or other.ref.best is None or other.ref.best == own_key:
            continue
        if placed == "" and relation in bare and not _titled_beside(ctx, write, relation):
            continue  # "dinner fri 7pm. ben can come after basketball": ben, not the dinner
        readings = _times(ctx, other.ref.best, start.astimezone(ctx.tz).date())
        placing.append((relation, readings))
        if relation.days is not None and readings and _time_not_kept(ctx, write, start):
            return "error"
        if not readings or any(_fits(relation, start, end, r, ctx.tz) for r in readings):
            continue
        title = ctx.case.event(other.ref.best).title  # type: ignore[union-attr]
        said = "; ".join(f"{describe_when(s)} to {describe_when(e)} ({how})" for s, e, how in readings)
        ctx.error(write, "time", f"'{relation.text}' places it relative to '{title}' ({said}); the call "
                  f"starts it at {describe_when(start)}", f"place it {relation.text.strip()} as asked",
                  relation.text, proof={"relation": relation.text, "relative_to": title,
                                        "readings": [[str(s), str(e)] for s, e, _ in readings],
                                        "written": str(start)})
        return "error"
    if len(placing) == 1 and len(placing[0][1]) == 1 and _exact(placing[0][0], start, end, placing[0][1][0]):
        return "exact"
    return "open"
