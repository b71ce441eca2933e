"""Word tables and regex fragments shared by the date/time resolver (reflection.dates.resolver).

Data only (plus the two number-word readers): the rules in rules_* build their patterns
from these fragments, so a word is added in one place and every rule that needs it sees it."""
from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta

from dateutil.easter import easter

from tools.calendar.wording import WEEKDAYS as SPELLED_WEEKDAYS

WEEKDAYS = {
    "monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2, "weds": 2,
    "thursday": 3, "thu": 3, "thur": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5,
    "sunday": 6, "sun": 6,
}
WEEKDAY_NAMES = SPELLED_WEEKDAYS  # the one spelling of the days, by date.weekday()
RRULE_DAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
# abbreviations that are also ordinary English words: need date context
WEAK_WEEKDAY_ABBR = {"sat", "sun", "wed"}

MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
    "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9,
    "sept": 9, "sep": 9, "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}
MONTH_NAMES = ("", "January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December")

UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
         "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
         "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
         "nineteen": 19}
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
        "ninety": 90}
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
            "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
            "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
            "nineteenth": 19, "twentieth": 20, "thirtieth": 30}

# --- regex fragments (used with re.IGNORECASE) ---
_UNIT_W = "one|two|three|four|five|six|seven|eight|nine"
_TEEN_W = "ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
NUMW = (rf"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[\s-](?:{_UNIT_W})\b)?"
        rf"|(?:{_TEEN_W})|(?:{_UNIT_W}))\b")
ORDW = (r"(?:(?:twenty|thirty)[\s-](?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)"
        r"|twentieth|thirtieth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth"
        r"|seventeenth|eighteenth|nineteenth|first|second|third|fourth|fifth|sixth|seventh|eighth"
        r"|ninth)\b")
HOURW = r"(?:eleven|twelve|one|two|three|four|five|six|seven|eight|nine|ten)\b"
MONTH_RE = (r"(?:january|february|march|april|may|june|july|august|september|october|november|december"
            r"|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)(?:\b|(?=\d))\.?")
WEEKDAY_RE = (r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday"
              r"|mon|tues|tue|weds|wed|thurs|thur|thu|fri|sat|sun)\b\.?")
WEEKDAY_FULL_RE = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
"""A weekday's whole name, for patterns that go on after it ("friday's", "sundays")."""
WEEKDAY_STEM_RE = r"(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*"
"""Any word that begins as a weekday does ("tues", "weds", "thursday", "thurs."), where a short
or long form counts alike."""
# a day of the month: digits with optional suffix, ordinal words, cardinal words
DAY_RE = rf"(?:(?:[0-3]?\d)(?:st|nd|rd|th)?\b|{ORDW}|{NUMW})"
YEARW = (rf"(?:two\s+thousand(?:\s+and)?(?:\s+{NUMW})?"
         rf"|(?:{_TEEN_W}|twenty)\s+hundred(?:\s+and)?(?:\s+{NUMW})?"
         rf"|(?:{_TEEN_W}|twenty)\s+(?:o[\s-](?:{_UNIT_W})\b|{NUMW}))")
AP_RE = r"(?:a\.?\s?m\b\.?|p\.?\s?m\b\.?|(?<=\d)[ap](?![a-z]))"

NAMED_NIGHT_BEFORE_RE = re.compile(
    r"\b(?!(?:today|tomorrow|tmrw|tmr|yesterday|tonight|this|that|last|next|every|each|at|the|one|same|a|on|by|in|"
    r"late|early|all|per|for|and|or|good|whole|sunday|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sun|mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|weeknight|school|work)\b)[a-z]+['\u2019]?s?\s+$", re.I)
"""A word before "night" that makes it a name ("pizza night", "movie night", "game night"), not
a day word ("friday night", "tomorrow night") or a determiner ("that night", "at night")."""


PARTS_OF_DAY: dict[str, tuple[int, int, str]] = {
    # name: (start minutes, end minutes, meridiem hint)
    "morning": (6 * 60, 12 * 60, "am"),
    "afternoon": (12 * 60, 17 * 60, "pm"),
    "evening": (17 * 60, 21 * 60, "pm"),
    "tonight": (17 * 60, 23 * 60 + 59, "pm"),
    "night": (17 * 60, 23 * 60 + 59, "pm"),
    "lunch": (11 * 60 + 30, 13 * 60 + 30, "lunch"),
}

_GREETING_RE = re.compile(r"\bg(?:oo)?d\s+(?:morning|afternoon|evening|night|day)\b", re.I)
_OPENS = re.compile(r"(?:^|[.!?,;:\-\u2014(]|\b(?:hi|hey|hello|and|oh|ok|okay|so))\s*$", re.I)
_CLOSES = re.compile(r"\s*(?:[.!?,;:\-\u2014)]|$)")


def greetings(text: str) -> list[tuple[int, int]]:
    """The spans of 'good morning!', 'hi, good evening', 'gd night': a part of the day said as a
    greeting, never a time. Only where a greeting stands, at the start or after a stop, or with
    a stop after it: in 'is saturday good morning or evening?' the morning is a time."""
    return [(m.start(), m.end()) for m in _GREETING_RE.finditer(text)
            if _OPENS.search(text, 0, m.start()) or _CLOSES.match(text, m.end())]


def in_greeting(text: str, index: int) -> bool:
    """Whether the word at `index` of `text` is part of a greeting (`greetings`)."""
    return any(a <= index < b for a, b in greetings(text))


ZONES: dict[str, str] = {
    "eastern": "America/New_York", "et": "America/New_York", "est": "America/New_York",
    "edt": "America/New_York", "new york": "America/New_York", "boston": "America/New_York",
    "toronto": "America/Toronto",
    "central": "America/Chicago", "ct": "America/Chicago", "cst": "America/Chicago",
    "cdt": "America/Chicago", "chicago": "America/Chicago",
    "mountain": "America/Denver", "mt": "America/Denver", "mst": "America/Denver",
    "mdt": "America/Denver", "denver": "America/Denver",
    "pacific": "America/Los_Angeles", "pt": "America/Los_Angeles", "pst": "America/Los_Angeles",
    "pdt": "America/Los_Angeles", "los angeles": "America/Los_Angeles",
    "san francisco": "America/Los_Angeles", "seattle": "America/Los_Angeles",
    "vancouver": "America/Vancouver",
    "utc": "UTC", "gmt": "UTC", "zulu": "UTC",
    "cet": "Europe/Berlin", "cest": "Europe/Berlin", "central european": "Europe/Berlin",
    "bst": "Europe/London", "london": "Europe/London", "uk": "Europe/London",
    "paris": "Europe/Paris", "berlin": "Europe/Berlin", "madrid": "Europe/Madrid",
    "rome": "Europe/Rome", "amsterdam": "Europe/Amsterdam", "dublin": "Europe/Dublin",
    "ist": "Asia/Kolkata", "india": "Asia/Kolkata", "mumbai": "Asia/Kolkata", "delhi": "Asia/Kolkata",
    "jst": "Asia/Tokyo", "tokyo": "Asia/Tokyo", "singapore": "Asia/Singapore",
    "hong kong": "Asia/Hong_Kong", "sydney": "Australia/Sydney", "aest": "Australia/Sydney",
    "aedt": "Australia/Sydney", "hst": "Pacific/Honolulu", "hawaii": "Pacific/Honolulu",
    "akst": "America/Anchorage", "alaska": "America/Anchorage",
}
# Well-known cities -> IANA zones: "3pm Tokyo time", and "9 her time" when the message names the city.
CITIES: dict[str, str] = {
    "new york": "America/New_York", "nyc": "America/New_York", "boston": "America/New_York",
    "washington": "America/New_York", "miami": "America/New_York", "atlanta": "America/New_York",
    "philadelphia": "America/New_York", "detroit": "America/Detroit", "toronto": "America/Toronto",
    "montreal": "America/Toronto", "chicago": "America/Chicago", "houston": "America/Chicago",
    "dallas": "America/Chicago", "austin": "America/Chicago", "minneapolis": "America/Chicago",
    "mexico city": "America/Mexico_City", "denver": "America/Denver", "phoenix": "America/Phoenix",
    "los angeles": "America/Los_Angeles", "san francisco": "America/Los_Angeles",
    "seattle": "America/Los_Angeles", "portland": "America/Los_Angeles",
    "san diego": "America/Los_Angeles", "las vegas": "America/Los_Angeles",
    "vancouver": "America/Vancouver", "anchorage": "America/Anchorage", "honolulu": "Pacific/Honolulu",
    "sao paulo": "America/Sao_Paulo", "são paulo": "America/Sao_Paulo", "rio": "America/Sao_Paulo",
    "buenos aires": "America/Argentina/Buenos_Aires", "bogota": "America/Bogota", "lima": "America/Lima",
    "santiago": "America/Santiago",
    "london": "Europe/London", "manchester": "Europe/London", "edinburgh": "Europe/London",
    "dublin": "Europe/Dublin", "lisbon": "Europe/Lisbon", "paris": "Europe/Paris",
    "berlin": "Europe/Berlin", "munich": "Europe/Berlin", "frankfurt": "Europe/Berlin",
    "hamburg": "Europe/Berlin", "madrid": "Europe/Madrid", "barcelona": "Europe/Madrid",
    "rome": "Europe/Rome", "milan": "Europe/Rome", "amsterdam": "Europe/Amsterdam",
    "brussels": "Europe/Brussels", "zurich": "Europe/Zurich", "geneva": "Europe/Zurich",
    "vienna": "Europe/Vienna", "prague": "Europe/Prague", "warsaw": "Europe/Warsaw",
    "stockholm": "Europe/Stockholm", "oslo": "Europe/Oslo", "copenhagen": "Europe/Copenhagen",
    "helsinki": "Europe/Helsinki", "athens": "Europe/Athens", "istanbul": "Europe/Istanbul",
    "kyiv": "Europe/Kyiv", "kiev": "Europe/Kyiv", "moscow": "Europe/Moscow",
    "cairo": "Africa/Cairo", "lagos": "Africa/Lagos", "nairobi": "Africa/Nairobi",
    "johannesburg": "Africa/Johannesburg", "cape town": "Africa/Johannesburg",
    "dubai": "Asia/Dubai", "tel aviv": "Asia/Jerusalem", "jerusalem": "Asia/Jerusalem",
    "mumbai": "Asia/Kolkata", "delhi": "Asia/Kolkata", "new delhi": "Asia/Kolkata",
    "bangalore": "Asia/Kolkata", "bengaluru": "Asia/Kolkata", "karachi": "Asia/Karachi",
    "dhaka": "Asia/Dhaka", "bangkok": "Asia/Bangkok", "jakarta": "Asia/Jakarta",
    "singapore": "Asia/Singapore", "kuala lumpur": "Asia/Kuala_Lumpur", "manila": "Asia/Manila",
    "hong kong": "Asia/Hong_Kong", "shanghai": "Asia/Shanghai", "beijing": "Asia/Shanghai",
    "taipei": "Asia/Taipei", "seoul": "Asia/Seoul", "tokyo": "Asia/Tokyo", "osaka": "Asia/Tokyo",
    "perth": "Australia/Perth", "adelaide": "Australia/Adelaide", "brisbane": "Australia/Brisbane",
    "sydney": "Australia/Sydney", "melbourne": "Australia/Melbourne", "auckland": "Pacific/Auckland",
    "wellington": "Pacific/Auckland",
    # more places families call from (issue 22: "in porto at 3 her time")
    "porto": "Europe/Lisbon", "faro": "Europe/Lisbon", "braga": "Europe/Lisbon", "coimbra": "Europe/Lisbon",
    "seville": "Europe/Madrid", "valencia": "Europe/Madrid", "bilbao": "Europe/Madrid", "malaga": "Europe/Madrid",
    "naples": "Europe/Rome", "florence": "Europe/Rome", "venice": "Europe/Rome", "turin": "Europe/Rome",
    "lyon": "Europe/Paris", "marseille": "Europe/Paris", "nice": "Europe/Paris", "cologne": "Europe/Berlin",
    "stuttgart": "Europe/Berlin", "dusseldorf": "Europe/Berlin", "krakow": "Europe/Warsaw",
    "budapest": "Europe/Budapest", "bucharest": "Europe/Bucharest", "sofia": "Europe/Sofia",
    "belgrade": "Europe/Belgrade", "zagreb": "Europe/Zagreb", "reykjavik": "Atlantic/Reykjavik",
    "glasgow": "Europe/London", "birmingham": "Europe/London", "liverpool": "Europe/London",
    "leeds": "Europe/London", "cardiff": "Europe/London", "belfast": "Europe/London", "cork": "Europe/Dublin",
    "goa": "Asia/Kolkata", "chennai": "Asia/Kolkata", "hyderabad": "Asia/Kolkata", "kolkata": "Asia/Kolkata",
    "pune": "Asia/Kolkata", "lahore": "Asia/Karachi", "kathmandu": "Asia/Kathmandu", "colombo": "Asia/Colombo",
    "hanoi": "Asia/Bangkok", "ho chi minh city": "Asia/Ho_Chi_Minh", "saigon": "Asia/Ho_Chi_Minh",
    "kyoto": "Asia/Tokyo", "busan": "Asia/Seoul", "guangzhou": "Asia/Shanghai", "shenzhen": "Asia/Shanghai",
    "doha": "Asia/Qatar", "riyadh": "Asia/Riyadh", "tehran": "Asia/Tehran", "casablanca": "Africa/Casablanca",
    "accra": "Africa/Accra", "addis ababa": "Africa/Addis_Ababa", "durban": "Africa/Johannesburg",
    "guadalajara": "America/Mexico_City", "monterrey": "America/Monterrey", "ottawa": "America/Toronto",
    "calgary": "America/Edmonton", "edmonton": "America/Edmonton", "winnipeg": "America/Winnipeg",
    "halifax": "America/Halifax", "salvador": "America/Bahia", "recife": "America/Recife",
    "belo horizonte": "America/Sao_Paulo", "porto alegre": "America/Sao_Paulo", "curitiba": "America/Sao_Paulo",
    "brasilia": "America/Sao_Paulo", "manaus": "America/Manaus", "montevideo": "America/Montevideo",
    "quito": "America/Guayaquil", "caracas": "America/Caracas", "havana": "America/Havana",
    "san juan": "America/Puerto_Rico", "nashville": "America/Chicago", "new orleans": "America/Chicago",
    "st louis": "America/Chicago", "kansas city": "America/Chicago", "salt lake city": "America/Denver",
    "albuquerque": "America/Denver", "sacramento": "America/Los_Angeles", "san jose": "America/Los_Angeles",
    "tucson": "America/Phoenix", "pittsburgh": "America/New_York", "baltimore": "America/New_York",
    "charlotte": "America/New_York", "orlando": "America/New_York", "tampa": "America/New_York",
    "cleveland": "America/New_York", "indianapolis": "America/Indiana/Indianapolis",
    "canberra": "Australia/Sydney", "hobart": "Australia/Hobart", "darwin": "Australia/Darwin",
    "gold coast": "Australia/Brisbane", "christchurch": "Pacific/Auckland", "fiji": "Pacific/Fiji",
}
ZONES.update(CITIES)
# short names read only before "time" ("2:45 pm LA time"): alone they are too often other words
ZONE_TIME_ONLY: dict[str, str] = {"la": "America/Los_Angeles", "sf": "America/Los_Angeles"}
ZONES.update(ZONE_TIME_ONLY)

# zone words that stand alone after a time (abbreviations and the US regions); cities need "time"
ZONE_ALONE = ["eastern", "central", "mountain", "pacific", "et", "est", "edt", "ct", "cst", "cdt",
              "mt", "mst", "mdt", "pt", "pst", "pdt", "utc", "gmt", "cet", "cest", "bst", "jst",
              "aest", "aedt", "hst", "akst", "ist"]
ZONE_CITY = sorted((k for k in ZONES if k not in ZONE_ALONE), key=len, reverse=True)

_W_RE = re.compile(r"[\s-]+")


def words_to_int(s: str) -> int | None:
    """'twenty nine' -> 29, 'twenty-first' -> 21, '7th' -> 7, '12' -> 12."""
    s = s.lower().strip().rstrip(".")
    m = re.fullmatch(r"(\d+)(?:st|nd|rd|th)?", s)
    if m:
        return int(m.group(1))
    total = 0
    for tok in _W_RE.split(s):
        value = TENS.get(tok, UNITS.get(tok, ORDINALS.get(tok)))
        if value is not None:
            total += value
        elif tok != "and" and tok:
            return None
    return total


def year_words_to_int(s: str) -> int | None:
    """'two thousand and thirty two' -> 2032, 'nineteen eighty six' -> 1986,
    'seventeen hundred thirty three' -> 1733, 'nineteen o five' -> 1905."""
    s = s.lower().strip()
    m = re.fullmatch(r"two\s+thousand(?:\s+and)?(?:\s+(.+))?", s)
    if m:
        rest = words_to_int(m.group(1)) if m.group(1) else 0
        return None if rest is None else 2000 + rest
    m = re.fullmatch(r"(\w+)\s+hundred(?:\s+and)?(?:\s+(.+))?", s)
    if m:
        hi = words_to_int(m.group(1))
        lo = words_to_int(m.group(2)) if m.group(2) else 0
        return None if hi is None or lo is None else hi * 100 + lo
    m = re.fullmatch(r"(\w+)\s+(?:o[\s-])?(.+)", s)
    if m:
        hi, lo = words_to_int(m.group(1)), words_to_int(m.group(2))
        if hi is None or lo is None or lo > 99:
            return None
        return hi * 100 + lo
    return None


# --- holidays: name pattern -> function(year) -> date
HolidayFn = Callable[[int], date]


def nth_weekday(year: int, month: int, wd: int, n: int) -> date:
    """The n-th weekday `wd` (0 = Monday) of a month; n = -1 is the last one."""
    if n > 0:
        d = date(year, month, 1)
        d += timedelta(days=(wd - d.weekday()) % 7)
        return d + timedelta(weeks=n - 1)
    nxt = date(year + (month == 12), month % 12 + 1, 1)
    d = nxt - timedelta(days=1)
    return d - timedelta(days=(d.weekday() - wd) % 7)


def _easter(year: int) -> date:
    d: date = easter(year)
    return d


def _fixed(m: int, d: int) -> HolidayFn:
    return lambda y: date(y, m, d)


def _nth(month: int, wd: int, n: int, shift: int = 0) -> HolidayFn:
    return lambda y: nth_weekday(y, month, wd, n) + timedelta(days=shift)


HOLIDAYS: list[tuple[str, HolidayFn]] = [
    (r"christmas\s+eve|xmas\s+eve", _fixed(12, 24)),
    (r"christmas(?!\s+eve)(?:\s+day)?|xmas(?!\s+eve)", _fixed(12, 25)),
    (r"new\s+year'?s?\s+eve|nye", _fixed(12, 31)),
    (r"new\s+year(?!'?s?\s+eve)'?s?(?:\s+day)?", _fixed(1, 1)),
    (r"independence\s+day|(?:the\s+)?fourth\s+of\s+july|4th\s+of\s+july|july\s+4th", _fixed(7, 4)),
    (r"hall?owe'?en", _fixed(10, 31)),
    (r"valentine'?s?(?:\s+day)?", _fixed(2, 14)),
    (r"(?:saint|st\.?)\s+patrick'?s?(?:\s+day)?", _fixed(3, 17)),
    (r"earth\s+day", _fixed(4, 22)),
    (r"(?:international\s+)?workers'?\s+day|may\s+day", _fixed(5, 1)),
    (r"veterans'?\s+day", _fixed(11, 11)),
    (r"juneteenth", _fixed(6, 19)),
    (r"easter(?!\s+monday)(?:\s+sunday)?", _easter),
    (r"easter\s+monday", lambda y: _easter(y) + timedelta(days=1)),
    (r"good\s+friday", lambda y: _easter(y) - timedelta(days=2)),
    (r"thanksgiving(?:\s+day)?", _nth(11, 3, 4)),
    (r"black\s+friday", _nth(11, 3, 4, shift=1)),
    (r"memorial\s+day", _nth(5, 0, -1)),
    (r"labou?r\s+day", _nth(9, 0, 1)),
    (r"mother'?s'?\s+day", _nth(5, 6, 2)),
    (r"father'?s'?\s+day", _nth(6, 6, 3)),
    (r"(?:mlk|martin\s+luther\s+king(?:\s+jr\.?)?)\s+day", _nth(1, 0, 3)),
    (r"presidents'?\s+day", _nth(2, 0, 3)),
]
HOLIDAY_RES = [(re.compile(p + r"$", re.IGNORECASE), f) for p, f in HOLIDAYS]
HOLIDAY_RE = "(?:" + "|".join(p for p, _ in sorted(HOLIDAYS, key=lambda x: -len(x[0]))) + ")"


def holiday_fn(name: str) -> HolidayFn | None:
    """The date function of a holiday name as written ("Mother's Day", "xmas eve")."""
    name = " ".join(name.lower().replace("\u2019", "'").split())
    for rx, f in HOLIDAY_RES:
        if rx.match(name):
            return f
    return None
