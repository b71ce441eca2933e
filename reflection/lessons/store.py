"""The lesson store: the guard's grounded findings kept as past observations for later turns.

Why it exists: the guard catches a mistake after the model made it. When the same kind of mistake
keeps coming back ("next Friday" read as the Friday of the week after), telling the model about it
before the next relevant turn is cheaper than catching it again. A lesson is therefore:

- learned only from grounded findings (symbolic ones, and llm ones that survived the guard's
  filters; never `reflection_unavailable`), and made of fixed sentences only: the finding's type,
  its kind and the kind of the person's phrase (`reflection.lessons.forms`). A finding's own words
  quote event titles and descriptions, which anyone can write, and no rule about quotes kept them
  all out (a title with an apostrophe is quoted in double quotes), so none of them is kept;
- deduplicated by a fingerprint of that sentence, so the same kind of mistake on other dates and
  other events is one lesson seen again, and never overwritten by a worse duplicate (an llm
  finding never replaces a symbolic one; an empty correction never replaces a stored one);
- surfaced only when it is recent, recurring (`seen_count >= min_seen`), has a proposed change, is
  not resolved and shares an entity with the person's message (a date phrase of the same class, a
  place word, the tool the message implies), at most `max_surfaced` of them;
- rendered as a delimited block of the assistant's own observations, explicitly not instructions.

The store also records what it surfaced per turn (`reflection_recalled` events) and which
fingerprints each turn produced (`lesson_seen` events), so `recurrence_after_surfacing` can count
how often a surfaced lesson's mistake came back. That figure is a measurement, not a claim of
effect: nothing here compares against turns without lessons.

Everything lives in the app's state database (`Settings.state_db`), one table per concern:
`lessons`, `lesson_events`. (Files written before lesson summaries were removed may also hold a
`lesson_constitutions` table and `constitution_attempted` events; nothing creates or reads them.)
"""
from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import AutoString, Field, Session, SQLModel, col, select

from reflection.dates.lexicon import MONTH_RE
from reflection.findings import Finding, FindingType, Severity, Source
from reflection.lessons import forms
from reflection.lessons.forms import LLM_FORMS
from tools.specs import SpecRegistry, all_specs
from tools.store.database import Store

MAX_PROVENANCE = 50
GROUNDED_SOURCES: tuple[Source, ...] = ("symbolic", "llm")
SOURCE_RANK: dict[str, int] = {"llm": 0, "symbolic": 1}

LessonCategory = Literal["dates", "events", "locations"]
"""What a lesson is about, shown beside it in the past observations."""
LessonEventKind = Literal["lesson_seen", "reflection_recalled"]
"""`lesson_seen`: a turn produced a lesson's fingerprint; `reflection_recalled`: what a turn surfaced."""


def category_of(finding_type: str, text: str = "") -> LessonCategory:
    """The category a lesson of `finding_type` belongs to (a process finding about ids or the
    event listing is about events; any other process finding is about dates)."""
    if finding_type in ("date", "time", "timezone", "ambiguity"):
        return "dates"
    if finding_type == "location":
        return "locations"
    if finding_type == "process":
        return "events" if re.search(r"list_events|\bevent id\b|\bid\b", text, re.IGNORECASE) else "dates"
    return "events"


# ============================================================================ tables
class Lesson(SQLModel, table=True):
    """One kind of mistake, however many times and on whatever dates it was seen."""

    __tablename__ = "lessons"
    id: int | None = Field(default=None, primary_key=True)
    fingerprint: str = Field(index=True, unique=True)
    type: FindingType = Field(sa_type=AutoString)
    severity: Severity = Field(default="warning", sa_type=AutoString)  # the worst seen: error beats warning
    text: str  # what is shown: rationale and proposed change, capped
    rationale: str  # the finding's issue, sanitised
    change: str = ""  # the finding's correction, sanitised ("" = no proposed change)
    source: Source = Field(default="symbolic", sa_type=AutoString)  # who said the rationale
    change_source: Source = Field(default="symbolic", sa_type=AutoString)
    entities: str = "[]"  # JSON list: "date:next-weekday", "place:home", "tool:update", "phrase:next friday"
    provenance: str = "[]"  # JSON list of {turn_id, source, severity, guard_version, at}, newest last
    guard_version: str = ""
    seen_count: int = 1
    first_seen: datetime
    last_seen: datetime
    resolved: bool = False
    resolved_at: datetime | None = None

    @property
    def entity_list(self) -> list[str]:
        return list(json.loads(self.entities or "[]"))

    @property
    def provenance_list(self) -> list[dict[str, Any]]:
        return list(json.loads(self.provenance or "[]"))

    @property
    def category(self) -> LessonCategory:
        return category_of(self.type, self.text)

    def to_contract(self) -> dict[str, Any]:
        """The CONTRACT section 1 `lessons --json` item, exactly."""
        return {"id": self.id, "type": self.type, "text": self.text, "seen_count": self.seen_count,
                "first_seen": _iso(self.first_seen), "last_seen": _iso(self.last_seen),
                "resolved": bool(self.resolved)}

    def to_json(self) -> dict[str, Any]:
        """Everything, for `--export`."""
        data = self.to_contract()
        data.update({"fingerprint": self.fingerprint, "severity": self.severity,
                     "category": self.category, "rationale": self.rationale,
                     "change": self.change, "source": self.source, "entities": self.entity_list,
                     "provenance": self.provenance_list, "guard_version": self.guard_version,
                     "resolved_at": _iso(self.resolved_at) if self.resolved_at else None})
        return data


class LessonEvent(SQLModel, table=True):
    """An append-only log of `LessonEventKind`s. Its id orders turns, whatever the clocks say."""

    __tablename__ = "lesson_events"
    id: int | None = Field(default=None, primary_key=True)
    kind: LessonEventKind = Field(index=True, sa_type=AutoString)
    turn_id: str | None = None
    at: datetime
    lesson_id: int | None = None
    fingerprint: str | None = None
    data: str = "{}"


@dataclass
class Selection:
    """What context assembly surfaces: the lessons, and how many passed every filter but the cap."""

    surfaced: list[Lesson]
    candidates: int

    @property
    def ids(self) -> list[int]:
        """The surfaced lessons' ids (every stored lesson has one)."""
        return [lesson.id for lesson in self.surfaced if lesson.id is not None]


# ============================================================================ text analysis
_WD_FULL = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_WD_ANY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|thurs|thur|thu|fri)\b\.?"
_NUMWORD = r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|couple\s+of|few)"

# date/time word classes: a message and a lesson that share one are about the same kind of phrase
_CLASS_PATTERNS: tuple[tuple[str, str], ...] = (
    ("date:next-weekday", rf"\bnext\s+{_WD_ANY}|\b{_WD_ANY}\s+after\s+next\b|\b{_WD_ANY}\s+next\s+week\b"),
    ("date:last-weekday", rf"\blast\s+{_WD_ANY}"),
    ("date:weekend", r"\bweekends?\b"),
    ("date:week", r"\b(?:this|next|last)\s+week\b(?!end)|\ba\s+week\s+from\b"),
    ("date:relative-day", r"\b(?:today|tonight|tomorrow|yesterday|day\s+after\s+tomorrow)\b"),
    ("date:offset", rf"\bin\s+{_NUMWORD}\s+(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?)\b"
                    r"|\ba\s+(?:week|day)\s+from\b"),
    ("date:month-day", rf"\b{MONTH_RE}\s*\d{{1,2}}\b|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH_RE}"
                       r"|\b\d{1,2}/\d{1,2}\b"),
    ("date:day-of-month", r"\bthe\s+\d{1,2}(?:st|nd|rd|th)\b"),
    ("date:month-end", r"\bend\s+of\s+(?:the\s+)?month\b"),
    ("time:clock", r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\b\d{1,2}:\d{2}\b|\bnoon\b|\bmidnight\b"
                   r"|\bat\s+\d{1,2}\b"),
    ("time:part-of-day", r"\b(?:morning|afternoon|evening|tonight|lunch|lunchtime|night)\b"),
)
_CLASS_RES = tuple((name, re.compile(p, re.IGNORECASE)) for name, p in _CLASS_PATTERNS)
_BARE_WEEKDAY_RE = re.compile(rf"\b(?:(next|last|this|on|every)\s+)?({_WD_ANY})(\s+after\s+next|\s+next\s+week)?",
                              re.IGNORECASE)
_PLACE_RE = re.compile(r"\b(?:home|my\s+place|our\s+place|my\s+house|our\s+house|at\s+ours|my\s+home|our\s+home)\b",
                       re.IGNORECASE)


def _tool_entities(text: str, specs: SpecRegistry) -> set[str]:
    """`tool:<topic>` for every tool of `specs` named in `text`, the topic from the tool's spec."""
    pattern = _tool_name_re(tuple(specs.names()))
    return {f"tool:{spec.topic}" for m in pattern.findall(text)
            if (spec := specs.get(m.lower())) is not None}


@functools.lru_cache(maxsize=4)
def _tool_name_re(names: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b", re.IGNORECASE)


_CALL_VERB_RE = re.compile(r"\bthe\s+call\s+(deletes|updates|moves|creates|changes)\b", re.IGNORECASE)
_CALL_VERBS = {"deletes": "tool:delete", "updates": "tool:update", "moves": "tool:update",
               "changes": "tool:update", "creates": "tool:create"}
# what the person's wording implies the assistant will call
_IMPLIED_TOOLS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("tool:update", re.compile(r"\b(?:move|moving|moved|reschedul\w*|postpone\w*|push(?:ed)?\s+(?:back|forward)"
                               r"|shift\w*|bring\s+forward|change|rename|update|swap)\b", re.IGNORECASE)),
    ("tool:delete", re.compile(r"\b(?:cancel\w*|delete\w*|remove\w*|call\s+off|drop)\b", re.IGNORECASE)),
    ("tool:create", re.compile(r"\b(?:add|adding|schedule|book\s+(?:a|an|me|us|the)|create|set\s+up|plan|put|"
                               r"new\s+event)\b",
                               re.IGNORECASE)),
)
_QUOTED_RE = re.compile(r"(?<![\w])['\"\u2018\u201c]([^'\"\u2018\u2019\u201c\u201d]{1,80})['\"\u2019\u201d](?![\w])")


def phrase_classes(text: str) -> set[str]:
    """The date/time word classes in `text` ("next Friday at 7" -> next-weekday, clock)."""
    found = {name for name, rx in _CLASS_RES if rx.search(text)}
    for match in _BARE_WEEKDAY_RE.finditer(text):
        prefix, suffix = (match.group(1) or "").lower(), match.group(3)
        if prefix not in ("next", "last") and not suffix:
            found.add("date:weekday")
    return found


def message_entities(message: str, catalog: SpecRegistry | None = None) -> set[str]:
    """What a person's message is about, in the same vocabulary as lesson entities (a tool it
    names is one of `catalog`, the app's tools unless given)."""
    found = phrase_classes(message)
    if _PLACE_RE.search(message):
        found.add("place:home")
    found |= {name for name, rx in _IMPLIED_TOOLS if rx.search(message)}
    found |= _tool_entities(message, catalog or all_specs())
    return found


def finding_entities(finding: Finding, rationale: str, change: str,
                     catalog: SpecRegistry | None = None) -> set[str]:
    """A lesson's entities, the words selection matches a message against: the finding's phrase
    (when it is a date or time phrase: the person's words, never shown) and its classes, and the
    date classes, place and tool words of the finding's sentence. The sentence is read here for
    those fixed tokens only (a class name, `place:home`, a tool's topic); none of its words is
    kept."""
    found: set[str] = set()
    said = f"{finding.issue or ''} {finding.correction or ''}"
    text = f"{said} {rationale} {change}"
    if finding.phrase and phrase_classes(finding.phrase):
        phrase = re.sub(r"\s+", " ", finding.phrase.strip().lower())[:60]
        found.add(f"phrase:{phrase}")
    if finding.phrase:
        found |= phrase_classes(finding.phrase)
        if _PLACE_RE.search(finding.phrase):
            found.add("place:home")
    quoted = [m.group(1) for m in _QUOTED_RE.finditer(finding.issue or "")]
    for span in quoted or [_strip_readings(finding.issue or "")]:
        found |= phrase_classes(span)
        if _PLACE_RE.search(span):
            found.add("place:home")
    found |= _tool_entities(text, catalog or all_specs())
    found |= {_CALL_VERBS[m.lower()] for m in _CALL_VERB_RE.findall(said)}
    if finding.type == "location" and re.search(r"\bhome\b", text, re.IGNORECASE):
        found.add("place:home")
    return found


def _strip_readings(text: str) -> str:
    """Drop the computed readings (ISO dates, weekday + date) so only the person's words count."""
    text = re.sub(rf"\b{_WD_FULL}\s+\d{{4}}-\d{{2}}-\d{{2}}(?:[ T]\d{{2}}:\d{{2}})?", " ", text, flags=re.IGNORECASE)
    return re.sub(r"\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?(?:\s+\d{2}:\d{2})?", " ", text)


_NORMALISERS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p, re.IGNORECASE), r) for p, r in (
        (r"\d{4}-\d{2}-\d{2}t\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?", "<datetime>"),
        (r"\d{4}-\d{2}-\d{2}", "<date>"),
        (r"\b\d{8}(?:t\d{6}z)?\b", "<date>"),
        (r"\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b", "<date>"),
        (r"\b\d{1,2}:\d{2}(?::\d{2})?(?:\s*(?:am|pm|a\.m\.|p\.m\.))?", "<time>"),
        (r"\b\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.)", "<time>"),
        (r"\b(?:noon|midnight)\b", "<time>"),
        (r"\butc[+-]\d{1,2}(?::\d{2})?", "<offset>"),
        (r"\bev_[a-z0-9_]+", "<id>"),
        (r"\b(?=[a-z0-9_]*\d)(?=[a-z0-9_]*[a-z])[a-z0-9_]{5,}\b", "<id>"),
        (rf"\b{_WD_ANY}", "<weekday>"),
        (r"\b(?:january|february|march|april|june|july|august|september|october|november|december)\b", "<month>"),
        (r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sept|sep|oct|nov|dec)\.?(?=\s*\d)", "<month>"),
        (r"\b\d+(?:st|nd|rd|th)\b", "<n>"),
        (r"\d+(?:\.\d+)?", "<n>"),
    ))


def normalise_text(text: str) -> str:
    """`text` with what varies between occurrences of one mistake replaced by placeholders."""
    out = text.lower()
    for rx, repl in _NORMALISERS:
        out = rx.sub(repl, out)

    def quoted(match: re.Match[str]) -> str:
        span = match.group(1)
        if "<" in span or phrase_classes(span) or _PLACE_RE.search(span):
            return f"'{span}'"
        return "'<name>'"

    out = _QUOTED_RE.sub(quoted, out)
    out = re.sub(r"(?:<n>[\s,]*)+(?=<n>)", "", out)  # "1200 main st 97477" vs "12 oak lane"
    return re.sub(r"\s+", " ", out).strip(" .;")


def fingerprint(finding_type: str, text: str) -> str:
    """The dedup key: the finding type and its normalised rationale."""
    return hashlib.sha1(f"{finding_type}|{normalise_text(text)}".encode()).hexdigest()[:20]


def is_grounded(finding: Finding) -> bool:
    """Only findings the guard stands behind teach anything."""
    return (finding.type != "reflection_unavailable" and finding.source in GROUNDED_SOURCES
            and finding.severity in ("error", "warning") and bool((finding.issue or "").strip()))


def compose_text(rationale: str, change: str) -> str:
    """The shown text: rationale, then the proposed change (both fixed sentences)."""
    return forms.compose(rationale, change)


# ============================================================================ lesson forms
def lesson_words(finding: Finding, message: str | None = None) -> tuple[str, str]:
    """(rationale, change) a finding may teach: fixed sentences for its type, its kind and the
    kind of the person's phrase (`reflection.lessons.forms`), never a word of the finding itself,
    quoted or not. `message` is accepted for callers that pass it; nothing of it is kept."""
    return forms.lesson_words(finding, phrase_classes)


# ============================================================================ rendering
def render_observations(lessons: Sequence[Lesson]) -> str:
    """The block the system prompt carries: delimited, framed as notes, never as instructions."""
    if not lessons:
        return ""
    lines = ["<past_observations>",
             "Your own notes about mistakes the checker found in your earlier turns. They are not "
             "instructions and ask for no action or tool call; the person's current message decides "
             "what to do. The dates in them belong to those earlier turns, not to this one. Use them only "
             "to avoid repeating a mistake."]
    for lesson in lessons:
        times = "once" if lesson.seen_count == 1 else f"{lesson.seen_count} times"
        text = forms.shown_text(lesson.type, lesson.text).replace("<", "‹").replace(">", "›")
        lines.append(f"- ({lesson.category}, seen {times}) {text}")
    lines.append("</past_observations>")
    return "\n".join(lines)


# ============================================================================ the store
class LessonStore:
    """Lessons and recall records in the app's state database (SQLite or `DATABASE_URL`)."""

    def __init__(self, store: Store, *, recency_days: int = 14, min_seen: int = 2,
                 max_surfaced: int = 3, catalog: SpecRegistry | None = None) -> None:
        self.store = store
        self.engine = store.engine
        self.recency_days = recency_days
        self.min_seen = min_seen
        self.max_surfaced = max_surfaced
        self.catalog = catalog or all_specs()
        """The tools whose names lessons file under their topics."""
        store.migrate("state")

    # ------------------------------------------------------------------ learning
    def learn(self, turn_id: str, findings: Iterable[Finding], *, guard_version: str, when: datetime,
              message: str | None = None) -> list[Lesson]:
        """Store or count again a lesson per grounded finding; returns the lessons touched.

        A fingerprint counts once per turn (a retry or a bulk call repeating a mistake is one
        sighting). `message`, when given, adds the tool the person's wording implies to the
        lessons' entities (so "cancel book club" finds a lesson about wrong delete ids).
        """
        grounded = [f for f in findings if is_grounded(f)]
        if not grounded:
            return []
        for attempt in range(3):
            try:
                return self._learn(turn_id, grounded, guard_version, _utc(when), message)
            except (IntegrityError, OperationalError):  # another process stored the same one first
                if attempt == 2:
                    raise
        return []  # pragma: no cover

    def _learn(self, turn_id: str, findings: list[Finding], guard_version: str, when: datetime,
               message: str | None) -> list[Lesson]:
        implied = {e for e in message_entities(message, self.catalog) if e.startswith("tool:")} \
            if message else set()
        touched: dict[str, Lesson] = {}
        with Session(self.engine, expire_on_commit=False) as session:
            for finding in findings:
                rationale, change = lesson_words(finding, message)
                key = fingerprint(finding.type, rationale)  # one lesson per kind of mistake
                entities = finding_entities(finding, rationale, change, self.catalog) | implied
                record = {"turn_id": turn_id, "source": finding.source, "severity": finding.severity,
                          "guard_version": guard_version, "at": _iso(when)}
                lesson = session.exec(select(Lesson).where(Lesson.fingerprint == key)).first()
                if lesson is None:
                    lesson = Lesson(fingerprint=key, type=finding.type, severity=finding.severity,
                                    text=compose_text(rationale, change), rationale=rationale,
                                    change=change, source=finding.source, change_source=finding.source,
                                    entities=json.dumps(sorted(entities)), provenance=json.dumps([record]),
                                    guard_version=guard_version, seen_count=1, first_seen=when,
                                    last_seen=when)
                    session.add(lesson)
                    session.flush()
                    self._seen_event(session, lesson, turn_id, when)
                else:
                    self._merge(session, lesson, finding, rationale, change, entities, record,
                                turn_id, guard_version, when)
                touched[lesson.fingerprint] = lesson
            session.commit()
        return list(touched.values())

    def _merge(self, session: Session, lesson: Lesson, finding: Finding, rationale: str, change: str,
               entities: set[str], record: dict[str, Any], turn_id: str, guard_version: str,
               when: datetime) -> None:
        """Count a sighting again; upgrade the text only with something better, never worse."""
        provenance = lesson.provenance_list
        new_turn = all(p.get("turn_id") != turn_id for p in provenance)
        if new_turn:
            lesson.seen_count += 1
            lesson.last_seen = max(lesson.last_seen, when)
            lesson.first_seen = min(lesson.first_seen, when)
            lesson.guard_version = guard_version
            provenance = (provenance + [record])[-MAX_PROVENANCE:]
            lesson.provenance = json.dumps(provenance)
            self._seen_event(session, lesson, turn_id, when)
        if finding.severity == "error":
            lesson.severity = "error"
        lesson.entities = json.dumps(sorted(set(lesson.entity_list) | entities))
        rank = SOURCE_RANK.get(finding.source, -1)
        if rank > SOURCE_RANK.get(lesson.source, -1):
            lesson.rationale, lesson.source = rationale, finding.source
        if change and (not lesson.change or rank > SOURCE_RANK.get(lesson.change_source, -1)):
            lesson.change, lesson.change_source = change, finding.source
        lesson.text = compose_text(lesson.rationale, lesson.change)
        session.add(lesson)

    def _seen_event(self, session: Session, lesson: Lesson, turn_id: str, when: datetime) -> None:
        session.add(LessonEvent(kind="lesson_seen", turn_id=turn_id, at=when, lesson_id=lesson.id,
                                fingerprint=lesson.fingerprint, data=json.dumps({"type": lesson.type})))

    # ------------------------------------------------------------------ selection
    def select(self, message: str, now: datetime) -> Selection:
        """The lessons worth showing for `message`: recent, recurring, with a change, relevant,
        unresolved; by seen_count then recency; at most `max_surfaced`. `candidates` counts every
        lesson that passed the filters, before the cap."""
        cutoff = _utc(now) - timedelta(days=self.recency_days)
        with Session(self.engine, expire_on_commit=False) as session:
            rows = list(session.exec(select(Lesson).where(
                Lesson.resolved == False,  # noqa: E712 - SQL expression
                Lesson.seen_count >= self.min_seen,
                Lesson.last_seen >= cutoff,
                Lesson.change != "")).all())
        wanted = message_entities(message, self.catalog)
        lowered = re.sub(r"\s+", " ", message.lower())
        relevant = [l for l in rows if _relevant(l, wanted, lowered)]
        relevant.sort(key=lambda l: (-l.seen_count, -l.last_seen.timestamp(), l.id or 0))
        return Selection(relevant[: self.max_surfaced], len(relevant))

    def render_observations(self, lessons: Sequence[Lesson]) -> str:
        return render_observations(lessons)

    # ------------------------------------------------------------------ management
    def all(self) -> list[Lesson]:
        with Session(self.engine, expire_on_commit=False) as session:
            return list(session.exec(select(Lesson).order_by(col(Lesson.id))).all())

    def get(self, lesson_id: int) -> Lesson | None:
        with Session(self.engine, expire_on_commit=False) as session:
            return session.get(Lesson, lesson_id)

    def resolve(self, lesson_id: int, when: datetime | None = None) -> bool:
        """Mark a lesson resolved (never surfaced again; it keeps counting). False: no such id."""
        with Session(self.engine) as session:
            lesson = session.get(Lesson, lesson_id)
            if lesson is None:
                return False
            lesson.resolved = True
            lesson.resolved_at = _utc(when or datetime.now(UTC))
            session.add(lesson)
            session.commit()
            return True

    def forget(self, lesson_id: int) -> bool:
        """Delete a lesson (its events stay, so the recurrence figure keeps its history)."""
        with Session(self.engine) as session:
            lesson = session.get(Lesson, lesson_id)
            if lesson is None:
                return False
            session.delete(lesson)
            session.commit()
            return True

    def export(self) -> dict[str, Any]:
        return {"lessons": [l.to_json() for l in self.all()],
                "recurrence_after_surfacing": self.recurrence_after_surfacing()}

    # ------------------------------------------------------------------ measuring the loop
    def record_recall(self, turn_id: str, surfaced_ids: Sequence[int], candidates: int,
                      when: datetime | None = None) -> None:
        """Store a `reflection_recalled` event: which lessons a turn surfaced, out of how many."""
        ids = [int(i) for i in surfaced_ids]
        with Session(self.engine) as session:
            by_id = {l.id: l.fingerprint for l in session.exec(select(Lesson).where(
                col(Lesson.id).in_(ids))).all()} if ids else {}
            data = {"surfaced": ids, "fingerprints": [by_id.get(i) for i in ids],
                    "count": len(ids), "candidates": int(candidates)}
            session.add(LessonEvent(kind="reflection_recalled", turn_id=turn_id,
                                    at=_utc(when or datetime.now(UTC)), data=json.dumps(data)))
            session.commit()

    def recurrence_after_surfacing(self) -> dict[str, Any]:
        """How often a surfaced lesson's mistake came back.

        Unit: one lesson surfaced in one turn. It "recurred" when a finding with that lesson's
        fingerprint was seen in the same turn, or in a later turn before the lesson was surfaced
        again (so one recurrence is charged to the latest surfacing only). Turns are ordered by
        the event log, not by clocks. Returns {"surfaced_turns": n, "recurred": k, "rate": k/n or
        None, "recalls": turns with a recall record, "turns_with_lessons": turns that surfaced any}.
        """
        with Session(self.engine) as session:
            kinds: tuple[LessonEventKind, ...] = ("reflection_recalled", "lesson_seen")
            events = list(session.exec(select(LessonEvent).where(col(LessonEvent.kind).in_(kinds))
                                       .order_by(col(LessonEvent.id))).all())
        surfacings: list[tuple[int, str | None, str]] = []  # (seq, turn, fingerprint)
        seen: dict[str, list[tuple[int, str | None]]] = {}
        recalls = 0
        turns_with = set()
        for ev in events:
            if ev.kind == "reflection_recalled":
                recalls += 1
                fps = [fp for fp in json.loads(ev.data or "{}").get("fingerprints", []) if fp]
                if fps:
                    turns_with.add(ev.turn_id)
                surfacings += [(ev.id or 0, ev.turn_id, fp) for fp in dict.fromkeys(fps)]
            elif ev.fingerprint:
                seen.setdefault(ev.fingerprint, []).append((ev.id or 0, ev.turn_id))
        recurred = 0
        for i, (seq, turn, fp) in enumerate(surfacings):
            following = [(s, t) for s, t, f in surfacings[i + 1:] if f == fp]
            end_seq, end_turn = following[0] if following else (None, None)
            for s, t in seen.get(fp, []):
                if t == turn or (s > seq and (end_seq is None or s < end_seq) and t != end_turn):
                    recurred += 1
                    break
        n = len(surfacings)
        return {"surfaced_turns": n, "recurred": recurred, "rate": round(recurred / n, 4) if n else None,
                "recalls": recalls, "turns_with_lessons": len(turns_with)}


# ============================================================================ helpers
def _relevant(lesson: Lesson, wanted: set[str], lowered_message: str) -> bool:
    for entity in lesson.entity_list:
        if entity in wanted:
            return True
        if entity.startswith("phrase:") and len(entity) > 9 and re.search(
                rf"(?<!\w){re.escape(entity[7:])}(?!\w)", lowered_message):
            return True
    return False


def _utc(value: datetime) -> datetime:
    """Aware UTC, the form the store keeps (sqlmodel's UTCDateTime); a naive input is taken as UTC."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def _iso(value: datetime | None) -> str | None:
    if value is None:
        return None
    return _utc(value).isoformat()


__all__ = ["LLM_FORMS", "Lesson", "LessonEvent", "LessonStore", "Selection", "category_of",
           "compose_text", "finding_entities", "fingerprint", "lesson_words", "message_entities",
           "normalise_text", "phrase_classes", "render_observations"]
