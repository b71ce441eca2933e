"""Which calendar events the person's words refer to, found by fuzzy matching with scores.

People do not type titles: they say "the vet" for "Vet - Biscuit", "Maya's piano" for a "Piano
lesson" whose description says "Maya - weekly lesson", "dentsit" for "Dentist". Each run of
content words in the message is matched, word by word, against every event's words (title,
people in the description and attendees, location) with `rapidfuzz`; a word shared by several
events counts for less (it tells them apart less). Every candidate is kept with its score, and a
near-tie is reported as uncertain: the guard may only act on a reference it is sure of.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from typing import Any

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein

from tools.calendar.events import Event

_TOKEN_RE = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*", re.UNICODE)
_SEPARATORS = re.compile(r"(?:,|;|\.|!|\?|\band\b|\bor\b|\bthen\b|\balso\b|\bplus\b|&|\+|\bas well as\b|/)", re.I)

# Words that never name an event: function words, calendar verbs, time words, fillers.
STOPWORDS = frozenset("""
a an the my our your his her their its this that these those to from for on at in into of with by
and or but please pls plz can could would you i we me us it is are be was were will just also all
any some move moved moving reschedule rescheduled push pushed shift shifted change changed put set
make cancel cancelled canceled delete deleted remove removed drop clear add added schedule scheduled
booked create created plan update updated rename renamed called new event events thing
things calendar instead again then there here up out off over about back forward earlier later
today tonight tomorrow tmrw tmr tomorow yesterday day days week weeks weekend month months year
next last after before until through till end morning afternoon evening noon midnight am pm
monday tuesday wednesday thursday friday saturday sunday mon tue tues wed weds thu thur thurs fri
sat sun january february march april may june july august september october november december jan
feb mar apr jun jul aug sep sept oct nov dec every other hour hours hr hrs minute minutes min mins
one two three four five six seven eight nine ten eleven twelve half quarter past o'clock oclock
time when what which where hey hi hello ok okay ugh um uh so maybe actually really thanks
thank thx ty lol pls sorry need needs want wants like let lets let's gonna gotta do does did done
don't doesn't can't cannot won't not no yes yeah yep same place location both everything
anything something whole rest each one's ones now instead sure kindly quick quickly asap bump
bumped delay delayed postpone postponed swap switch trade flip skip scrap axe nix kill get rid
sooner shorter longer extend shorten length long hold keep have has had go going come coming
week's today's tomorrow's tonight's u ur ya plz thx cheers ta hiya sec cuz cos coz
btw fyi asap rn tbh anymore
i'm i've i'll i'd we're we've we'll we'd you're you've you'll they're they've they'll it's that's
there's he's she's isn't aren't wasn't weren't wouldn't shouldn't couldn't didn't haven't hasn't
clash clashes clashing overlaps overlapping
""".split())

# Common short forms people type for words in titles.
SYNONYMS = {
    "appt": "appointment", "appts": "appointment", "doc": "doctor", "dr": "doctor",
    "docs": "doctor", "mtg": "meeting", "bday": "birthday", "b'day": "birthday",
    "practise": "practice", "prac": "practice", "ortho": "orthodontist", "pt": "therapy",
    "physio": "physiotherapy", "mom's": "mom", "mum": "mom", "grandma's": "grandma",
    "gran": "grandma", "nana": "grandma", "granny": "grandma", "vet's": "vet", "pickup": "pickup",
    "swimming": "swim", "footy": "soccer", "football": "soccer", "hw": "homework",
    "conf": "conference", "ptc": "conference", "bookclub": "book",
}

# Words that say what kind of thing it is without telling events apart: they do not count against
# a match that leaves them out ("the haircut appointment" is "Haircut - Sam").
GENERIC = frozenset("appointment appt appointments meeting session thing event booking reservation "
                    "slot class checkup check-up visit start end finish beginning length".split())
"""Words that say what kind of thing or which part of it is meant ("the start of Biscuit's
checkup"), not which one: a name need not answer to them to be certain."""
RUN_BREAKERS = frozenset("and or then also plus & before after until till once when soon".split())
"""Words between two names ("pharmacy pickup should be right after the doctor", "the dinner as
soon as the concert is over"): a run of words never names one event across them."""
PLACING_WORDS = frozenset("right straight directly immediately should".split())
FUZZY_MIN_RATIO = 84.0   # typo tolerance (rapidfuzz ratio, 0-100) for words of 4+ letters
NEAR_TIE = 0.75          # a runner-up scoring this share of the best makes a reference uncertain
MIN_CERTAIN_SCORE = 0.5  # a reference weaker than this is a guess
MIN_COVERAGE = 0.5       # share of a run's words the best event must account for


@dataclass(frozen=True)
class Token:
    """One word of the message, lower-cased, with its place and whether it was possessive."""

    text: str
    start: int
    end: int
    possessive: bool = False


def tokenize(text: str) -> list[Token]:
    out: list[Token] = []
    for match in _TOKEN_RE.finditer(text):
        word = match.group(0).casefold().replace("\u2019", "'")
        possessive = word.endswith("'s")
        if possessive:
            word = word[:-2]
        out.append(Token(word, match.start(), match.end(), possessive))
    return out


@lru_cache(maxsize=1 << 14)
def stem(word: str) -> str:
    """A light plural/verb-form stem: enough for "lessons"/"lesson", not a linguist's stemmer."""
    word = SYNONYMS.get(word, word)
    for suffix in ("ies", "es", "s"):
        if len(word) > 4 and word.endswith(suffix) and not word.endswith("ss"):
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def is_content(word: str) -> bool:
    return word not in STOPWORDS and word not in PLACING_WORDS and not word.isdigit() and not re.fullmatch(
        r"\d+(?:st|nd|rd|th|am|pm|a|p|h|m|min|mins|hr|hrs)?", word)


@lru_cache(maxsize=1 << 16)
def word_similarity(said: str, own: str) -> float:
    """How surely the word the person said is this event word: 1 same, 0.85 a typo, 0.8 a prefix."""
    a, b = stem(said), stem(own)
    if a == b:
        return 1.0
    if len(a) >= 4 and len(b) >= 4:
        if fuzz.ratio(a, b) >= FUZZY_MIN_RATIO or (
                Levenshtein.distance(a, b, weights=(1, 1, 1)) <= 1 and min(len(a), len(b)) >= 5):
            return 0.85
        if b.startswith(a) and len(a) >= 4:
            return 0.8
    return 0.0


@dataclass(slots=True)
class EventProfile:
    """The words one event (or one recurring series) answers to."""

    key: str                      # the event id, or the series id for an occurrence
    title: str
    title_words: frozenset[str]
    people: frozenset[str]
    place_words: frozenset[str]
    all_words: frozenset[str]
    """Its title, people and place words together, joined once: the index and the document
    frequencies read them for every profile of the window."""

    weighted: tuple[tuple[str, float], ...]
    """Each word with its weight (title and people 1, place 0.5), in the order scoring reads them."""

    event_ids: set[str] = field(default_factory=set)


@lru_cache(maxsize=1 << 14)
def _weighted(title_words: frozenset[str], people: frozenset[str],
              place_words: frozenset[str]) -> tuple[tuple[str, float], ...]:
    """Built once per set of words, not for every said word of every scoring."""
    weighted = [(own, 1.0) for own in title_words | people]
    weighted += [(own, 0.5) for own in place_words - title_words - people]
    return tuple(weighted)


_EMAIL_RE = re.compile(r"\S+@\S+")
_NAME_RE = re.compile(r"\b([A-Z][a-z]{1,20})\b")
_SENTENCE_WORD_RE = re.compile(r"(?:^|[.!?]\s+|\n\s*)([A-Z][a-z]{1,20})\s+[a-z]")
"""A capital that only begins a sentence ("Snack duty: Miller family", "Bring snacks"): an
ordinary word, no person's name (a name stands before a dash or a colon: "Maya - lesson")."""


@lru_cache(maxsize=1 << 12)
def _words(text: str | None) -> frozenset[str]:
    if not text:
        return frozenset()
    found: set[str] = set()
    for tok in tokenize(text):
        if is_content(tok.text):
            found.add(stem(tok.text))
    # "Pick-up", "Book club": the joined form too, so "pickup"/"bookclub" match
    toks = [t.text for t in tokenize(text)]
    for a, b in pairwise(toks):
        if is_content(a) or is_content(b):
            found.add(a + b)
    return frozenset(found)


@lru_cache(maxsize=1 << 14)
def _people_of(attendees: tuple[str, ...], description: str | None) -> frozenset[str]:
    """Cached on the two fields it reads: a calendar's events repeat them, and every check reads
    the whole window again."""
    found: set[str] = set()
    for address in attendees:
        local = address.split("@")[0]
        found |= {stem(p) for p in re.split(r"[._\-+0-9]+", local.casefold()) if len(p) >= 2}
    openers = {m.start(1) for m in _SENTENCE_WORD_RE.finditer(description or "")}
    for match in _NAME_RE.finditer(description or ""):
        name = match.group(1)
        if name.casefold() not in STOPWORDS and match.start(1) not in openers:
            found.add(stem(name.casefold()))
    return frozenset(w for w in found if is_content(w))


def profiles(calendar: Sequence[Event], owners: Mapping[str, frozenset[str]] | None = None) -> list[EventProfile]:
    """One profile per event, occurrences of a series folded into their series. `owners`: each
    calendar's name and owner words (several calendars), which count like a place's words:
    "Maya's dentist" leans to the dentist on Maya's calendar, and they alone never name it."""
    by_key: dict[str, EventProfile] = {}
    for event in calendar:  # issue 25: hundreds of events a check; one lookup, one object each
        key = event.recurring_event_id or event.id
        found = by_key.get(key)
        if found is not None:
            found.event_ids.add(event.id)
            continue
        title, people, place, every, weighted = _profile_words(
            event.title, event.attendees, event.description, event.location)
        whose = owners.get(event.calendar_id) if owners else None
        if whose:
            title, people, place, every, weighted = _joined(title, people, place | whose)
        by_key[key] = EventProfile(key, event.title, title, people, place, every, weighted, {event.id})
    return list(by_key.values())


@lru_cache(maxsize=1 << 14)
def _profile_words(title: str, attendees: tuple[str, ...], description: str | None, location: str | None
                   ) -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str],
                              tuple[tuple[str, float], ...]]:
    """Title, people and place words of one event's texts, all of them together and weighted
    (`EventProfile`), cached on those texts: a calendar repeats them (a weekly lesson, the same
    dentist), and every check reads the whole window."""
    return _joined(_words(title), _people_of(attendees, description), _words(location))


@lru_cache(maxsize=1 << 14)
def _joined(title_words: frozenset[str], people: frozenset[str], place_words: frozenset[str]
            ) -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str],
                       tuple[tuple[str, float], ...]]:
    """A profile's words as `EventProfile` holds them: title, people, place, all of them
    together, and weighted (`_weighted`)."""
    return (title_words, people, place_words, title_words | people | place_words,
            _weighted(title_words, people, place_words))


_FUZZY_PREFILTER = 79.0
"""`word_similarity` calls two words of 4+ letters a typo when their rapidfuzz ratio is at least
FUZZY_MIN_RATIO, or when they are one edit apart and both have 5+ letters; one edit between
words of 5+ letters leaves a ratio of at least 80 (2 indels in 10 letters). Every such pair has
a ratio above this cut, so the index's prefilter keeps every typo and `word_similarity` decides."""


class EventIndex:
    """The window's event profiles with an inverted index from each profile word to the
    profiles holding it, and the document frequencies the scores divide by.

    Why: scoring every profile for every run of the message made the guard's cost grow with
    the calendar (issue 25: 81 % of a check at 10,000 events). A said word can only score on a
    profile holding a word `word_similarity` finds similar: the same stem, a typo ("dentsit"), or
    a prefix. Those words are found in the vocabulary (exact stems by dict, typos by a rapidfuzz
    scan of the vocabulary with a cut below the typo threshold, prefixes by bisection), then
    confirmed with `word_similarity` itself, so the profiles scored are exactly those that would
    have scored above zero, in their original order: the same candidates, scores and ties."""

    def __init__(self, calendar: Sequence[Event], owners: Mapping[str, frozenset[str]] | None = None) -> None:
        self.profiles = profiles(calendar, owners)
        self.postings = _Postings(self.profiles)
        self.df = _PostingCounts(self.postings)
        self._finder = WordFinder(self.postings)

    def similar_words(self, said: str) -> tuple[str, ...]:
        """The profile words `word_similarity` scores above zero for `said`."""
        return self._finder.similar_words(said)

    def candidates(self, words: Iterable[str]) -> list[EventProfile]:
        """The profiles sharing a word (or a near spelling) with `words`, in index order."""
        positions: set[int] = set()
        for said in words:
            for own in self.similar_words(said):
                positions.update(self.postings[own])
        return [self.profiles[i] for i in sorted(positions)]

    def score(self, words: Sequence[str]) -> list[Candidate]:
        """`score_words` over the whole window, scoring only the profiles that can score, with
        each said word's similar words as the index found them (the candidates' vocabulary
        holds exactly those: a profile holding one is a candidate)."""
        return score_words(words, self.candidates(words), self.df,
                           {said: self._finder.similarities(said) for said in words})


class WordFinder:
    """The words of a vocabulary `word_similarity` scores above zero for a said word: the same
    stem (dict), a typo (a rapidfuzz scan of the vocabulary cut below the typo threshold), a
    prefix (bisection in the sorted stems), each confirmed by `word_similarity` itself. Apart
    from `EventIndex` so the window's texts can be searched the same way before any of its
    events is read (`texts_reached`)."""

    def __init__(self, vocabulary: Iterable[str]) -> None:
        by_stem: dict[str, list[str]] = {}
        for word in vocabulary:
            by_stem.setdefault(stem(word), []).append(word)
        self._by_stem = by_stem
        self._stems = sorted(by_stem)
        self._long_stems = [s for s in self._stems if len(s) >= 4]
        self._similar: dict[str, dict[str, float]] = {}

    def similar_words(self, said: str) -> tuple[str, ...]:
        """The vocabulary's words `word_similarity` scores above zero for `said`."""
        return tuple(self.similarities(said))

    def similarities(self, said: str) -> dict[str, float]:
        """`similar_words` with each word's `word_similarity` to `said`, found once per said
        word: scoring reads them for every run of the message."""
        found = self._similar.get(said)
        if found is not None:
            return found
        a = stem(said)
        stems = set(self._by_stem.get(a, ()))
        if len(a) >= 4:
            stems.add(a)
            for match, _score, _i in process.extract(a, self._long_stems, scorer=fuzz.ratio,
                                                     score_cutoff=_FUZZY_PREFILTER, limit=None):
                stems.add(match)
            for i in range(bisect_left(self._stems, a), len(self._stems)):
                if not self._stems[i].startswith(a):
                    break
                stems.add(self._stems[i])
        found = self._similar[said] = {w: value for st in stems for w in self._by_stem.get(st, ())
                                       if (value := word_similarity(said, w)) > 0}
        return found


class _Postings(Mapping[str, list[int]]):
    """Each word's profiles (their positions, ascending), found when the word is first asked.

    Why: a check asks for the postings of the few words similar to what was said, and a
    window's profiles are fewer kinds than events (a weekly lesson, the same dentist); every
    word of every profile appended to its list was most of building the index (issue 25: 650
    profiles, ~5,000 appends, at 100,000 events). The profiles are grouped by their words, and
    a word's postings are the positions of the groups holding it."""

    def __init__(self, profs: Sequence[EventProfile]) -> None:
        groups: dict[frozenset[str], list[int]] = {}
        for position, prof in enumerate(profs):
            group = groups.get(prof.all_words)
            if group is None:
                groups[prof.all_words] = [position]
            else:
                group.append(position)
        self._groups = groups
        self._vocabulary: frozenset[str] = frozenset().union(*groups)
        self._found: dict[str, list[int]] = {}

    def __getitem__(self, word: str) -> list[int]:
        found = self._found.get(word)
        if found is None:
            if word not in self._vocabulary:
                raise KeyError(word)
            found = self._found[word] = sorted(
                position for words, positions in self._groups.items() if word in words for position in positions)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._vocabulary)

    def __len__(self) -> int:
        return len(self._vocabulary)


class _PostingCounts(Mapping[str, int]):
    """The document frequencies read off the postings (a word's profiles are its postings),
    instead of a second pass over every profile's words: only the few matched words are asked."""

    def __init__(self, postings: Mapping[str, list[int]]) -> None:
        self._postings = postings

    def __getitem__(self, word: str) -> int:
        return len(self._postings[word])

    def __iter__(self) -> Iterator[str]:
        return iter(self._postings)

    def __len__(self) -> int:
        return len(self._postings)


_INDEX_CACHE: list[tuple[Sequence[Event], tuple[int, ...], Mapping[str, frozenset[str]] | None,
                         EventIndex]] = []


def event_index(calendar: Sequence[Event], owners: Mapping[str, frozenset[str]] | None = None) -> EventIndex:
    """The index of this calendar, built once per case: the reading and the checks ask for it
    with the same list several times. The list is kept with its events' identities, so a
    different or changed list (events are immutable) gets its own index."""
    identity = tuple(map(id, calendar))
    for cached, ids, whose, index in _INDEX_CACHE:
        if cached is calendar and ids == identity and whose is owners:
            return index
    index = EventIndex(calendar, owners)
    _INDEX_CACHE[:] = [(calendar, identity, owners, index)] + _INDEX_CACHE[:1]
    return index


@dataclass(frozen=True)
class Candidate:
    key: str
    title: str
    score: float
    matched: int = 0   # how many of the run's words this event accounts for
    named: bool = True  # a title or person word matched (not only a place word)
    exact_title: frozenset[str] = frozenset()  # said words that are one of its title words exactly
    covered: frozenset[str] = frozenset()      # said words it matched at all


@dataclass(frozen=True)
class EventRef:
    """A run of the person's words and the events it may name, best first."""

    text: str
    start: int
    end: int
    candidates: tuple[Candidate, ...]
    words: tuple[str, ...]

    @property
    def certain(self) -> bool:
        """One clear best event: strong enough, accounting for most of the words ("piano
        recital" is not "Piano lesson"), with no near-tie."""
        if not self.candidates or self.candidates[0].score < MIN_CERTAIN_SCORE or not self.candidates[0].named:
            return False
        telling = [w for w in self.words if w not in GENERIC and len(w) >= 3]
        if self.candidates[0].matched < MIN_COVERAGE * max(1, len(telling)):
            return False
        best = self.candidates[0]
        if any(c.exact_title - best.covered for c in self.candidates[1:]):
            # "Leo's dentist appointment clashes with work": 'dentist' is another event's title
            # word, which the best one ('Swim class', by a near-spelling) does not answer to
            return False
        return len(self.candidates) == 1 or self.candidates[1].score < NEAR_TIE * best.score

    @property
    def best(self) -> str | None:
        return self.candidates[0].key if self.candidates else None

    def keys(self) -> set[str]:
        return {c.key for c in self.candidates}


def _runs(text: str, tokens: list[Token], covered: list[tuple[int, int]]) -> list[list[Token]]:
    """Runs of content words not broken by a separator ("and", a comma) or a date phrase."""
    runs: list[list[Token]] = []
    current: list[Token] = []
    last_end = 0
    for i, tok in enumerate(tokens):
        inside_date = any(a <= tok.start < b for a, b in covered)
        gap = text[last_end:tok.start]
        if i and tokens[i - 1].text == "w" and gap.startswith("/"):
            gap = gap[1:]  # "facetime w/ grandpa": w/ is "with", inside one name, not a list
        broken = bool(_SEPARATORS.search(gap)) or inside_date or tok.text in RUN_BREAKERS
        if _is_verb_use(tok, tokens[i + 1] if i + 1 < len(tokens) else None,
                        tokens[i - 1] if i else None):
            if current:
                runs.append(current)
                current = []
            last_end = tok.end
            continue
        if broken and current:
            runs.append(current)
            current = []
        if not inside_date and is_content(tok.text):
            current.append(tok)
        elif current and tok.text in ("to", "at", "on", "for", "from", "in", "by", "until", "till"):
            runs.append(current)
            current = []
        last_end = tok.end
    if current:
        runs.append(current)
    return runs


_VERB_NEXT = frozenset("a an the me us in it my our your his her their for them this that some".split())
_PLACE_BEFORE = frozenset("at to from get got back".split())


_ASKING_BEFORE = frozenset("and then also to pls please plz you can could lets let's just i we so".split())
"""Before a verb that begins a request ("can you book", "and book")."""
_BOOK_NOUNS = frozenset("club clubs group fair sale swap signing reading launch exchange drive night week "
                        "report fest festival".split())
"""After "book": words of the kind of event a book is ("Book club", "book fair")."""
_RUN_OVER_NEXT = frozenset("over late long longer short shorter past till until til half an a another extra "
                           "later earlier".split())
"""After "run": words that make it the event running on, not a run ("the Home Depot run")."""


def _is_verb_use(tok: Token, after: Token | None, before: Token | None) -> bool:
    """"book a table", "call it Swimming", "at home": words that are not names here."""
    if tok.text in ("book", "call", "plan") and (after is None or after.text in _VERB_NEXT):
        return True
    if tok.text == "book" and (before is None or before.text in _ASKING_BEFORE) and \
            (after is None or after.text not in _BOOK_NOUNS):
        return True  # "...and book photos with grandma": the verb, where a request begins
    if tok.text in ("run", "runs", "running", "go", "goes") and after is not None and \
            (after.text in _RUN_OVER_NEXT or after.text.isdigit()):
        return True  # "let the garcia dinner run half an hour over": not the "Home Depot run"
    if tok.text == "home" and (before is not None and before.text in _PLACE_BEFORE) and \
            (after is None or not after.text[:1].isalpha() or after.text in STOPWORDS):
        return True
    return False


def _df(profs: Iterable[EventProfile]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for prof in profs:
        for word in prof.all_words:
            counts[word] = counts.get(word, 0) + 1
    return counts


_Scored = tuple[float, int, bool, frozenset[str], frozenset[str]]


def _score_profile(prof: EventProfile, words: Sequence[str], similar: dict[str, dict[str, float]],
                   similar_sets: dict[str, frozenset[str]], df: Mapping[str, int]) -> _Scored | None:
    """One profile's score, matched words, whether a title or person word matched, the said
    words that are one of its title words, the said words it matched; None when nothing
    matched. It depends on the profile's words only."""
    score = 0.0
    matched = 0
    named = False
    used: set[str] = set()
    exact: set[str] = set()
    covered: set[str] = set()
    for said in words:
        hits = prof.all_words & similar_sets[said]
        if not hits:
            continue
        sims = similar[said]
        best, best_word = 0.0, ""
        if len(hits) == 1:
            (best_word,) = hits
            best = sims[best_word] * (1.0 if best_word in prof.title_words
                                      or best_word in prof.people else 0.5)
        else:
            for own, weight in prof.weighted:
                value = sims.get(own, 0.0) * weight
                if value > best:
                    best, best_word = value, own
        if best and best_word not in used:
            used.add(best_word)
            score += best / df[best_word]
            matched += 1
            named = named or best_word in prof.title_words or best_word in prof.people
            covered.add(said)
            if best >= 1.0 and best_word in prof.title_words:
                exact.add(said)
    if score > 0:
        return round(score, 3), matched, named, frozenset(exact), frozenset(covered)
    return None


def score_words(words: Sequence[str], profs: Sequence[EventProfile],
                df: Mapping[str, int] | None = None,
                similar: dict[str, dict[str, float]] | None = None) -> list[Candidate]:
    """Every event the words may name, with a score: matched event words, each weighted by how
    few events share it (title and people count fully, the place half). `similar`: each said
    word's similar words with their `word_similarity`, when the caller found them already (at
    least those among these profiles'; others are never looked up)."""
    df = df if df is not None else _df(profs)
    # Each said word's similar words among these profiles' (issue 25: a window's hundreds of
    # profiles each compared word by word made most of a check's scoring). A profile holding
    # one of them scores that word; holding several, the first best in its own order, as before.
    if similar is None:
        vocabulary: set[str] = set()
        for prof in profs:
            vocabulary |= prof.all_words
        similar = {said: {own: value for own in vocabulary if (value := word_similarity(said, own)) > 0}
                   for said in words}
    similar_sets = {said: frozenset(sims) for said, sims in similar.items()}
    shared = {own: df.get(own, 1) for sims in similar.values() for own in sims}
    scored = _scored_profiles(profs, words, similar, similar_sets, shared)
    # the order and the floor first, then a Candidate for each kept one only (hundreds of
    # profiles reached by a word like "dinner" score, a few are kept)
    scored.sort(key=lambda pair: -pair[1][0])
    if scored:
        floor = scored[0][1][0] * 0.5
        return [Candidate(prof.key, prof.title, *found) for prof, found in scored if found[0] >= floor]
    return []


def _scored_profiles(profs: Sequence[EventProfile], words: Sequence[str],
                     similar: dict[str, dict[str, float]], similar_sets: dict[str, frozenset[str]],
                     shared: Mapping[str, int]) -> list[tuple[EventProfile, _Scored]]:
    """Each profile that scores, with its score, in the profiles' order. A profile's score
    depends only on its words among those similar to a said word (`reached`): which of them are
    title, people or place words, and, when one said word reaches several of them, their order
    in `weighted` (the first best is kept). Profiles alike in that are scored once (issue 25:
    the 400-650 profiles a create's words reach, "dinner" or a guest's name, are a few kinds:
    a guest's name on events of every title, a title at every place)."""
    reached = frozenset().union(*similar_sets.values())
    by_words: dict[int, _Scored | None] = {}  # a profile's words (their weighted tuple) scored
    by_kind: dict[tuple[frozenset[str], frozenset[str], frozenset[str], tuple[str, ...]], _Scored | None] = {}
    ordered: dict[frozenset[str], bool] = {}  # whether a said word reaches several of these
    out: list[tuple[EventProfile, _Scored]] = []
    for prof in profs:
        mark = id(prof.weighted)  # one tuple per set of words (`_weighted`), alive while scored
        if mark in by_words:
            found = by_words[mark]
        else:
            hit = prof.all_words & reached
            several = ordered.get(hit)
            if several is None:
                several = ordered[hit] = any(len(hit & own) > 1 for own in similar_sets.values())
            order = tuple(w for w, _ in prof.weighted if w in hit) if several else ()
            kind = (hit, prof.title_words & hit, prof.people & hit, order)
            if kind in by_kind:
                found = by_kind[kind]
            else:
                found = by_kind[kind] = _score_profile(prof, words, similar, similar_sets, shared)
            by_words[mark] = found
        if found is not None:
            out.append((prof, found))
    return out


def find_event_refs(text: str, calendar: Sequence[Event],
                    date_spans: Sequence[tuple[int, int]] = (),
                    owners: Mapping[str, frozenset[str]] | None = None) -> list[EventRef]:
    """Every run of content words in `text` with the events it may name (possibly none: a new
    event's title, or a nickname we cannot place). `owners`: as `profiles` takes them."""
    index = event_index(calendar, owners)
    tokens = tokenize(_EMAIL_RE.sub(lambda m: " " * len(m.group(0)), text))
    refs: list[EventRef] = []
    for run in _runs(text, tokens, list(date_spans)):
        words = tuple(t.text for t in run)
        joined = tuple(a + b for a, b in pairwise(words))
        candidates = index.score(words + joined)
        refs.append(EventRef(text[run[0].start:run[-1].end], run[0].start, run[-1].end,
                             tuple(candidates), words))
    return refs


def evidence_for(key: str, text: str, calendar: Sequence[Event],
                 owners: Mapping[str, frozenset[str]] | None = None,
                 elsewhere: Sequence[tuple[int, int]] = ()) -> float:
    """How much any word of the message (date phrases included) points at this event.
    `elsewhere`: spans of words already known to name another event for sure ("Dentist - Leo":
    its 'dentist' is no evidence for Maya's dentist)."""
    tokens = tokenize(text)
    words = tuple(t.text for i, t in enumerate(tokens) if (is_content(t.text) or t.text in _DATEISH_TITLE_WORDS)
                  and not any(a <= t.start < b for a, b in elsewhere)
                  and not _is_verb_use(t, tokens[i + 1] if i + 1 < len(tokens) else None, tokens[i - 1] if i else None))
    for cand in event_index(calendar, owners).score(words):
        if cand.key == key:
            return cand.score
    return 0.0


# Weekday and meal words are stop words for naming, yet titles use them ("Friday lunch").
_DATEISH_TITLE_WORDS = frozenset("""monday tuesday wednesday thursday friday saturday sunday
morning afternoon evening night lunch weekend""".split())


@lru_cache(maxsize=256)
def lookup_words(text: str) -> frozenset[str]:
    """Every word the reading of `text` may score against the calendar, and more: each content
    or date-ish token (with and without the addresses blanked out, as `find_event_refs` and
    `evidence_for` read it; "move" is no name, and would reach every "Movie night") and each
    pair of neighbours in a run read with no date phrase (a date phrase only breaks runs, so
    the pairs `find_event_refs` joins are among these)."""
    blanked = tokenize(_EMAIL_RE.sub(lambda m: " " * len(m.group(0)), text))
    words = {t.text for t in (*tokenize(text), *blanked)
             if is_content(t.text) or t.text in _DATEISH_TITLE_WORDS}
    for run in _runs(text, blanked, []):
        words.update(a.text + b.text for a, b in pairwise(run))
    return frozenset(words)


@dataclass(frozen=True)
class TextsReached:
    """The window's texts holding a word some word of the message is similar to: the events
    holding one of them are every event the message's words can score on."""

    titles: frozenset[str]
    places: frozenset[str]
    guests: frozenset[tuple[str, ...]]
    descriptions: frozenset[str]


def texts_reached(text: str, titled: Iterable[tuple[str, str | None]], places: Iterable[str],
                  guests: Iterable[tuple[str, ...]]) -> TextsReached:
    """Which of the window's distinct texts (titles with descriptions, places, guest lists) hold
    a word `lookup_words(text)` is similar to. An event's words are its title's, its place's and
    the people of its guests and description (`_people_of` is the union of the two), so an event
    can score on the message only if one of its texts is reached."""
    owners, finder = _texts_index(frozenset(titled), frozenset(places), frozenset(guests))
    reached: tuple[set[Any], set[Any], set[Any], set[Any]] = (set(), set(), set(), set())
    for said in lookup_words(text):
        for word in finder.similar_words(said):
            for kind, value in owners[word]:
                reached[kind].add(value)
    return TextsReached(frozenset(reached[0]), frozenset(reached[1]), frozenset(reached[2]),
                        frozenset(reached[3]))


@lru_cache(maxsize=32)
def _texts_index(titled: frozenset[tuple[str, str | None]], places: frozenset[str],
                 guests: frozenset[tuple[str, ...]]
                 ) -> tuple[dict[str, frozenset[tuple[int, object]]], WordFinder]:
    """Each word of these texts with the texts holding it (kind: 0 title, 1 place, 2 guests,
    3 description), and a finder over those words. Kept for the next check: a window's distinct
    texts are the same from one check to the next unless a write brings a new one (then the
    set differs, and is indexed anew)."""
    owners: dict[str, set[tuple[int, object]]] = {}

    def own(words: frozenset[str], kind: int, value: object) -> None:
        for word in words:
            owners.setdefault(word, set()).add((kind, value))

    for title, description in titled:
        own(_words(title), 0, title)
        if description:
            own(_people_of((), description), 3, description)
    for place in places:
        own(_words(place), 1, place)
    for attendees in guests:
        own(_people_of(attendees, None), 2, attendees)
    return {word: frozenset(held) for word, held in owners.items()}, WordFinder(owners)
