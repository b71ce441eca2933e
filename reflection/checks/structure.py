"""What was done to which event, against what the message asked: an event no part of the message
refers to, a delete where a change was asked, a create where a move was asked (the old event left
behind), the same event created twice, the series when one occurrence was asked (or the reverse),
the wrong occurrence, and a list or swap left half done. Each is an error only when the reading is
certain; otherwise the call is marked unsure."""
from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

from rapidfuzz import fuzz

from reflection.checks.allowed import Allowed, slots_for
from reflection.checks.binding import bind
from reflection.checks.context import CheckContext, WriteCall
from reflection.checks.dates import unread_date_words
from reflection.checks.places import HOME_PHRASE_RE, KNOWN_HOME_BUSINESSES, TITLED_HOME_NAME
from reflection.dates.lexicon import WEEKDAY_FULL_RE, WEEKDAY_STEM_RE
from reflection.reading.event_refs import evidence_for, is_content, tokenize
from reflection.reading.request import (
    CREATE_RE,
    DELETE_RE,
    Mention,
    Phrase,
    joined_as_span,
    phrase_kind,
    single_days,
    stated_scopes,
)
from reflection.wording import describe_day
from tools.calendar.events import Event, as_date
from tools.calendar.occurrences import occurrences

NEAR_SAME_TITLE = 85.0
# words that often stand next to a request without naming anything in the calendar
_NOISE = frozenset("""coach kids kid sitter babysitter school sick trip busy work office traffic late
asked said says thanks sorry rain weather away holiday vacation free busy available
open mess sick ping email emails mail text texts msg message early late earlier later sooner
once twice only instead again extra""".split())


def _verb(write: WriteCall) -> str:
    return {"update": "changes", "delete": "deletes"}.get(write.kind, "writes")


def _title(ctx: CheckContext, write: WriteCall) -> str:
    event = ctx.event(write.event_id)
    return event.title if event else write.event_id


_GUEST_MOVED_RE = re.compile(
    r"\b(?:add|invite|include|take|remove|drop|kick)\s+[\w'\u2019]+\s+(?:to|on|onto|off|from)\b", re.I)
"""A person added to or taken off an event ("add dad to the bbq", "take leo off the carpool"):
the one added names a guest, not an event."""


_TOLD_VERBS = frozenset("said says emailed texted called messaged rang wrote running sick".split())
_PEOPLE_PRONOUNS = frozenset("he she they we i".split())
"""A run of words led by one of these is about people ("he has a test"), never an event's name."""
_TOLD_AFTER_RE = re.compile(r"\s*(?:(?:is|are|was|were|['\u2019]s)\s+(?:sick|ill|away|running\s+late)|running\s+late|"
                            r"said|says|emailed|texted|called|messaged|rang|wrote)\b", re.I)
"""Words that make a run of words a reason someone or something told of ("school bus running
late", "coach emailed about an extra drill", "mr reed is sick"), not a nickname of an event. Not
"is at 5 now" or "got cancelled": said of an event, those are the change itself."""


def _noisy_unmatched(ctx: CheckContext) -> int:
    """Runs of words that name nothing we hold and could be a nickname for an event (a new name
    after "to"/"as"/"called" is not)."""
    count = 0
    text = ctx.reading.text  # "at our house", "at HomeGoods": places, not nicknames of events
    homes = [m.span() for pattern in (HOME_PHRASE_RE, KNOWN_HOME_BUSINESSES, TITLED_HOME_NAME)
             for m in pattern.finditer(text)]
    for ref in ctx.reading.unmatched:
        words = [w for w in ref.words if is_content(w) and w not in _NOISE]
        before = ctx.reading.text[max(0, ref.start - 8):ref.start]
        told = any(w in _TOLD_VERBS for w in ref.words) or (ref.words and ref.words[0] in _PEOPLE_PRONOUNS) or \
            _TOLD_AFTER_RE.match(ctx.reading.text, ref.end) is not None
        if words and not told and not re.search(r"\b(?:to|as|called|named|titled)\s*$", before, re.I) \
                and not _GUEST_MOVED_RE.search(ctx.reading.text[max(0, ref.start - 12):ref.end + 6]) \
                and not any(a <= ref.start < b for a, b in homes):
            count += 1
    return count


_NUMBERS = {"two": 2, "2": 2, "both": 2, "three": 3, "3": 3, "four": 4, "4": 4}
COUNTED_RE = re.compile(r"\b(?:both\b|(?:the|these|those|all)\s+(?:two|2|three|3|four|4)\b|"
                        r"(?P<n>two|2|three|3|four|4)\s+(?:[\w'\u2019]+\s+){0,2}?"
                        r"(?:things|events|entries|ones|appts|appointments|meetings|bookings|"
                        r"dinners|lunches|calls|plans|items)\b)", re.I)
""""merge the two dinner things", "both appointments", "2 entries": the message counts the events
it means, whatever their titles say ("Dîner avec Tom" is one of the two dinners)."""


BY_ITS_NEIGHBOUR_RE = re.compile(
    r"\b(?:the|that|this)\s+(?:(?:next|other|last|first)\s+)?(?:one|thing|event|appt|appointment|meeting|"
    r"lesson|class|session|booking|slot)s?\s+(?:(?:right|just|straight|directly|immediately)\s+)?"
    r"(?:after|before|following|ahead\s+of)\b"
    r"|\bwhat(?:ever)?(?:['\u2019]s|\s+is|\s+comes)?\s+(?:(?:right|just|straight)\s+)?(?:after|before)\b", re.I)
""""the one after thursday's dentist", "the thing right before swim", "whatever's after the
vet": the event meant is the named one's neighbour, not the named one, and which it is follows
from times code does not chain."""


def _counted(text: str) -> int:
    """The most events the message counts out (0: none counted)."""
    most = 0
    for match in COUNTED_RE.finditer(text):
        word = match["n"] or next(w for w in re.findall(r"[\w]+", match.group(0).casefold()) if w in _NUMBERS)
        most = max(most, _NUMBERS[word.casefold()])
    return most


def check_unreferenced(ctx: CheckContext) -> None:
    """An event changed or deleted that no part of the message refers to."""
    reading = ctx.reading
    # A message that names no event at all may answer the model's question ("October 31", "yes,
    # the second one"): the conversation names the event, so nothing here can be proven.
    if reading.group or not any(m.certain for m in reading.mentions):
        for write in ctx.writes:
            if write.kind != "create" and not ctx.reading.mentions_of(ctx.series_key(write.event_id)):
                ctx.unsure(write, "the message does not name this event")
        return
    unnamed: dict[str, list[WriteCall]] = {}
    sure = [(m.ref.start, m.ref.end, ctx.series_key(m.ref.best)) for m in reading.mentions
            if m.certain and m.ref.best is not None]  # each sure name's words and its event
    for write in ctx.writes:
        if write.kind == "create" or ctx.is_flagged(write):
            continue
        key = ctx.series_key(write.event_id)
        if reading.may_name(key) or ctx.event(write.event_id) is None:
            continue
        named_else = [(a, b) for a, b, named in sure if named != key]  # words spoken for
        if evidence_for(key, reading.text, ctx.case.calendar, reading.owners, named_else) > 0:
            ctx.unsure(write, "the message may refer to this event")
            continue
        unnamed.setdefault(key, []).append(write)
    if not unnamed:
        return
    if BY_ITS_NEIGHBOUR_RE.search(reading.text):  # "cancel the one after thursday's dentist"
        for writes in unnamed.values():
            for write in writes:
                ctx.unsure(write, "the message points at an event by the one next to it")
        return
    keys = {ctx.series_key(m.ref.best) for m in reading.mentions if m.ref.best is not None}
    if _counted(reading.text) > len(keys) + len(reading.unmatched):  # "the two dinner things": one name for two
        for writes in unnamed.values():
            for write in writes:
                ctx.unsure(write, "the message counts more events than it names")
        return
    if len(unnamed) <= _noisy_unmatched(ctx) and not _deletes_swapped(ctx, unnamed):
        for writes in unnamed.values():
            for write in writes:
                ctx.unsure(write, "the message may name this event in words we cannot place")
        return
    named = sorted({m.ref.candidates[0].title for m in reading.mentions if m.certain})
    for writes in unnamed.values():
        for write in writes:
            ctx.error(write, "event_id",
                      f"the message names {', '.join(repr(t) for t in named)}; the call {_verb(write)} "
                      f"'{_title(ctx, write)}', which no part of the message refers to",
                      f"leave '{_title(ctx, write)}' as it was")


THING_AT_TIME_RE = re.compile(
    r"\b(?:the|my|our)\s+(?P<hour>\d{1,2})(?::(?P<minute>\d{2}))?\s*(?P<half>am|pm|a\.m\.|p\.m\.)?"
    r"(?:\s+(?:thing|one|appt|appointment|meeting|call|event|session|class|booking)\b|"
    r"(?=\s*(?:[,.;!?]|$|(?:on\s+)?" + WEEKDAY_STEM_RE + r"\b|today\b|tomorrow\b|tmrw\b)))", re.I)
"""'the 3pm thing', 'the 10:30 meeting', 'cancel my 4pm': an event named by the time it starts at
now (a time alone at the end of a clause names one only with am/pm or past 12, as below)."""


_CHOSEN_BEFORE_RE = re.compile(r"\b(?:to|for|into|onto|at|with|it|switch|pick|take|book|choose|want|prefer|"
                               r"instead|make|add|or)\s*$", re.I)


def _times_named(ctx: CheckContext) -> list[tuple[str, tuple[int, int]]]:
    """Each 'the <time> thing' of the message that names an event it changes, with the (hour,
    minute) it names: a clock time that is one (with am/pm, or a 24-hour time past 12), never
    'the 3 thing'; not one it chooses or goes to ('switch to the 3pm one', 'book the 3pm class'),
    and only when the message then says where the event goes (a target after it) or removes it."""
    text = ctx.reading.text
    removes = bool(DELETE_RE.search(text))
    out: list[tuple[str, tuple[int, int]]] = []
    for match in THING_AT_TIME_RE.finditer(text):
        if _CHOSEN_BEFORE_RE.search(text[max(0, match.start() - 12):match.start()]):
            continue
        if not removes and not any(
                p.role == "target" and p.start_index >= match.end() for p in ctx.reading.phrases):
            continue
        hour, minute = int(match["hour"]), int(match["minute"] or 0)
        half = (match["half"] or "").replace(".", "").casefold()
        if minute > 59 or hour > 23 or (half and not 1 <= hour <= 12) or (not half and hour <= 12):
            continue
        if half:
            hour = hour % 12 + (12 if half == "pm" else 0)
        out.append((match.group(0), (hour, minute)))
    return out


def check_named_by_time(ctx: CheckContext) -> None:
    """"the 3pm thing thursday -> 4:30pm": the event meant is the one that starts at 3 pm now.
    A change or delete of a single timed event that starts at another time, when no other part
    of the message names that event, is the wrong event. A series or an occurrence, an all-day
    event, or an event the words also name is left to the other checks."""
    named = _times_named(ctx)
    if not named:
        return
    for write in ctx.writes:
        if write.kind == "create" or write.failed or ctx.is_flagged(write):
            continue
        event = ctx.case.event(write.event_id)
        if event is None or event.recurrence or event.recurring_event_id or not isinstance(event.start, datetime):
            continue
        if ctx.reading.may_name(ctx.series_key(write.event_id)):
            continue
        start = event.start.astimezone(ctx.tz)
        if any((start.hour, start.minute) == time for _, time in named):
            continue
        said, (hour, minute) = named[0]
        ctx.error(write, "event_id", f"'{said}' is an event at {hour:02d}:{minute:02d}; "
                  f"the call {_verb(write)} '{event.title}', which starts at {start:%H:%M}",
                  f"change the event that starts at {hour:02d}:{minute:02d}", said,
                  proof={"named_by_time": [f"{h:02d}:{m:02d}" for _, (h, m) in named],
                         "written_event_starts": f"{start:%H:%M}"})


def _deletes_swapped(ctx: CheckContext, unnamed: dict[str, list[WriteCall]]) -> bool:
    """Every unnamed write is a delete, and as many deletes the message asks for by a certain
    name were not carried out: the attempt deleted the wrong events ("delete the school photo day
    thing" deleting the sport carnival), whatever the words we cannot place may be."""
    if not all(w.kind == "delete" for writes in unnamed.values() for w in writes):
        return False
    deleted = {ctx.series_key(w.event_id) for w in ctx.writes if w.kind == "delete" and not w.failed}
    # a name whose clause also asks for a move ("futebol sat -> 10am, ..., cancel thurs english
    # class") may be the moved one, not a delete left undone
    asked = {m.ref.best for m in ctx.reading.mentions
             if m.certain and "delete" in m.verbs and "move" not in m.verbs and m.ref.best}
    return len(asked - deleted) >= len(unnamed)


def check_named_event(ctx: CheckContext) -> None:
    """The event a write touches is the one its mention names for sure; a near-tie is unsure."""
    for write in ctx.writes:
        if write.kind == "create" or ctx.is_flagged(write):
            continue
        key = ctx.series_key(write.event_id)
        mentions = ctx.reading.mentions_of(key)
        if not mentions:
            continue
        naming = [m for m in mentions if not _written_place(ctx, write, m)]
        if any(m.certain and m.ref.best == key for m in naming):
            continue
        if not naming:
            _named_by_its_new_place(ctx, write, key, mentions)
            continue
        certain_other = [m for m in mentions if m.certain and m.ref.best != key]
        if certain_other and len(mentions) == len(certain_other) and _only_other(ctx, certain_other, key):
            best = certain_other[0].ref.candidates[0]
            ctx.error(write, "event_id",
                      f"'{certain_other[0].ref.text}' names '{best.title}'; the call {_verb(write)} "
                      f"'{_title(ctx, write)}'", f"use the id of '{best.title}'")
            continue
        if not _day_picks(ctx, write, key, mentions):
            ctx.unsure(write, "more than one event fits the words")


_PLACE_BEFORE_RE = re.compile(r"\b(?:at|to|in|@)\s+(?:the\s+)?$", re.I)


def _written_place(ctx: CheckContext, write: WriteCall, mention: Mention) -> bool:
    """The mention's words are the place this write puts the event at ("PTA meeting is at Home
    Depot now" writing 'Home Depot, 1200 Commerce Blvd'): said after 'at', 'to' or 'in', and held
    by the written place. They say where the event goes, not which event it is, whatever event
    bears those words in its title ('Home Depot run')."""
    place = write.written("location")
    if not isinstance(place, str) or not place.strip():
        return False
    before = ctx.reading.text[:mention.ref.start]
    return bool(_PLACE_BEFORE_RE.search(before)) and mention.ref.text.casefold() in place.casefold()


def _named_by_its_new_place(ctx: CheckContext, write: WriteCall, key: str, mentions: list[Mention]) -> None:
    """The write's event is reached only by the words of the place it writes. When another
    part of the message certainly names another event the attempt left alone, that event is the
    one the place was said of: the write is on the wrong event (every reading puts the place on
    the named one). Else nothing names the event: unsure."""
    others = [m for m in ctx.reading.mentions if m.certain and m.ref.best and m.ref.best != key
              and not _written_place(ctx, write, m)]
    if others and _only_other(ctx, others, key):
        best = others[0].ref.candidates[0]
        ctx.error(write, "event_id",
                  f"'{others[0].ref.text}' names '{best.title}' and '{mentions[0].ref.text}' is the place "
                  f"it goes to; the call {_verb(write)} '{_title(ctx, write)}'", f"use the id of '{best.title}'",
                  proof={"named": others[0].ref.text, "place": mentions[0].ref.text, "picked": best.title})
        return
    ctx.unsure(write, f"'{mentions[0].ref.text}' is the place the call writes, not a name of the event")


def _day_picks(ctx: CheckContext, write: WriteCall, key: str, mentions: list[Mention]) -> bool:
    """"cancel the dentist on tuesday" with a dentist on Tuesday and one on Wednesday: the day the
    words give the event picks one of the events the name fits. A write on another one is proven
    wrong; a write on that one is settled. Only the day where the event is now counts (a
    delete's phrases, an update's source or current ones); recurring candidates are left alone."""
    # a loose second mention with no phrase ("cancel swim on wed, Ruby's got a cold", Ruby being in
    # both titles) says nothing of the day
    speaking = [m for m in mentions if m.phrases]
    alike = {(tuple(p.start_index for p in m.phrases), frozenset(m.ref.keys())) for m in speaking}
    if len(alike) != 1 or unread_date_words(ctx):
        return False  # one mention, or several that share their phrases and their events
    mention = speaking[0]
    if len({c.covered for c in mention.ref.candidates}) > 1:
        # "cant do fridays dinner with the müllers because the kids have the school trip monday":
        # one run of words holding two names (the dinner's, the trip's), not one name two events
        # share; the day said fits the trip, and says nothing of which event the dinner is
        return False
    roles = ("target", "source", "current") if write.kind == "delete" else ("source", "current")
    phrases = [p for p in mention.phrases if p.role in roles and p.shift is None and p.day_relative is None]
    if not phrases:
        return False
    allowed = Allowed()
    for phrase in phrases:
        slots_for(phrase, None, ctx.tz, allowed, False)
    days = allowed.days_named(ctx.tz)
    events = [ctx.case.event(c.key) for c in mention.ref.candidates]
    if not days or any(e is None or e.recurrence for e in events):
        return False
    on_day = [e for e in events if e is not None and as_date(ctx.local(e.start)) in days]
    if len(on_day) != 1:
        return False
    if on_day[0].id == key:
        return True
    wanted = on_day[0]
    touched = ctx.case.event(key)
    on = f" on {describe_day(as_date(ctx.local(touched.start)))}" if touched is not None else ""
    ctx.error(write, "event_id", f"'{mention.ref.text}' on {', '.join(p.text for p in phrases)} is "
              f"'{wanted.title}' ({describe_day(as_date(ctx.local(wanted.start)))}); the call {_verb(write)} "
              f"'{_title(ctx, write)}'{on}", f"use the id of '{wanted.title}'", phrases[0].text,
              proof={"named": mention.ref.text, "days": sorted(str(d) for d in days), "picked": wanted.title})
    return True


def _only_other(ctx: CheckContext, mentions: list[Mention], key: str) -> bool:
    """Every mention that could be this event is certain of another one, which the attempt did
    not touch (so this write is not that mention's event under another id)."""
    touched = {ctx.series_key(w.event_id) for w in ctx.writes if w.kind != "create"}
    return all(m.ref.best not in touched for m in mentions)


GUEST_OFF_RE = re.compile(r"\b(?:remove|take|drop|kick|uninvite)\s+(?P<who>[a-z][\w.-]*(?:\s+[a-z][\w.-]*)?)"
                          r"\s+(?:off|from)\s+(?!(?:the\s+|my\s+|our\s+)?(?:cal|calendar|schedule|diary|list)\b)",
                          re.I)
""""remove uncle mike from the bbq invite", "take dad off the carpool": a guest taken off (not
"take mike's party off the calendar": a possessive or the event's own words name the event)."""


def _guest_taken_off(ctx: CheckContext, event: Event) -> str | None:
    """The person the message takes off this event, when they are one of its guests."""
    title_words = {w.casefold() for w in re.findall(r"[a-z]{3,}", event.title, re.I)}
    for match in GUEST_OFF_RE.finditer(ctx.reading.text):
        words = {w.casefold() for w in re.findall(r"[a-z]{3,}", match["who"], re.I)}
        if words & title_words:
            continue
        for guest in event.attendees:
            parts = {p.casefold() for p in re.split(r"[._\-+@0-9]+", guest.split("@")[0]) if len(p) >= 3}
            if words & parts:
                return guest
    return None


def check_delete_vs_change(ctx: CheckContext) -> None:
    """A delete where the person asked to move or change the event, or to take a guest off it."""
    creates = [w for w in ctx.writes if w.kind == "create" and not w.failed]
    for write in ctx.writes:
        if write.kind != "delete" or write.failed or ctx.is_flagged(write):
            continue
        event = ctx.event(write.event_id)
        guest = _guest_taken_off(ctx, event) if event is not None else None
        if event is not None and guest is not None:
            ctx.error(write, "other", f"the person asked to take {guest} off '{event.title}'; the call deletes "
                      "the whole event", f"remove {guest} from the guests instead", None,
                      proof={"guest_removed": guest, "deleted": event.title})
            continue
        key = ctx.series_key(write.event_id)
        mentions = ctx.reading.mentions_of(key)
        if any("delete" in m.verbs for m in mentions) or (DELETE_RE.search(ctx.reading.text) and not any(
                "delete" in m.verbs for m in ctx.reading.mentions)):
            # "his shift at woolies is off that day so delete that one only": the delete asked,
            # said of no other event, may be this one's (named before it, then "that one")
            continue
        if not mentions or not any("move" in m.verbs or "rename" in m.verbs for m in mentions):
            ctx.unsure(write, "no word of the message asks for a delete")
            continue
        title = _title(ctx, write)
        if any(_near(str(c.written("title") or ""), title) for c in creates):
            ctx.warning(write.index, "process", f"'{title}' was deleted and made again instead of moved",
                        "update the event instead of deleting and re-creating it")
            continue
        ctx.error(write, "other", f"the person asked to change '{title}'; the call deletes it",
                  f"move '{title}' as asked instead of deleting it")


def _near(a: str, b: str) -> bool:
    a_n, b_n = _norm(a), _norm(b)
    return bool(a_n and b_n) and (fuzz.ratio(a_n, b_n) >= NEAR_SAME_TITLE or a_n in b_n or b_n in a_n)


def _norm(text: str) -> str:
    return " ".join(t.text for t in tokenize(text))


def check_create_vs_move(ctx: CheckContext) -> None:
    """A create where a move was asked, leaving the old event behind; or one event made twice."""
    creates = [w for w in ctx.writes if w.kind == "create" and not w.failed]
    touched = {ctx.series_key(w.event_id) for w in ctx.writes if w.kind != "create"}
    for i, write in enumerate(creates):
        title = str(write.written("title") or "")
        for earlier in creates[:i]:
            # the same event on two calendars ("on the family calendar and on Dan's") is two asked
            if str(earlier.written("calendar_id") or "") != str(write.written("calendar_id") or ""):
                continue
            if _near(str(earlier.written("title") or ""), title) and _same_start(ctx, earlier, write):
                ctx.error(write, "duplicate", f"'{title}' is created twice at the same time",
                          "create it once")
                break
        else:
            _moved_by_create(ctx, write, title, touched)
    for write in ctx.writes:
        if write.kind == "update" and not write.failed and not ctx.is_flagged(write) and "start" in write.input:
            _copy_moved(ctx, write)


COPY_RE = re.compile(r"\b(?:copy|copied|duplicate|clone|repeat)\b", re.I)
"""Words asking for the same event again: the one there stays where it is."""
AGAIN_RE = re.compile(r"\b(?:do|have|book)\s+(?:it|that|this|one|them)\s+again\b|\bsame\s+again\b|"
                      r"\bagain\s+(?:on|next|this)\b|\bdo\s+another\b|\bhave\s+another\b", re.I)
"""'was sooo nice, let's do it again sunday may 3rd': of an event that already happened, a new
one; moving the past one to the new day would erase what happened."""


def _copy_moved(ctx: CheckContext, write: WriteCall) -> None:
    """"copy dinner w the patels to next friday too" done by moving the dinner: a copy leaves the
    original where it is, so moving it away contradicts every reading (the message names that
    event for sure, asks for a copy in that clause, and deletes nothing)."""
    key = ctx.series_key(write.event_id)
    for mention in ctx.reading.mentions:
        if not mention.certain or mention.ref.best != key:
            continue
        clause = ctx.reading.text[mention.clause[0]:mention.clause[1]]
        before = ctx.event(write.event_id)
        again = bool(AGAIN_RE.search(ctx.reading.text)) and before is not None \
            and isinstance(before.end, datetime) and before.end <= ctx.case.now
        if (COPY_RE.search(clause) or again) and not DELETE_RE.search(clause) and not MOVE_WORD_RE.search(clause):
            title = _title(ctx, write)
            asked = f"'{title}' again" if again and not COPY_RE.search(clause) else f"a copy of '{title}'"
            ctx.error(write, "other", f"the person asked for {asked}; the call moves it and leaves "
                      "none where it was", f"create a new '{title}' and leave the old one", None,
                      proof={"copy_asked": True, "moved": write.event_id})
            return


MOVE_WORD_RE = re.compile(r"\b(?:move|moved|moving|reschedul\w*|push|shift|instead)\b", re.I)
"""Words that ask the event itself to go elsewhere ("copy the notes and move the meeting")."""


def _moved_by_create(ctx: CheckContext, write: WriteCall, title: str, touched: set[str]) -> None:
    if "move" in ctx.reading.verbs and "create" not in ctx.reading.verbs:
        ctx.unsure(write, "the message asks to move something; the call creates an event")
    for mention in ctx.reading.mentions:
        if not mention.certain or mention.ref.best in touched:
            continue
        best = mention.ref.candidates[0]
        if not _near(best.title, title) or "move" not in mention.verbs:
            continue
        clause = ctx.reading.text[mention.clause[0]:mention.clause[1]]
        if CREATE_RE.search(clause) or DELETE_RE.search(clause) or re.search(r"\b(another|second|too|also)\b",
                                                                             clause, re.I):
            continue
        ctx.error(write, "duplicate", f"the person asked to move '{best.title}'; the call creates a new "
                  f"'{title}' and leaves the old one in place", f"move the existing '{best.title}' instead")
        return


def _same_start(ctx: CheckContext, a: WriteCall, b: WriteCall) -> bool:
    sa = ctx.read_when(a.written("start"), a.input.get("timezone"))
    sb = ctx.read_when(b.written("start"), b.input.get("timezone"))
    return sa is not None and sa == sb


def check_series_scope(ctx: CheckContext) -> None:
    """The whole series changed when one occurrence was asked, or the reverse; the wrong one."""
    per_series: dict[str, list[WriteCall]] = {}
    for write in ctx.writes:
        if write.kind != "create" and not write.failed:
            per_series.setdefault(ctx.series_key(write.event_id), []).append(write)
    for key, writes in per_series.items():
        master = ctx.case.event(key)
        if master is None or not master.recurrence:
            continue
        mentions = ctx.reading.mentions_of(key)
        scopes = {m.scope for m in mentions} or {ctx.reading.scope}
        if scopes <= {"unknown", None} and len({m.ref.best for m in ctx.reading.mentions}) == 1 \
                and ctx.reading.scope not in (None, "unknown"):
            # "is jack's footy still tuesday? if so make it 5pm from now on": the one event the
            # message names, its scope said in the next sentence
            scopes = {ctx.reading.scope}
        scope = scopes.pop() if len(scopes) == 1 else "unknown"
        if len(writes) > 1 and len(stated_scopes(ctx.reading.text)) > 1:
            scope = "unknown"  # one series changed twice, the clauses stating two scopes: whose is which
        for write in writes:
            if ctx.is_flagged(write):
                continue
            written_scope = str(write.input.get("scope") or ("series" if write.event_id == key else "occurrence"))
            # an occurrence id with scope "series" changes the whole series as surely as its own id
            whole = write.event_id == key or written_scope == "series"
            if written_scope == "following" or scope == "following":
                if scope == "following" and not whole and sum(w.event_id != key for w in writes) > 1:
                    # several occurrences, one by one: they may be every one that is left
                    ctx.unsure(write, "which occurrences are left is for judgement")
                    continue
                _check_following(ctx, write, master, scope, written_scope)
                continue
            if scope == "unknown" and whole and any(m.singled_out for m in mentions):
                _whole_for_one(ctx, write, master, key)  # "cancel just swim next week"
                continue
            if not whole and _singled_day_missed(ctx, write, master, mentions):
                continue
            if scope == "unknown" and not whole and _day_named(ctx, write, master, mentions):
                continue  # "swim tmrw → 5:30": the occurrence on the day the person named
            if scope == "unknown":
                if not whole:
                    # one occurrence on a day the words do not name is wrong whichever scope
                    # was meant ("lara won't have english tomorrow" deleting next week's)
                    _check_occurrence_day(ctx, write, master, mentions)
                ctx.unsure(write, "it is not said whether one occurrence or the series is meant")
            elif whole and scope == "occurrence":
                _whole_for_one(ctx, write, master, key)
            elif not whole and scope == "series" and len(writes) == 1:
                ctx.error(write, "event_id", f"the whole '{master.title}' series was asked; the call "
                          f"{_verb(write)} one occurrence", "change the series (its own id)")
            elif not whole:
                _check_occurrence_day(ctx, write, master, mentions)


def _singled_day_missed(ctx: CheckContext, write: WriteCall, master: Event, mentions: list[Mention]) -> bool:
    """"Move just Maya's piano on September 24 to 9:30": the occurrence picked out is the one on
    the day said right after its name; an occurrence of another day is the wrong one (reported:
    True), when the series has one on the day said (else the day is the person's slip, and which
    occurrence they meant is for judgement)."""
    spans = [m.singled for m in mentions if m.singled is not None and m.certain]
    original = ctx.original_start(write.event_id, master)
    if len(spans) != 1 or original is None or unread_date_words(ctx):
        return False
    a, b = spans[0]
    allowed = Allowed()
    for phrase in ctx.reading.phrases:
        if phrase.role != "negated" and phrase.shift is None and phrase.day_relative is None \
                and phrase.start_index < b and a < phrase.end_index:
            slots_for(phrase, None, ctx.tz, allowed, False)
    days = allowed.days_named(ctx.tz)
    day = as_date(ctx.local(original))
    if not days or day in days:
        return False
    first = datetime.combine(min(days), time(0), tzinfo=ctx.tz)
    last = datetime.combine(max(days) + timedelta(days=1), time(0), tzinfo=ctx.tz)
    if not any(as_date(ctx.local(o)) in days for o in occurrences(master, first, last)):
        return False
    want = " or ".join(describe_day(d) for d in sorted(days)[:4])
    ctx.error(write, "event_id", f"the occurrence of '{master.title}' picked out is on {want}; the call "
              f"{_verb(write)} the one on {describe_day(day)}", f"use the occurrence on {want}",
              ctx.reading.text[a:b].strip(), proof={"days": sorted(str(d) for d in days),
                                                    "occurrence_day": str(day)})
    return True


def check_held_back(ctx: CheckContext) -> None:
    """"don't move piano, move swim to 5" moving piano: the change the person said not to make
    to an event they name for sure (and name nowhere else) is proven wrong."""
    for write in ctx.writes:
        if write.kind == "create" or write.failed or ctx.is_flagged(write):
            continue
        key = ctx.series_key(write.event_id)
        # the names that are this event's best reading ("cancel u10 netball, the u12 one is still
        # on": "u10 netball" may also mean U12, but names U10)
        mentions = [m for m in ctx.reading.mentions_of(key) if m.ref.best == key]
        if not mentions or not all(m.held is not None and m.certain for m in mentions):
            continue
        held = mentions[0].held
        moved = write.kind == "update" and bool({"start", "end"} & write.input.keys())
        if (held == "delete" and write.kind == "delete") or (held == "move" and moved) or held == "change":
            title = _title(ctx, write)
            ctx.error(write, "other", f"the person said not to {held} '{title}'; the call {_verb(write)} it",
                      f"leave '{title}' as it was", None, proof={"held_back": held})


def _whole_for_one(ctx: CheckContext, write: WriteCall, master: Event, key: str) -> None:
    ctx.error(write, "event_id", f"one occurrence of '{master.title}' was asked; the call "
              f"{_verb(write)} the whole series", "change only that occurrence (its instance id"
              + (", scope occurrence)" if write.event_id != key else ")"))


def _check_following(ctx: CheckContext, write: WriteCall, master: Event, said: str, written: str) -> None:
    """CONTRACT 3/4: "from now on" is that occurrence and the following ones (`scope`
    following); one occurrence or the whole series for it, or a following change where one
    occurrence or the series was said, is a scope the message contradicts."""
    if said == written:
        if said == "following":
            ctx.unsure(write, "where the following part of the series starts is for judgement")
        return
    if said == "unknown":
        ctx.unsure(write, "the message does not say from which occurrence on")
        return
    if "occurrence" not in (said, written) and not _series_scope_proven(ctx, master, said):
        ctx.unsure(write, "the series was changed from a different occurrence on than said")
        return
    words = {"occurrence": "one occurrence", "following": "this and every later occurrence",
             "series": "the whole series"}
    ctx.error(write, "other", f"{words.get(said, said)} of '{master.title}' was asked; the call changes "
              f"{words.get(written, written)}", f"change {words.get(said, said)} (scope {said})", None,
              proof={"scope_said": said, "scope_written": written})


SCOPE_START_RE = re.compile(r"\b(?:from|starting|beginning|as\s+of|after|onwards?|until|till|through|thru|"
                            r"next|this\s+(?:week|month)|until|later)\b", re.I)


def _series_scope_proven(ctx: CheckContext, master: Event, said: str) -> bool:
    """"Tennis is every Thursday now" (the series, CONTRACT 4) written as a `following` split:
    the two differ only in the occurrences already past, so it is proven only when there are such
    occurrences (the series began before now) and no word of the message could give the split a
    start ("every Thursday from next week" is `following`). The reverse, "from now on" written
    over the whole series, stays for judgement: people who wrote our outside corpora disagree on
    it ("from now on, every week"), so it is not provably wrong."""
    if said != "series":
        return False
    began = master.start < ctx.case.now if isinstance(master.start, datetime) else master.start < ctx.today
    return began and not SCOPE_START_RE.search(ctx.reading.text)


def _day_named(ctx: CheckContext, write: WriteCall, master: Event, mentions: list[Mention]) -> bool:
    """The occurrence's own day is a day one of its mention's phrases names, and no date word is
    left unread ("the last practice before christmas" names christmas, not the practice's day)."""
    original = ctx.original_start(write.event_id, master)
    if original is None or unread_date_words(ctx):
        return False
    day = as_date(ctx.local(original))
    allowed = Allowed()
    for mention in mentions:
        for phrase in mention.phrases:
            # a time alone ("to 7:30") names no day: its today-or-tomorrow is the policy's default
            if phrase.role != "negated" and phrase.shift is None and phrase.day_relative is None \
                    and phrase_kind(phrase) in ("date", "datetime"):
                slots_for(phrase, None, ctx.tz, allowed, False)
    days = allowed.days_named(ctx.tz)
    return day in days and len(days) <= 2


POSSESSIVE_DAY_RE = re.compile(WEEKDAY_FULL_RE + r"['\u2019]s\s+", re.I)


def _owns_day(text: str, phrase: Phrase, mention: Mention) -> bool:
    """"wednesday's piano lesson": the day said as the named event's own, right before its name."""
    found = POSSESSIVE_DAY_RE.match(text, phrase.start_index)
    return found is not None and mention.ref.start - 4 <= found.end() <= mention.ref.start + 4


def _check_occurrence_day(ctx: CheckContext, write: WriteCall, master: Event, mentions: list[Mention]) -> None:
    original = ctx.original_start(write.event_id, master)
    if original is None:
        return
    day = as_date(ctx.local(original))
    # a loose second mention ("skip piano this week, maya has a school concert tues", Maya being in
    # the title) says nothing against the certain one's day
    mentions = [m for m in mentions if m.certain] or mentions
    deleting = write.kind == "delete"
    # "only wednesday's piano lesson for 5:15pm": a day said as the event's own ("wednesday's")
    # tells which occurrence, whatever role its clause gives it
    # a time alone names no day ("... and put seder at the goldbergs 7pm-10:30" in the clause of
    # the delete): its today-or-tomorrow is the policy's default, not the occurrence's day
    phrases = [p for m in mentions for p in (m.phrases if deleting else m.sources + [
        x for x in m.phrases if x not in m.sources and _owns_day(ctx.reading.text, x, m)])
        if p.role != "negated" and p.shift is None and p.day_relative is None
        and phrase_kind(p) in ("date", "datetime")]
    if deleting and not mentions:
        phrases = _unnamed_delete_days(ctx, write)
    if not phrases:
        ctx.unsure(write, "which occurrence is meant is not said" + ("" if deleting else " apart from its new time"))
        return
    allowed = Allowed()
    for phrase in phrases:
        slots_for(phrase, None, ctx.tz, allowed, False)
    days = allowed.days_named(ctx.tz)
    ordered = sorted(phrases, key=lambda p: p.start_index)
    if any(joined_as_span(ctx.reading.text, a, b) for a, b in zip(ordered, ordered[1:], strict=False)):
        days = set(_every_day(min(days), max(days))) if days else days  # "between the 3rd and the 7th"
    if not days or unread_date_words(ctx) or len(mentions) > 1 or (mentions == [] and not deleting):
        ctx.unsure(write, "which occurrence is meant is not certain")
        return
    if day not in days:
        want = " or ".join(describe_day(d) for d in sorted(days)[:4])
        ctx.error(write, "event_id", f"the occurrence of '{master.title}' asked for is on {want}; the "
                  f"call {_verb(write)} the one on {describe_day(day)}",
                  f"use the occurrence on {want}", phrases[0].text,
                  proof={"days": sorted(str(d) for d in days), "occurrence_day": str(day)})


def _unnamed_delete_days(ctx: CheckContext, write: WriteCall) -> list[Phrase]:
    """"cancel the earlier of the two on thursday": the only write of a message that names no
    event is a delete, so the day its words give (bound to it with certainty, as a move's new
    day would be) is the day of the occurrence it takes away. Nothing when the message itself asks
    for no removal, when another event is the day's anchor ("the one after thursday's game"), or
    when the phrase shifts or counts days."""
    if len(ctx.writes) != 1 or ctx.reading.other_event_anchors or not DELETE_RE.search(ctx.reading.text):
        return []  # "yes, thursday": an answer whose event (and day) the conversation may hold
    binding = bind(ctx, write)
    if not binding.certain:
        return []
    # a clock time alone names the event at that time, whichever day it is next on ("cancel the
    # 8:30" when today has none): only words that name a day pin it
    return [p for p in binding.phrases if p.role == "target" and p.shift is None and p.day_relative is None
            and phrase_kind(p) in ("date", "datetime")]


def _every_day(first: date, last: date) -> list[date]:
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]


_LIST_GAP = re.compile(r"^\s*(?:,|&|\+|/|and|plus|as\s+well\s+as)?\s*(?:,|and)?\s*(?:also\s+)?"
                       r"(?:the|my|our|his|her|their)?\s*$", re.I)


def _listed(ctx: CheckContext) -> list[Mention]:
    """The mentions said as one list: "soccer, the dentist and the vet"."""
    ordered = sorted(ctx.reading.mentions, key=lambda m: m.ref.start)
    best: list[Mention] = []
    run: list[Mention] = []
    for mention in ordered:
        if run and _LIST_GAP.match(ctx.reading.text[run[-1].ref.end:mention.ref.start]):
            run.append(mention)
        else:
            run = [mention]
        if len(run) > len(best):
            best = list(run)
    return best if len(best) >= 2 else []


def check_all_parts_done(ctx: CheckContext) -> None:
    """A part of the request that asks for a change no write carried out leaves every write
    unverified (the model may have left it undone, or asked about it)."""
    written = {ctx.series_key(w.event_id) for w in ctx.writes if w.kind != "create"}
    creates = [w for w in ctx.writes if w.kind == "create"]
    if written:
        for mention in ctx.reading.mentions:
            if not ({"move", "delete"} & mention.verbs) or mention.ref.keys() & written:
                continue
            for write in ctx.writes:
                ctx.unsure(write, f"'{mention.ref.text}' was asked about and nothing changed it")
    if ctx.writes and not creates and _asks_to_create(ctx):
        for write in ctx.writes:
            ctx.unsure(write, "the message also asks for a new event and no call created one")
    counted = _counted(ctx.reading.text)
    changed = [w for w in ctx.writes if w.kind != "create" and not w.failed]
    if changed and not creates and counted > len(changed):
        for write in ctx.writes:  # "cancel all 3 of this week's hockey practices", two deleted
            ctx.unsure(write, f"the message counts {counted} events and the calls change {len(changed)}")
    if ctx.writes and not creates and "rename" in ctx.reading.verbs and \
            not any("title" in w.input for w in ctx.writes if w.kind == "update"):
        for write in ctx.writes:  # "rename it 'nurse - jabs' and make it 2:40pm", moved, not renamed
            ctx.unsure(write, "the message asks for a new name and no call gives one")
    days = _target_days(ctx)
    if creates and not written and len(days) > len(creates):
        for write in creates:
            ctx.unsure(write, f"the message names {len(days)} days and {len(creates)} event(s) were created")


def _asks_to_create(ctx: CheckContext) -> bool:
    """A create verb outside the words that name existing events ("book club" is a title)."""
    names = [(m.ref.start, m.ref.end) for m in ctx.reading.mentions]
    return any(not any(a <= match.start() < b for a, b in names)
               for match in ASK_CREATE_RE.finditer(ctx.reading.text))


ASK_CREATE_RE = re.compile(
    r"(?<!double[\s-])(?<!\bthey\s)(?<!\bshe\s)(?<!\bhe\s)(?<!\bcoach\s)(?<!\bhas\s)(?<!\bhave\s)"
    r"\b(?:add(?!\s+(?:an?\s+|the\s+)?(?:reminder|alert|note|description|location|place))|schedule|book|"
    r"set\s+up(?!\s+(?:an?\s+)?(?:reminder|alert))|create|pencil\s+in|block\s+(?:off|out)|"
    r"put\s+(?:\w+\s+){1,3}?(?:in|down|on\s+the\s+calendar)\b)\b"
    r"(?!\s+(?:it|them|that|this)\s+(?:to|at|on|back|forward)\b)", re.I)
"""A request for a new event, said as one ("add", "book", "put ... in"), not a report of one ("they
added a run-through", "the studio double booked")."""


def _target_days(ctx: CheckContext) -> set[date]:
    """The distinct days the message's target phrases name ("on this Wednesday and friday")."""
    return single_days([p for p in ctx.reading.phrases if p.role == "target" and phrase_kind(p) != "time"])


def check_half_done(ctx: CheckContext) -> None:
    """Every event of a list ("move A, B and C to Thursday") or a swap was changed."""
    reading = ctx.reading
    # "don't move piano, move swim": not a list; nor "skip piano, maya has her concert"
    listed = [m for m in _listed(ctx) if m.held is None and not _where_someone_is(reading.text, m)]
    own = [m for m in reading.mentions if m.targets and ("move" in m.verbs or "delete" in m.verbs)
           and m.held is None and not _where_someone_is(reading.text, m)]
    if len({id(m) for m in own}) >= 2 and len(own) == len(reading.mentions):
        listed = own
    if not listed:
        return
    certain = [m for m in listed if m.certain and m.ref.best]
    keys = list(dict.fromkeys(m.ref.best for m in certain if m.ref.best))
    if len(keys) < 2 or len(keys) != len({m.ref.best for m in listed}):
        return
    if re.search(r"\b(if|unless|or|whichever|either|maybe|check)\b", reading.text, re.I):
        return
    done = {ctx.series_key(w.event_id) for w in ctx.writes
            if w.kind != "create" and not w.failed}
    if not done or ctx.flagged or any(w.failed for w in ctx.writes):
        return
    missing = [k for k in keys if k not in done]
    if not missing or not all(ctx.case.event(k) is not None for k in keys):
        return
    if not any(m.ref.best in done for m in certain):
        return
    index = min(w.index for w in ctx.writes)
    titles = [ctx.case.event(k).title for k in missing if ctx.case.event(k) is not None]  # type: ignore[union-attr]
    what = "swap" if "swap" in reading.verbs else "list"
    ctx.error(index, "other", f"the person's {what} also names {', '.join(repr(t) for t in titles)}, "
              "which the calls leave unchanged", f"also change {', '.join(repr(t) for t in titles)} as asked")


BEING_THERE_BEFORE_RE = re.compile(
    r"\b(?:i['\u2019]?m|im|i\s+am|we['\u2019]?re|we\s+are|i['\u2019]?ll\s+be|we['\u2019]?ll\s+be|i\s+will\s+be|"
    r"we\s+will\s+be|she['\u2019]?s|he['\u2019]?s|they['\u2019]?re|(?:she|he|they)\s+will\s+be)\s+"
    r"(?:still\s+)?(?:in|at|away\s+in|off\s+to|visiting|going\s+to|flying\s+to|heading\s+to|on)\s+(?:the\s+)?$"
    r"|\b(?:has|have|had|got|['\u2019]s\s+got|['\u2019]ve\s+got)\s+(?:a|an|the|her|his|their|my|our|its)?\s*$"
    r"|\b(?:there['\u2019]?s|theres|there\s+is|there\s+are|there['\u2019]?ll\s+be)\s+(?:a|an|the|her|his|their|my|our)?\s*$",
    re.I)
"""'im in singapore next week', 'we're at the lake house', 'maya has her school concert
thursday': where someone is or what they have on, said with a name an event also has; a
statement, not a request about that event."""


HAS_INSIDE_RE = re.compile(r"\b(?:has|have|had|got|there['\u2019]?s|theres|there\s+is)\s+"
                           r"(?:a|an|the|her|his|their|my|our|its)\b", re.I)


WORKS_AS_VERB_RE = re.compile(r"\b(?:\d|it|that|this|which|what|anytime|any\s+time|whatever|whenever|"
                              r"either|both|[a-z]+day)\s*(?:\d\d?)?\s*$", re.I)


def _where_someone_is(text: str, mention: Mention) -> bool:
    """Said as where someone is or what they have on ("there's the flag hoisting on saturday"):
    before the name, or inside the words that matched it ("maya has her school concert"); or a
    name that is only the verb "works" ("anytime after 3 works" is not 'Work - review')."""
    said = text[mention.ref.start:mention.ref.end].strip().casefold()
    as_verb = said in ("works", "work") and bool(WORKS_AS_VERB_RE.search(text[:mention.ref.start]))
    return as_verb or bool(BEING_THERE_BEFORE_RE.search(text[max(0, mention.ref.start - 40):mention.ref.start])
                           or HAS_INSIDE_RE.search(text, mention.ref.start, mention.ref.end)
                           or WITH_ME_AFTER_RE.match(text, mention.ref.end)
                           or WITH_ME_BEFORE_RE.search(text[max(0, mention.ref.start - 12):mention.ref.start]))


WITH_ME_AFTER_RE = re.compile(r"\s+(?:and|&|n)\s+(?:i|me|myself)\b", re.I)
WITH_ME_BEFORE_RE = re.compile(r"\b(?:i|me)\s+(?:and|&|n)\s+$", re.I)
""""thabo and i are both off friday": a person said beside the speaker, who is someone, not the
event that bears their name ('Thabo - 5-a-side')."""


def check_swap(ctx: CheckContext) -> None:
    """"swap piano and swim": each takes the other's time (or day, keeping its own time)."""
    reading = ctx.reading
    if "swap" not in reading.verbs:
        return
    certain = [m for m in reading.mentions if m.certain and m.ref.best]
    keys = list(dict.fromkeys(m.ref.best for m in certain if m.ref.best))
    if len(keys) != 2:
        return
    events = [ctx.case.event(k) for k in keys]
    writes = {ctx.series_key(w.event_id): w for w in ctx.writes
              if w.kind == "update" and not w.failed}
    if not all(k in writes for k in keys) or not all(events):
        return
    if any(e is not None and e.recurrence for e in events):
        for write in writes.values():
            ctx.unsure(write, "a swap of recurring events is for judgement")
        return
    for own, other in ((0, 1), (1, 0)):
        write = writes[keys[own]]
        event_own, event_other = events[own], events[other]
        assert event_own is not None and event_other is not None
        start = ctx.read_when(write.written("start"), write.input.get("timezone") or event_own.timezone)
        if start is None or ctx.event(write.event_id) is None:
            return
        if not _swapped(ctx, start, event_own, event_other):
            ctx.error(write, "time" if as_date(start) == as_date(ctx.local(event_other.start)) else "date",
                      f"a swap puts '{event_own.title}' at the time of '{event_other.title}' "
                      f"({describe_day(as_date(ctx.local(event_other.start)))}); the call writes "
                      f"{write.written('start')}", f"move '{event_own.title}' to the other event's time")


def _swapped(ctx: CheckContext, start: date | datetime, own: Event, other: Event) -> bool:
    other_start = ctx.local(other.start)
    if isinstance(start, datetime) and isinstance(other_start, datetime):
        if abs(start - other_start) <= timedelta(minutes=1):
            return True
        own_local = ctx.local(own.start)
        return start.date() == other_start.date() and isinstance(own_local, datetime) and \
            start.time() == own_local.time()
    return as_date(start) == as_date(other_start)
