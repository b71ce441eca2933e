"""Places: "home", "our place", "at ours" mean the home address; a business whose name holds a
home-word (Home Depot, Homewood Suites, HomeGoods) is never home; a saved place is its address.

The home phrase is found with care: "home" followed by a name-like word ("home depot") is not a
home phrase, and one we cannot tell apart makes the call unsure rather than wrong.
"""
from __future__ import annotations

import re

from reflection.checks.context import CheckContext, WriteCall
from reflection.findings import Fact
from tools.locations import normalize_place

HOME_PHRASE_RE = re.compile(
    r"\b(?:(?:at|to|from)\s+)?(?:my|our)\s+(?:place|house|home|apartment|flat|condo)\b|\bat\s+ours\b|"
    r"\b(?:at|to|from)\s+the\s+house\b(?!\s+(?:of|on|in|at|across|next|by|near|down|up)\b)|"
    r"\b(?:at|to|from|get|got|be|is|are|'s)\s+home\b(?=\s*(?:$|[.,!?;)]|(?:on|at|for|with|by|from|"
    r"tomorrow|tonight|today|this|next|now|instead|please|pls|again|then|and|around|before|after|"
    r"early|late|in|until|till|the|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|"
    r"tue|tues|wed|thu|thurs|fri|sat|sun)\b|\d))", re.I)
KNOWN_HOME_BUSINESSES = re.compile(
    r"\bhome\s*(?:depot|goods|sense|wood(?:\s+suites)?|stead|store|base|bargains|hardware|"
    r"improvement|team|made|2\s*suites|away)\b|\bhomewood\b|\bhomegoods\b|\bhomesense\b|"
    r"\bhomestead\b|"
    # a name typed in lower case that starts with "home" and ends in what the place is ("home
    # sweet home bakery", "home plate diner"): a word or more between, none a sentence's ("from
    # home, coffee with sam" and "work from home coffee chat" are not one)
    r"\bhome(?:\s+(?!(?:for|on|at|by|to|from|with|and|or|the|this|next|tomorrow|tonight|today)\b)"
    r"[a-z'&]+){1,3}\s+(?:bakery|bakeshop|cafe|caf\u00e9|coffee|diner|pizza|pizzeria|restaurant|bistro|"
    r"grill|pub|tavern|shop|salon|spa|clinic|market|hotel|inn|suites|gym|fitness|studio|deli|"
    r"kitchen|bagels?|donuts?|nursery|furniture|supply|supplies|cleaners|florist|boutique)\b", re.I)
# A name in Title Case that holds "Home" next to another capitalised word: "Home Sweet Home Bakery"
TITLED_HOME_NAME = re.compile(r"\b(?:[A-Z][\w'&-]*\s+)*Home(?:\s+[A-Z][\w'&-]*)+|\b(?:[A-Z][\w'&-]*\s+)+Home\b")
_HOME_WORD_RE = re.compile(r"\bhome|\bhouse\b|\bplace\b|\bours\b", re.I)


def home_phrase(text: str) -> str | None:
    """Words that surely mean the person's home ("at home", "our place"), else None."""
    cleaned = TITLED_HOME_NAME.sub(" ", KNOWN_HOME_BUSINESSES.sub(" ", text))
    match = HOME_PHRASE_RE.search(cleaned)
    return match.group(0).strip(" .,!?") if match else None


def business_with_home_word(text: str) -> str | None:
    """A business whose name holds a home-word ("Home Depot", "Home Sweet Home Bakery")."""
    match = KNOWN_HOME_BUSINESSES.search(text)
    if match:
        return match.group(0)
    titled = [m.group(0) for m in TITLED_HOME_NAME.finditer(text)
              if not re.fullmatch(r"(?:At|To|From|My|Our)\s+Home", m.group(0))]
    return titled[0] if titled else None


def _is_home(location: str, home: str | None) -> bool:
    norm = normalize_place(location)
    if norm in ("home", "my place", "our place", "my house", "our house", "my home", "our home"):
        return True
    if not home:
        return False
    home_norm = normalize_place(home)
    return norm == home_norm or home_norm in norm or (len(norm) > 8 and norm in home_norm)


def _saved(ctx: CheckContext, location: str) -> str | None:
    norm = normalize_place(location)
    for name, address in ctx.case.places.items():
        if norm in (normalize_place(address), normalize_place(name)):
            return name
    return None


def check_places(ctx: CheckContext) -> None:
    text = ctx.reading.text
    business = business_with_home_word(text)
    home_words = home_phrase(text)
    unclear = not home_words and not business and bool(re.search(r"\bhome\b", text, re.I))
    for write in ctx.writes:
        if unclear and "location" in write.input:
            ctx.unsure(write, "'home' is said in a way code cannot read for sure")
        if write.failed or write.kind == "delete" or "location" not in write.input:
            continue
        location = str(write.written("location") or "")
        if not location:
            continue
        _check_one(ctx, write, location, business, home_words)


def _check_one(ctx: CheckContext, write: WriteCall, location: str, business: str | None,
               home_words: str | None) -> None:
    home = ctx.case.home_address
    written_home = _is_home(location, home)
    if business and written_home and not home_words:
        ctx.error(write, "location", f"'{business}' is a business, not the person's home; the call "
                  f"writes the home address ({location})", f"look up '{business}' and use its address",
                  business)
        return
    if home_words and not business:
        if written_home:
            ctx.facts.append(Fact("place", location, "the location is the home address"))
            return
        saved = _saved(ctx, location)
        if saved is not None and normalize_place(saved) in normalize_place(ctx.reading.text):
            ctx.unsure(write, "both home and a saved place are mentioned")
            return
        if not home:
            ctx.unsure(write, "no home address is set")
            return
        if re.search(r"\bnot\s+(?:at\s+)?(?:my|our)\s+(?:place|house|home)|\bnot\s+ours\b|\bnot\s+home\b",
                     ctx.reading.text, re.I):
            ctx.unsure(write, "home is mentioned as where it is not")
            return
        if sum(1 for w in ctx.writes if w.kind != "delete" and not w.failed) > 1:
            # "festa junina sat 3pm-6pm, then pizza at home sat night": home is one event's place
            ctx.unsure(write, "home is said in a message of several changes: whose place it is is not certain")
            return
        ctx.error(write, "location", f"the person said '{home_words}' (their home, {home}); the call "
                  f"writes '{location}'", f"set the location to {home}", home_words)
        return
    saved = _saved(ctx, location)
    if saved is not None and normalize_place(saved).split("'")[0] in normalize_place(ctx.reading.text):
        return
    if _kept_place(ctx, write, location):
        return
    named = _other_place_named(ctx.reading.text, home) or _street_address_named(ctx.reading.text, home)
    if written_home and named is not None and not home_words:
        ctx.error(write, "location", f"the person named the place '{named}'; the call writes the home address "
                  f"({location})", f"look up '{named}' and use its address", named,
                  proof={"place_named": named, "written": location})
        return
    if written_home and _HOME_WORD_RE.search(ctx.reading.text):
        ctx.unsure(write, "the home address was written; the words about the place are unclear")
        return
    words = [w for w in re.findall(r"[a-z0-9]+", normalize_place(location)) if len(w) > 3]
    if words and any(w in normalize_place(ctx.reading.text) for w in words) and not written_home:
        return
    ctx.unsure(write, "the place written is not one the message names")


PLACE_AT_RE = re.compile(
    r"\bat\s+(?P<place>(?:the\s+)?[a-z][\w&'.-]*(?:\s+(?:on|in|&)?\s*[a-z][\w&'.-]*){0,3})", re.I)
PLACE_SET_RE = re.compile(
    r"\b(?:location|place|venue|address|where)\s+(?:as|to|is|=|:|should\s+be)\s+"
    r"(?P<place>(?:the\s+)?[a-z][\w&'.-]*(?:\s+(?:on|in|&)?\s*[a-z][\w&'.-]*){0,3})", re.I)
"""'put the location as McFetridge Sports Center', 'change the place to clube pinheiros'."""
_NOT_A_PLACE = re.compile(
    r"^(?:the\s+)?(?:same|latest|least|most|once|noon|midnight|night|lunch|breakfast|dinner|some|any|all|first|"
    r"last|home|ours|my|our|the\s+moment|that|this|it|him|her|them|me|us|you|morning|afternoon|evening|tonight|"
    r"tomorrow|today|mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|half|quarter|"
    r"be|do|go|get|make|have|see|pick|drop|take|bring|move|change|put|book|add|start|end|finish|work|school|"
    r"earliest|a|an|one|two|three|which|what|when|where|whenever|about|around|least|end)\b", re.I)


def _other_place_named(text: str, home: str | None) -> str | None:
    """"book maya in at toni&guy on park st": a place the message names that is not home (nor
    a part of the home address), so the home address cannot be where the event is."""
    home_norm = normalize_place(home or "")
    for match in [*PLACE_AT_RE.finditer(text), *PLACE_SET_RE.finditer(text)]:
        place = match["place"].strip(" .,!?")
        if _NOT_A_PLACE.match(place) or re.match(r"\d", place) or _HOME_WORD_RE.search(place):
            continue
        first = re.findall(r"[a-z0-9]+", normalize_place(place))
        if not first or (home_norm and first[0] in home_norm):
            continue
        return place
    return None


SAME_PLACE_RE = re.compile(r"\b(?:the\s+)?same\s+(?:place|location|spot|venue|address)\b(?!\s+as\b)", re.I)
_NOT_SAME_RE = re.compile(r"\bnot\s+(?:at\s+)?(?:the\s+)?same\s+(?:place|location|spot|venue|address)\b", re.I)


def _other_street(one: str, other: str) -> bool:
    """Both places give a street address and they differ: "The Old Bell, 14 High St" and "The Old
    Bell, 2 Church St, Hertford" share a name, not a place."""
    a, b = STREET_ADDRESS_RE.search(one), STREET_ADDRESS_RE.search(other)
    if a is None or b is None:
        return False
    # the number and the street's first word: "14 High St" is "14 High Street"
    return a.group("address").casefold().split()[:2] != b.group("address").casefold().split()[:2]


def _kept_place(ctx: CheckContext, write: WriteCall, location: str) -> bool:
    """"move it to saturday 10am, same place": the event's place stays what it is. A change
    that writes another place is an error; one that writes the same place again is right (True:
    judged here). "same place as soccer" names another event's place and is left to the rest."""
    text = ctx.reading.text
    said = SAME_PLACE_RE.search(text)
    if write.kind != "update" or said is None or _NOT_SAME_RE.search(text):
        return False
    event = ctx.event(write.event_id)
    if event is None or not event.location:
        return False
    now, written = normalize_place(event.location), normalize_place(location)
    if written == now:
        return True
    if set(re.findall(r"[a-z0-9]{3,}", now.split(",")[0])) & set(re.findall(r"[a-z0-9]{3,}", written.split(",")[0])) \
            and not _other_street(now, written):
        return False  # "same place, room 204": the same place said more fully is not proven another
    # (only the first part of each is compared, the name or the street: two addresses in one
    # town share the town's name and its postcode)
    ctx.error(write, "location", f"the person said '{said.group(0)}' (where it is now: {event.location}); "
              f"the call writes '{location}'", f"keep the location {event.location}", said.group(0),
              proof={"phrase": said.group(0), "kept": event.location, "written": location})
    return True


STREET_ADDRESS_RE = re.compile(
    r"\b(?P<address>\d{1,5}[a-z]?\s+(?:[a-z][a-z'.-]*\s+){1,3}(?:road|rd|street|st|avenue|ave|lane|ln|drive|dr|"
    r"way|boulevard|blvd|court|ct|place|pl|terrace|close|crescent|parkway|pkwy|highway|hwy|square|sq|"
    r"strasse|stra\u00dfe|str|weg|gasse|platz|allee))\b\.?", re.I)


def _street_address_named(text: str, home: str | None) -> str | None:
    """"oscar's party at 22 oak road": a street address the message gives (a number, a street
    name and its kind) that is not the home address (its number or its street's name differ)."""
    home_words = set(re.findall(r"[a-z0-9]+", normalize_place(home or "")))
    for match in STREET_ADDRESS_RE.finditer(text):
        address = match["address"]
        words = re.findall(r"[a-z0-9]+", normalize_place(address))
        if not words or not set(words[:-1]) <= home_words:
            return address
    return None


def _named_in_message(query: str, text: str) -> bool:
    words = [w for w in re.findall(r"[a-z0-9']+", query.casefold()) if len(w) > 2]
    said = normalize_place(text)
    return bool(words) and all(w in said for w in words)


def check_location_lookups(ctx: CheckContext) -> None:
    """`get_location_info` for "home" must return the home, not a business (and the reverse)."""
    for index, call in enumerate(ctx.case.tool_calls):
        if ctx.case.catalog.guard_kind(call.name) != "place_lookup":
            continue
        query = str(call.input.get("query") or "")
        result = call.result if isinstance(call.result, dict) else {}
        kind = result.get("kind")
        if business_with_home_word(query) and kind == "home":
            ctx.error(index, "location", f"'{query}' is a business, but the lookup returned the home",
                      f"look up '{query}' as a business", query)
        elif (home_phrase(query) or normalize_place(query) in ("home", "my place", "our place")) \
                and kind == "business":
            ctx.error(index, "location", f"'{query}' means the person's home, but the lookup returned a "
                      f"business ({result.get('name') or result.get('address')})",
                      f"use the home address {ctx.case.home_address}", query)
        elif kind == "business" and _named_in_message(query, ctx.reading.text):
            continue  # the business the person named, looked up by its name
        elif kind not in ("home", "saved"):
            ctx.unsure(index, "the place found is not a saved place")
