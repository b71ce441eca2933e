"""The calendar written against the one the message names (CONTRACT 5, type `calendar`).

"Add piano to Leo's calendar" written on the family calendar is wrong; so is "change the dentist
on Maya's calendar" made to the dentist on Dad's, and "move it to the family one" that leaves the
event where it was. Proof needs the calendars' names (`reflection.reading.calendars`): a name
said that no known calendar has, a pronoun ("on his calendar"), a written calendar known only by
its id, or a calendar phrase that cannot be tied to one write leaves the write unsure, never
wrong. A write that moves an event to another calendar when the message names none is a change
nobody asked for.
"""
from __future__ import annotations

import re
from dataclasses import replace
from functools import cached_property

from reflection.checks.context import CheckContext, WriteCall
from reflection.reading.calendars import RELATIONS, CalendarBook, NamedCalendar, all_ids, words_of

_SELF_RE = re.compile(r"\b(?:i|me|my|we|us|our)\b", re.I)

UNKNOWN_CALENDAR = "primary"
"""What an event read from a case without a `calendar_id` carries: not a calendar we can name."""


class Whose:
    """The case's calendars and, for each write, the calendar it wrote on."""

    def __init__(self, ctx: CheckContext) -> None:
        self.ctx = ctx
        self.book: CalendarBook = ctx.book

    def was_on(self, write: WriteCall) -> str | None:
        """The calendar a changed or deleted event was on before the turn (None: not known)."""
        event = self.ctx.event(write.event_id) if write.event_id else None
        if event is None:
            return None
        if event.calendar_id == UNKNOWN_CALENDAR and UNKNOWN_CALENDAR not in self.book.calendars:
            given = write.input.get("calendar_id")
            return str(given) if given else None
        return event.calendar_id

    def written_on(self, write: WriteCall) -> str | None:
        """The calendar the write left its event on: a create's calendar (the default one when
        it names none), a changed event's own, or the one a change moved it to."""
        if write.kind == "create":
            written = write.written("calendar_id")
            return str(written) if written else self.book.default_id
        moved = self.moved_to(write)
        return moved or self.was_on(write)

    def moved_to(self, write: WriteCall) -> str | None:
        """The other calendar an update put its event on, when it shows one (else None)."""
        if write.kind != "update":
            return None
        before = self.was_on(write)
        written = write.written("calendar_id")
        if before is None or not written or str(written) == before:
            return None
        if str(written) == write.input.get("calendar_id") and write.call.result is None:
            # only the input says it: the tools read an update's calendar_id as where the
            # event is, so without a result it may just name the calendar it is on
            return None
        return str(written)

    @property
    def named(self) -> list[NamedCalendar]:
        return self.ctx.reading.calendars

    @cached_property
    def mine(self) -> frozenset[str]:
        """The person's own calendars, as far as the calendars say: the default one and, when it
        is personal, its owner's other personal ones ("on my calendar" agrees with these; it
        proves nothing against another, whose owner may be the person too)."""
        default = self.book.default_id
        if default is None:
            return frozenset()
        return frozenset(c for c in self.book.calendars if self.book.same_person(default, c))

    @cached_property
    def free_with(self) -> frozenset[str]:
        """The calendars of the people a free time is asked with: each calendar whose name or
        owner the message says ("when Maya and I are free": Maya's), and the person's own
        ("I", "me", "we": the default calendar and its owner's others)."""
        text = self.ctx.reading.text
        for item in self.named:  # "put it on the family one" names a calendar, not a person
            text = text[:item.start] + " " * (item.end - item.start) + text[item.end:]
        said = words_of(text)
        out = {c for c in self.book.calendars if self.book.words(c) & said}
        if _SELF_RE.search(self.ctx.reading.text):
            out |= self.mine
        return frozenset(out)


_PART_BREAK_RE = re.compile(r"[,;.!?\n]|\b(?:and|then|also|plus|but)\b", re.I)


def _part_of(text: str, index: int) -> tuple[int, int]:
    """The stretch of the message between two joins ("and", a comma) holding `index`: "move
    Leo's swim to 5 and add piano to Leo's calendar" has the calendar in the second part."""
    start, end = 0, len(text)
    for match in _PART_BREAK_RE.finditer(text):
        if match.end() <= index:
            start = match.end()
        elif match.start() > index:
            end = match.start()
            break
    return start, end


def _starts_of(ctx: CheckContext, write: WriteCall) -> list[int]:
    if not write.event_id:
        return []
    return [m.ref.start for m in ctx.reading.mentions_of(ctx.series_key(write.event_id))]


def _bound(ctx: CheckContext, writes: list[WriteCall], named: list[NamedCalendar]) -> \
        tuple[dict[int, list[NamedCalendar]], list[NamedCalendar]]:
    """Each calendar phrase tied to the write it is about: with one write, that one; else the
    write whose event is named in the same part of the message, or the one create when no
    changed event is. Returns the phrases by write (position in `writes`) and the ones tied to
    none."""
    by_write: dict[int, list[NamedCalendar]] = {}
    loose: list[NamedCalendar] = []
    if len(writes) == 1:
        return {0: list(named)}, []
    creates = [n for n, w in enumerate(writes) if w.kind == "create"]
    text = ctx.reading.text
    for item in named:
        a, b = _part_of(text, item.start)
        holding = [n for n, w in enumerate(writes) if any(a <= s < b for s in _starts_of(ctx, w))]
        if len(holding) == 1:
            by_write.setdefault(holding[0], []).append(item)
        elif not holding and len(creates) == 1:
            by_write.setdefault(creates[0], []).append(item)
        else:
            loose.append(item)
    return by_write, loose


def check_calendar(ctx: CheckContext) -> None:
    """"on Maya's calendar" against the calendar written; a move to another calendar nobody
    asked for."""
    whose = Whose(ctx)
    writes = [w for w in ctx.writes if not w.failed]
    _unknown_calendars(ctx, whose, writes)
    named = whose.named
    if not named:
        for write in writes:
            moved = whose.moved_to(write)
            if moved is not None and whose.book.knows(moved):
                ctx.error(write, "calendar", f"the message names no calendar; the call moved the event "
                          f"to '{whose.book.calendars[moved].name}'", "leave it on its own calendar",
                          None, proof={"moved_to": moved, "was_on": whose.was_on(write)})
        return
    by_write, loose = _bound(ctx, writes, named)
    if loose:
        for write in writes:
            if write.kind != "delete":
                ctx.unsure(write, f"'{loose[0].said}' calendar cannot be tied to one change")
    for position, write in enumerate(writes):
        phrases = by_write.get(position, [])
        if phrases:
            _judge(ctx, whose, write, phrases)


def _unknown_calendars(ctx: CheckContext, whose: Whose, writes: list[WriteCall]) -> None:
    """Among several calendars, a new event put on one known by no name was not checked
    against the message (it may say "put it on bin days"): verified in full needs every value
    written checked (CONTRACT 5)."""
    seen = {e.calendar_id for e in ctx.case.calendar if e.calendar_id != UNKNOWN_CALENDAR}
    seen |= {str(w.written("calendar_id")) for w in writes if w.written("calendar_id")}
    if len(seen) < 2:
        return
    for write in writes:
        given = write.written("calendar_id") if write.kind == "create" else whose.moved_to(write)
        if given and not whose.book.knows(str(given)):
            ctx.unsure(write, "the calendar written is not known by name")


def _judge(ctx: CheckContext, whose: Whose, write: WriteCall, phrases: list[NamedCalendar]) -> None:
    book = whose.book
    now = [p for p in phrases if p.role == "current"]  # "it's on the family cal by mistake"
    if now and write.kind != "create" and whose.was_on(write) not in all_ids(now):
        ctx.unsure(write, f"the message says it is on the {now[0].said} calendar; it was not")
    if _on_excluded(ctx, whose, write, phrases):
        return
    own_kept = whose.written_on(write) in whose.mine  # "on my calendar", and it is on one of theirs
    phrases = [p for p in phrases if p.role not in ("current", "read", "excluded")
               and not (_own(p) and not p.ids and own_kept)]
    phrases = [_narrowed(p, whose.mine) for p in phrases]
    if not phrases:
        return
    unknown = [p for p in phrases if not p.ids]
    if unknown:
        why = "a pronoun" if unknown[0].pronoun else "no calendar we know by that name"
        ctx.unsure(write, f"'{unknown[0].said}' calendar names {why}")
        return
    written = whose.written_on(write)
    if written is None or not book.knows(written):
        ctx.unsure(write, "the calendar written is not known by name")
        return
    targets = [p for p in phrases if p.role == "target"]
    sources = [p for p in phrases if p.role == "source"]
    if write.kind == "update" and sources and not targets and whose.moved_to(write):
        ctx.unsure(write, f"moved off the {sources[0].said} calendar: where to is not said")
        return
    if write.kind == "create":
        if not targets:
            return  # "copy it from Dad's calendar": the source is another event's place
        wanted = all_ids(targets)
    elif sources and targets:  # "move it from Dad's calendar to the family one"
        wanted = all_ids(targets)
    else:  # where the changed event is, or where it was asked to go: either way, this one
        wanted = all_ids(phrases)
    if written in wanted or _wrong_event_already(ctx, write):
        return
    if any(p.weak for p in phrases):
        ctx.unsure(write, f"'{phrases[0].said}' may name a calendar or a place")
        return
    said = (targets or phrases)[0].said
    asked = " or ".join(f"'{book.calendars[i].name or i}'" for i in sorted(wanted))
    name = book.calendars[written].name or written
    verb = "deletes an event on" if write.kind == "delete" else "writes to"
    ctx.error(write, "calendar", f"the message asks for the calendar {asked} (\"{said}\"); the call "
              f"{verb} '{name}'", f"use the calendar {asked}", None,
              proof={"named": said, "named_ids": sorted(wanted), "written": written})


def _on_excluded(ctx: CheckContext, whose: Whose, write: WriteCall, phrases: list[NamedCalendar]) -> bool:
    """"on my calendar, not the family one", written on the family one: the message rules out
    the very calendar written, which no reading of it allows (an error, reported here)."""
    if write.kind == "delete":
        return False
    written = whose.written_on(write) if write.kind == "create" else whose.moved_to(write)
    for phrase in phrases:
        if phrase.role == "excluded" and not phrase.weak and written is not None and written in phrase.ids:
            name = whose.book.calendars[written].name or written
            ctx.error(write, "calendar", f"the message says not '{phrase.said}'; the call puts the event "
                      f"on '{name}'", f"put it anywhere but '{name}', as the message asks", None,
                      proof={"excluded": phrase.said, "written": written})
            return True
    return False


def _narrowed(phrase: NamedCalendar, mine: frozenset[str]) -> NamedCalendar:
    """"my work calendar": of the calendars called Work, the person's own (none of theirs is:
    the phrase names no calendar known)."""
    if not (phrase.pronoun and phrase.ids and _own(phrase)):
        return phrase
    return replace(phrase, ids=phrase.ids & mine)


def _own(phrase: NamedCalendar) -> bool:
    """"my calendar", "on mine", "my work cal": the person's own; "my husband's cal" is not."""
    words = phrase.said.casefold().replace("\u2019", "'").split()
    return phrase.pronoun and words[0] in ("my", "mine") and not (
        any(w.endswith(("'s", "s'")) for w in words[1:]) or words_of(" ".join(words[1:])) & RELATIONS)


def _wrong_event_already(ctx: CheckContext, write: WriteCall) -> bool:
    """The write is already shown to touch another event than the one named: the calendar it
    is on is that same problem, reported once."""
    return any(f.call_index == write.index and f.type == "event_id" and f.severity == "error"
               for f in ctx.findings)
