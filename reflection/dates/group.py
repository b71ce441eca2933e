"""Grouping: adjacent atoms joined only by connectors ("at", "on", ",", "-", "to", "from") form one
group ("next Friday at 7pm", "Monday through Friday", "3pm Eastern", "2 weeks before Christmas").
Each payload kind has its own small joining rule."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from reflection.dates.arithmetic import check_weekday, dfmt, impossible, shift_date
from reflection.dates.rule import rx
from reflection.dates.rules_span import GAP_ANCHOR
from reflection.dates.rules_time import time_span
from reflection.dates.scan import MOVE_VERB
from reflection.dates.values import (
    OUT_OF_RANGE,
    Anchor,
    Atom,
    BadZone,
    ClockTime,
    DatePhrase,
    GroupParts,
    Instant,
    Length,
    PartOfDay,
    Reading,
    Recurrence,
    TimeSpan,
    Zone,
)

GAP_OK = rx(r"^(?:[\s,()@]|-|–|\b(?:at|on|around|about|approximately|approx|by|the)\b)*$")
GAP_OK_T = rx(r"^(?:[\s,()@]|-|–|\b(?:at|on|around|about|approximately|approx|by|the|from|between)\b)*$")
GAP_DATE_JOIN = rx(r"^[\s,(\-–]*$")
GAP_RANGE_T = rx(r"^\s*(?:-|–|to|until|till|and|through|thru)\s*$")
GAP_RANGE_D = rx(r"^\s*(?:-|–|through|thru|until|till)\s*$")
GAP_ZONE = rx(r"^[\s(]*$")
BETWEEN_BEFORE = rx(r"between\s+$")
UNTIL_BEFORE = rx(r"\b(?:until|till|through|thru)\s+$")
GAP_FEW_WORDS = rx(r"^\s+(?:[a-z'’]+\s+){0,2}(?:at|around|@)?\s*$|^\s+(?:[a-z'’]+\s+){1,3}$")
GAP_STOP = rx(r"\b(?:to|from|until|till|through|thru|and|or|then|but|instead|not|every|each|than)\b|[,.;:!?()]")


class Group:
    """Atoms that read as one expression, and their parts by role."""

    def __init__(self, atom: Atom, text: str, move: bool):
        self.text = text
        self.move = move
        self.atoms = [atom]
        self.start, self.end = atom.start, atom.end
        self.parts = GroupParts()
        self._set(atom)

    # ------------------------------------------------------------ bookkeeping
    def _set(self, a: Atom) -> None:
        p, x = self.parts, a.payload
        if isinstance(x, DatePhrase):
            p.date = x
            if UNTIL_BEFORE.search(self.text[max(0, a.start - 10):a.start]):
                p.until = True
        elif isinstance(x, ClockTime):
            p.time = x
        elif isinstance(x, TimeSpan):
            p.span = x
        elif isinstance(x, PartOfDay):
            p.pod = x
        elif isinstance(x, Zone):
            p.zone = x
        elif isinstance(x, BadZone):
            p.badzone = x
        else:
            self._set_other(x)

    def _set_other(self, x: object) -> None:
        p = self.parts
        if isinstance(x, Anchor):
            p.anchor = x
        elif isinstance(x, Recurrence):
            p.recur = x
        elif isinstance(x, Instant):
            p.instant = x
        elif isinstance(x, Length):
            p.length = x

    def _add(self, a: Atom, set_part: bool = True) -> bool:
        if set_part:
            self._set(a)
        self.atoms.append(a)
        self.end = a.end
        return True

    # ------------------------------------------------------------ joining
    def accept(self, a: Atom) -> bool:
        """Take `a` into this group when the words between them are only connectors."""
        p = self.parts
        if p.instant is not None or p.length is not None:
            return False
        if all(isinstance(x.payload, (Zone, BadZone)) for x in self.atoms):
            return False
        gap = self.text[self.end:a.start]
        if isinstance(a.payload, DatePhrase):
            return self._accept_date(a, a.payload, gap)
        if p.anchor is not None:
            return False
        join = _JOINERS.get(type(a.payload))
        return join is not None and join(self, a, gap)

    def _accept_date(self, a: Atom, d: DatePhrase, gap: str) -> bool:
        p = self.parts
        if p.anchor is not None:
            anchor_gap = GAP_ANCHOR.match(gap)
            return p.date is None and anchor_gap is not None and self._apply_anchor(a, d, p.anchor, anchor_gap["w"])
        if p.date is not None and p.time is None and self._join_dates(a, p.date, d, gap):
            return True
        if p.date is None and p.recur is None and GAP_OK.match(gap) and (p.pod is None or p.pod.day is None):
            return self._add(a)
        return False

    def _join_dates(self, a: Atom, first: DatePhrase, d: DatePhrase, gap: str) -> bool:
        """'Friday, October 31' (one date) or 'Monday through Friday' (a range of days); in
        'Friday through Sunday, September 6' the date names the range's last day."""
        p = self.parts
        if p.range_end is not None:
            last = _weekday_and_date(p.range_end, d) if GAP_DATE_JOIN.match(gap) else None
            if last is None or last.contradiction:
                return False
            p.range_end = last
            return self._add(a, set_part=False)
        if GAP_DATE_JOIN.match(gap):
            joined = _weekday_and_date(first, d)
            if joined is not None:
                p.date = joined
                return self._add(a, set_part=False)
        if (p.span is None and GAP_RANGE_D.match(gap) and not first.contradiction and not d.contradiction
                and p.recur is None):
            p.range_end = d
            return self._add(a, set_part=False)
        return False

    def _apply_anchor(self, a: Atom, d: DatePhrase, anchor: Anchor, word: str) -> bool:
        """'2 weeks before Christmas': every reading of the date moved by the amount."""
        w = word.lower()
        sign = -1 if w == "before" else 1
        p = self.parts
        p.date = d if d.contradiction else _shifted(d, anchor, sign, w)
        p.anchor = None
        return self._add(a, set_part=False)

    def _accept_time(self, a: Atom, gap: str) -> bool:
        p = self.parts
        assert isinstance(a.payload, ClockTime)
        if p.time is None and p.span is None:
            loose = gap.strip().lower() == "for" and not a.weak
            return bool(GAP_OK.match(gap) or GAP_OK_T.match(gap) or loose) and self._add(a)
        if p.time is not None and p.span is None and GAP_RANGE_T.match(gap):
            g = gap.strip().lower()
            if g == "to" and self.move:
                return False
            if g == "and" and not BETWEEN_BEFORE.search(self.text[max(0, self.start - 12):self.start]):
                return False
            p.span = time_span(p.time, a.payload)
            p.time = None
            return self._add(a, set_part=False)
        return False

    def _accept_span(self, a: Atom, gap: str) -> bool:
        p = self.parts
        return p.time is None and p.span is None and bool(GAP_OK_T.match(gap)) and self._add(a)

    def _accept_pod(self, a: Atom, gap: str) -> bool:
        p = self.parts
        assert isinstance(a.payload, PartOfDay)
        if p.pod is not None or not GAP_OK.match(gap):
            return False
        return not (a.payload.day is not None and p.date is not None) and self._add(a)

    def _accept_zone(self, a: Atom, gap: str) -> bool:
        p = self.parts
        return ((p.time is not None or p.span is not None) and p.zone is None and p.badzone is None
                and GAP_ZONE.match(gap) is not None and self._add(a))

    def _accept_recur(self, a: Atom, gap: str) -> bool:
        p = self.parts
        return p.recur is None and p.date is None and bool(GAP_OK.match(gap)) and self._add(a)


_JOINERS: dict[type, Callable[[Group, Atom, str], bool]] = {
    ClockTime: Group._accept_time, TimeSpan: Group._accept_span, PartOfDay: Group._accept_pod,
    Zone: Group._accept_zone, BadZone: Group._accept_zone, Recurrence: Group._accept_recur,
}


def _shifted(d: DatePhrase, anchor: Anchor, sign: int, word: str) -> DatePhrase:
    """Every reading of `d` moved by the anchor's amount; past year 9999, out of range."""
    items = []
    try:
        for r in d.readings:
            x = shift_date(r.start, sign * anchor.months, sign * anchor.delta)
            y = None if r.end is None else shift_date(r.end, sign * anchor.months, sign * anchor.delta)
            items.append(Reading(x, y, f"{anchor.label} {word} {r.label}: {dfmt(x)}", r.flags))
    except (OverflowError, ValueError):
        return impossible(OUT_OF_RANGE)
    return DatePhrase(readings=tuple(items), relative=d.relative or not d.explicit)


def _weekday_and_date(first: DatePhrase, second: DatePhrase) -> DatePhrase | None:
    """'Friday, October 31' / 'October 31, Friday': one date whose weekday must match."""
    if first.weekday_only and second.explicit and not second.weekday_only and first.weekday is not None:
        return check_weekday(second, first.weekday)
    if first.explicit and second.weekday_only and second.weekday is not None:
        return check_weekday(first, second.weekday)
    return None


def _is_date_only(g: Group) -> bool:
    p = g.parts
    return (p.date is not None and not p.date.contradiction and not p.date.is_range and p.time is None
            and p.span is None and p.instant is None and p.length is None and p.anchor is None
            and p.range_end is None and not p.until)   # a weak holiday name counts when a time joins it


def _is_time_only(g: Group) -> bool:
    p = g.parts
    return ((p.time is not None or p.span is not None) and p.date is None and p.recur is None
            and p.instant is None and p.pod is None and any(not a.weak for a in g.atoms))


def _merge_lone_time(groups: list[Group], text: str) -> None:
    """'next Friday hockey at 6pm': a lone time a few words after a lone date belongs to it."""
    dates = [g for g in groups if _is_date_only(g)]
    times = [g for g in groups if _is_time_only(g)]
    if len(dates) != 1 or len(times) != 1:
        return
    d, t = dates[0], times[0]
    first, second = (d, t) if d.start < t.start else (t, d)
    gap = text[first.end:second.start]
    if not GAP_FEW_WORDS.match(gap) or GAP_STOP.search(gap) or MOVE_VERB.search(gap):
        return
    words = [w for w in gap.split() if w.lower() not in ("at", "around", "@", "on", "the")]
    d.parts = replace(d.parts, time=t.parts.time, span=t.parts.span, zone=t.parts.zone, badzone=t.parts.badzone,
                      leftover=words)
    d.atoms = sorted(d.atoms + t.atoms, key=lambda a: a.start)
    d.start, d.end = first.start, second.end
    groups.remove(t)


def group_atoms(atoms: list[Atom], text: str, move: bool) -> list[Group]:
    """Atoms (non-overlapping, in text order) joined into groups."""
    groups: list[Group] = []
    cur: Group | None = None
    for a in atoms:
        if cur is not None and cur.accept(a):
            continue
        cur = Group(a, text, move)
        groups.append(cur)
    _merge_lone_time(groups, text)
    return groups
