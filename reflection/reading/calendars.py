"""Whose calendar: the calendars a case knows by name and owner, and the ones a message names.

Why a module of its own: with several calendars (a family: each parent's account, each child's
calendar, a shared one) the guard must tell "on Leo's calendar" from "Leo's swim", find "Maya's
dentist" on Maya's calendar, and count an overlap only within one person's calendars. A
calendar's name and owner come from the case (`calendars`: what the app read when it started)
and from any `list_calendars` result the model saw; an id alone is never taken for a name (a
Google calendar id is an address or a random string), so a calendar known only by its id can
make a write unsure, never wrong.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from reflection.case import GuardCase

Role = Literal["target", "source", "current", "read", "excluded"]

_WORD_RE = re.compile(r"[^\W\d_]+", re.UNICODE)

PRONOUNS = frozenset("my our your his her their its".split())
"""Whose calendar a pronoun names is for judgement: the person's own ("my") or a shared one
("our") may be any of several, and "his" needs the conversation."""

_OWN_PRONOUNS = frozenset("hers theirs mine ours yours".split())

_NOT_NAMES = frozenset("""the a an this that same other new another right wrong correct main default
shared whole own one which what whose every each any all""".split())

_CALENDAR_WORD = r"(?:calendars?|cal|calender|calandar|calendr|agenda|diary)"
_WHO = r"(?P<who>[^\W\d_]+(?:['\u2019]s)?(?:\s+[^\W\d_]+)?)"  # "leo", "the family", "hemi's work"
_PREP = r"(?P<prep>on|onto|to|into|in|from|off|for)"
# "on Leo's calendar", "to the family cal", "into maya's own calendar", "from dad's calendar"
_WITH_PREP_RE = re.compile(rf"\b{_PREP}\s+(?:the\s+)?{_WHO}(?:['\u2019]s?)?\s+(?:own\s+)?{_CALENDAR_WORD}\b",
                           re.I | re.UNICODE)
# "put it on the family one", "to leo's": a name that is a known calendar's, then "one" or nothing
_ONE_RE = re.compile(rf"\b{_PREP}\s+(?:the\s+)?{_WHO}(?:['\u2019]s?)?\s+one\b", re.I | re.UNICODE)
# "maya's calendar" with no preposition before it ("check maya's calendar and add ...")
_BARE_RE = re.compile(rf"\b(?P<who>[^\W\d_]+)['\u2019]s?\s+(?:own\s+)?{_CALENDAR_WORD}\b", re.I | re.UNICODE)
# "move it to his", "put it on maya's": a possessive ending a part, that may be a calendar (or a
# place: "dinner to grandma's"), so it is weak: it can agree with a write, never prove one wrong
_LONE_RE = re.compile(r"\b(?P<prep>to|onto|into|on)\s+(?P<who>his|hers|theirs|mine|ours|yours|"
                      r"[^\W\d_]+['\u2019]s)(?=\s*(?:[,.;!?]|$|\band\b|\binstead\b|\btoo\b|\bas\s+well\b|\bpl(?:ea)?se?\b|\bpls\b))",
                      re.I | re.UNICODE)
# "on my calendar, not the family one", "instead of dad's cal": a calendar the event must not go on
_NOT_RE = re.compile(rf"\b(?:not|never|instead\s+of|rather\s+than)\s+(?:(?P<prep>on|onto|to|into|in)\s+)?(?:the\s+)?"
                     rf"{_WHO}(?:['\u2019]s?)?\s+(?:own\s+)?(?:one|{_CALENDAR_WORD})\b", re.I | re.UNICODE)
# "don't put it on the family cal", "not on dad's calendar", "not the one on the family cal": the
# calendar after it is where the event must not go (or be)
_DONT_BEFORE_RE = re.compile(r"(?:\b(?:not|never)\s+(?:(?:the|that)\s+one\s+)?|"
                             r"\b(?:don['\u2019]?t|do\s+not|never)\s+(?:put|add|move|book|schedule|file|copy)\b"
                             r"[^,.;!?\n]*)$", re.I)
# "..., home calendar pls": a calendar's whole name and a calendar word, alone in its part of
# the message, is where the event goes
_NAME_CAL_ALONE_RE = re.compile(rf"(?:^|[,;:.!?]\s*|\band\s+)(?:the\s+)?(?P<who>[^\W\d_]+(?:\s+[^\W\d_]+){{0,2}})"
                                rf"\s+{_CALENDAR_WORD}(?=\s*(?:[,.;!?]|$|\bpl(?:ea)?se?\b|\bpls\b|\bthanks?\b|\bthx\b))",
                                re.I | re.UNICODE)
# "put it on bin days": a calendar's own name after a preposition, no calendar word
_NAMED_ONLY_RE = re.compile(r"\b(?P<prep>on|onto|to|into|in)\s+(?:the\s+)?(?P<who>[^\W\d_]+(?:\s+[^\W\d_]+){0,2})"
                            r"(?=\s*(?:[,.;!?]|$|\band\b|\binstead\b|\btoo\b|\bas\s+well\b|\bpl(?:ea)?se?\b|\bpls\b))",
                            re.I | re.UNICODE)
# a question ("what's on grandma's calendar saturday?"): a calendar read, not written
_SENTENCE_END_RE = re.compile(r"[.!?\n]")
_QUESTION_START_RE = re.compile(r"^\s*(?:what|whats|what's|when|where|who|which|how|is|are|do|does|can\s+you\s+"
                                r"(?:check|see|look|tell))\b", re.I)
# "the dentist is on the family cal (by mistake)": where it is now, not where it goes
_NOW_BEFORE_RE = re.compile(r"(?:\bis|\bare|\bwas|\bwere|['\u2019]s|\bsits|\bsitting|\bcurrently|\bstill|"
                            r"\bended\s+up|\bgot\s+(?:put|added))\s+$", re.I)


def words_of(text: str) -> frozenset[str]:
    """The words of a calendar's name or owner, and of a name said, compared as they are spelt
    (casefolded, a plural's "s" and a possessive dropped: "Kids" is "kid", "Leo's" is "leo")."""
    out = set()
    for word in _WORD_RE.findall(re.sub(r"['\u2019]s\b", "", text.casefold())):
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        if word not in _NOT_NAMES and word not in PRONOUNS and word not in _OWN_PRONOUNS:
            out.add(word)
    return frozenset(out)


def _said_as(word: str, own: frozenset[str]) -> bool:
    """A word said names one of a calendar's words: the same, or its short form ("fam" for
    "family", "fri" would not be a name)."""
    return word in own or (len(word) >= 3 and any(w.startswith(word) for w in own))


@dataclass(frozen=True)
class CalendarFacts:
    """One calendar as `list_calendars` says it: its id, name, owner and whether it is the one a
    new event goes to when the person names none."""

    id: str
    name: str = ""
    owner: str = ""
    primary: bool = False

    @property
    def words(self) -> frozenset[str]:
        return words_of(f"{self.name} {self.owner}")


@dataclass(frozen=True)
class NamedCalendar:
    """A part of the message naming a calendar: where, who was said, the calendars it can mean
    (empty: none known by that name), and whether it is where something goes or comes from."""

    start: int
    end: int
    said: str
    ids: frozenset[str]
    role: Role
    pronoun: bool = False
    weak: bool = False  # a possessive alone ("to maya's"): maybe a place, so it proves nothing


@dataclass(frozen=True)
class CalendarBook:
    """The calendars a case knows, by id, in the order first seen."""

    calendars: Mapping[str, CalendarFacts] = field(default_factory=dict)

    @property
    def several(self) -> bool:
        return len(self.calendars) > 1

    @property
    def default_id(self) -> str | None:
        """The calendar a new event goes to when none is named: the one calendar marked
        primary (None when none or several are)."""
        primary = [c.id for c in self.calendars.values() if c.primary]
        return primary[0] if len(primary) == 1 else None

    def knows(self, calendar_id: str) -> bool:
        return calendar_id in self.calendars and bool(self.calendars[calendar_id].words)

    def matching(self, said: str) -> frozenset[str]:
        """The calendars whose name holds every word said ("family" is "Family Shared"), or,
        for a person's own calendar (`personal`), its name and owner ("leo" is the calendar
        named Leo, or Leo's work calendar; not the Family calendar Leo's account holds)."""
        wanted = words_of(said)
        if not wanted:
            return frozenset()
        return frozenset(c.id for c in self.calendars.values() if all(_said_as(w, self.words(c.id)) for w in wanted))

    def words(self, calendar_id: str) -> frozenset[str]:
        """What a calendar answers to: its name's words, and its owner's when it is personal."""
        facts = self.calendars.get(calendar_id)
        if facts is None:
            return frozenset()
        return facts.words if self.personal(calendar_id) else words_of(facts.name)

    def named_whole(self, said: str) -> frozenset[str]:
        """The calendars whose whole name is what was said ("bin days" is "Bin days")."""
        wanted = " ".join(said.casefold().split())
        return frozenset(c.id for c in self.calendars.values()
                         if len(wanted) >= 3 and " ".join(c.name.casefold().split()) == wanted)

    def personal(self, calendar_id: str) -> bool:
        """A calendar of one person's time: its name is its owner's (or a word of it), or says
        it is theirs ("Work", "Personal"). "Family", "Kids" or "Bin days" are shared, whoever's
        account holds them, so an overlap there is nobody's own clash."""
        facts = self.calendars.get(calendar_id)
        if facts is None or not facts.owner:
            return False
        name = words_of(facts.name)
        if name & _SHARED_KINDS:
            return False  # "MacLeod Family" on Fiona MacLeod's account is the family's, not hers
        return bool(name & words_of(facts.owner)) or bool(name & _OWN_KINDS)

    def owner_words(self) -> Mapping[str, frozenset[str]]:
        """Each calendar's name and owner words, for telling "Maya's dentist" on Maya's calendar
        from another dentist; nothing with one calendar (there is no whose to tell)."""
        if not self.several:
            return {}
        return {c.id: self.words(c.id) for c in self.calendars.values() if self.words(c.id)}

    def same_person(self, a: str, b: str) -> bool:
        """Whether two calendars are one person's time: the same calendar, or two personal
        calendars (`personal`) with one owner."""
        if a == b:
            return True
        one, other = self.calendars.get(a), self.calendars.get(b)
        return bool(one and other and one.owner and one.owner.casefold() == other.owner.casefold()
                    and self.personal(a) and self.personal(b))

    def owner_named(self, address: str, said: frozenset[str]) -> bool:
        """Whether an address is the owner of a calendar named for someone the message names
        ("invite Dan", Dan's calendar owned by dan@...): the address of the person asked for,
        read from the family's own accounts, not a value planted in an event. A shared
        calendar's name ("Family", "Kids", "Work") names nobody."""
        wanted = address.strip().casefold()
        for facts in self.calendars.values():
            name = words_of(facts.name)
            if (facts.owner.strip().casefold() == wanted and name and not name & _OWN_KINDS
                    and not name & _SHARED_KINDS and name <= said):
                return True
        return False

    def named_in(self, text: str) -> list[NamedCalendar]:
        """Every calendar the message names, in order; a possessive or a name that is not
        followed by a calendar word ("Leo's swim") names none, and "the family one" names one only
        when a known calendar has that name."""
        found: list[NamedCalendar] = []
        taken: list[tuple[int, int]] = []
        for pattern in (_NOT_RE, _WITH_PREP_RE, _ONE_RE, _BARE_RE, _NAME_CAL_ALONE_RE, _LONE_RE, _NAMED_ONLY_RE):
            for match in pattern.finditer(text):
                if any(a < match.end() and match.start() < b for a, b in taken):
                    continue
                who = match.group("who")
                prep = (match.groupdict().get("prep") or "").casefold()
                first = who.split()[0].casefold().replace("\u2019", "'").removesuffix("'s")
                pronoun = first in PRONOUNS or first in _OWN_PRONOUNS
                if pattern in (_NAMED_ONLY_RE, _NAME_CAL_ALONE_RE):
                    ids = self.named_whole(who)
                    if not ids:
                        continue  # "move it to friday", "on time": only a calendar's own full name counts
                else:
                    ids = self.matching(who)
                    if pattern in (_ONE_RE, _NOT_RE) and not ids:
                        continue  # "on that one", "to the new one": no calendar named
                if not pronoun and not words_of(who):
                    continue  # "on the calendar", "to the same calendar"
                taken.append((match.start(), match.end()))
                role: Role = "source" if prep in ("from", "off") else "target"
                if role == "target" and _NOW_BEFORE_RE.search(text[max(0, match.start() - 30):match.start()]):
                    role = "current"
                ruled_out = role in ("target", "current") and _DONT_BEFORE_RE.search(text[:match.start()])
                if pattern is _NOT_RE or ruled_out:
                    role = "excluded"
                elif _in_question(text, match.start()) or pattern is _BARE_RE \
                        or _read_there(text, match.start(), match.end()):
                    # asked about, or talked about with no "on"/"to" ("Ian's calendar says the
                    # banquet is Feb 6"): a calendar read, not where something goes
                    role = "read"
                # a one-word name alone ("to work") may be a place; "bin days" is the calendar
                weak = pattern is _LONE_RE or (pattern is _NAMED_ONLY_RE and len(who.split()) < 2)
                found.append(NamedCalendar(match.start(), match.end(), who, ids, role, pronoun, weak=weak))
        found.sort(key=lambda n: n.start)
        for n, item in enumerate(found):
            # "from the family cal to maya's": a possessive right after a calendar it is moved
            # from is the calendar it goes to
            if item.weak and n and found[n - 1].role == "source" and not found[n - 1].weak \
                    and not text[found[n - 1].end:item.start].strip():
                found[n] = replace(item, weak=False)
        return found


_OWN_KINDS = frozenset("work personal private job office me".split())
_SHARED_KINDS = frozenset("family famil kid household home house shared holiday birthday".split())


RELATIONS = frozenset("""husband hubby wife wifey partner spouse mom mum mommy mummy mother dad daddy father son
daughter kid child children brother bro sister sis grandma grandpa granny grandad granddad nana nan gran
grandmother grandfather aunt auntie uncle cousin boyfriend girlfriend fiance fiancee nanny babysitter
boss""".split())
"""Words for a person by their relation to the speaker: "my husband's cal" is his calendar, not
the speaker's own, whatever "my" says."""

# "can you add piano to leo's calendar?": a question that asks for a change is a request
_CHANGE_VERB_RE = re.compile(r"\b(?:add|put|move|book|schedule|copy|create|set\s+up|stick|pop|throw|shift|"
                             r"file|pencil|block|make|change|switch|transfer)\b", re.I)
_ASKS_WHAT_WAS_RE = re.compile(r"^\s*(?:did|have|has|was|were|is|are)(?:n['\u2019]?t)?\b|"
                               r"^\s*(?:why|who|when|where|what)\b", re.I)
# "on leo's calendar it says ...", "i saw on maya's calendar": where the person read something
_SAYS_AFTER_RE = re.compile(r"^\s*,?\s*(?:it\s+|that\s+)?(?:says|said|shows|showed|has|had|lists|listed)\b", re.I)
_SAW_BEFORE_RE = re.compile(r"\b(?:saw|seen|see|noticed|spotted|read)\s+$", re.I)


def _in_question(text: str, index: int) -> bool:
    """Whether `index` sits in a sentence that asks something ("whats on grandma's calendar
    saturday?"): ends with a question mark or starts like a question, and asks for no change
    before it ("can you add piano to leo's calendar?" is a request)."""
    start, mark = 0, ""
    for match in _SENTENCE_END_RE.finditer(text):
        if match.start() >= index:
            mark = match.group()
            break
        start = match.end()
    sentence = text[start:index]
    return (mark == "?" or bool(_QUESTION_START_RE.match(sentence))) and not _asks_change(sentence)


def _asks_change(sentence: str) -> bool:
    """A question that asks for a change ("can you add ...", "could you put ..."); "did you add
    it to leo's calendar?" asks what was done."""
    return bool(_CHANGE_VERB_RE.search(sentence)) and not _ASKS_WHAT_WAS_RE.match(sentence)


def _read_there(text: str, start: int, end: int) -> bool:
    """"on leo's calendar it says piano is at 4", "i saw on maya's calendar": the calendar is
    where something was read, not where it goes."""
    return bool(_SAYS_AFTER_RE.match(text[end:]) or _SAW_BEFORE_RE.search(text[:start]))


def _facts(raw: Any) -> CalendarFacts | None:
    if not isinstance(raw, dict) or not raw.get("id"):
        return None
    return CalendarFacts(str(raw["id"]), str(raw.get("name") or ""), str(raw.get("owner") or ""),
                         bool(raw.get("primary")))


def calendar_book(case: GuardCase) -> CalendarBook:
    """The case's calendars: those it was given (`calendars`), then those any `list_calendars`
    result names; the first word on a calendar stands."""
    known: dict[str, CalendarFacts] = {}
    listed: list[Any] = list(case.calendars)
    for call in case.tool_calls:
        if call.name == "list_calendars":
            result = call.result
            items = result.get("calendars") if isinstance(result, dict) else result
            listed.extend(items if isinstance(items, list) else [])
    for raw in listed:
        facts = _facts(raw)
        if facts is not None and facts.id not in known:
            known[facts.id] = facts
    return CalendarBook(known)


def merged_words(event_words: frozenset[str], calendar_id: str,
                 owners: Mapping[str, frozenset[str]]) -> frozenset[str]:
    """An event's place words with its calendar's name and owner words added (`owner_words`)."""
    extra = owners.get(calendar_id)
    return event_words | extra if extra else event_words


def all_ids(named: Iterable[NamedCalendar]) -> frozenset[str]:
    out: set[str] = set()
    for item in named:
        out |= item.ids
    return frozenset(out)
