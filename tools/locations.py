"""Places: the person's saved places first, a real geocoder only when they turned it on.

Every answer says its kind (`home`, `saved`, `business`, `unknown`) because the guard's cheapest
catch is "the person said home and the call wrote a business": the kind is what makes that
checkable in code.
"""
from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, Protocol

HOME_PHRASES = ("home", "my place", "our place", "our house", "my house", "my home", "our home",
                "the house", "at home", "at my place", "at our place", "at our house", "back home")
_ARTICLE_RE = re.compile(r"^(?:at|to|the)\s+", re.I)


def normalize_place(text: str) -> str:
    text = re.sub(r"\s+", " ", str(text).strip().casefold()).strip(" .,!?")
    return text


def is_home_phrase(text: str) -> bool:
    """Whether the words, on their own, name the person's home."""
    norm = normalize_place(text)
    return norm in HOME_PHRASES or _ARTICLE_RE.sub("", norm) in HOME_PHRASES


@dataclass(frozen=True)
class Place:
    kind: str  # home | saved | business | unknown
    name: str
    address: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class GeocoderError(Exception):
    """The geocoder could not answer (network down, rate limited, bad reply)."""


class Geocoder(Protocol):
    def search(self, query: str, limit: int = 5) -> list[Place]: ...


class NominatimGeocoder:
    """OpenStreetMap Nominatim over httpx, within its usage policy.

    The policy asks for an identifying User-Agent, at most one request a second, and caching of
    results; all three are done here. Off by default: the person turns it on in the config.
    `clock` and `sleep` space the requests (a test hands in a clock that only moves when slept
    on, to see the wait asked for without waiting).
    """

    def __init__(self, user_agent: str, base_url: str = "https://nominatim.openstreetmap.org",
                 timeout: float = 10.0, min_interval: float = 1.0, *,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        import httpx

        if not user_agent or "calendar-assistant" not in user_agent:
            user_agent = f"calendar-assistant/0.1 ({user_agent or 'no contact given'})"
        self._client = httpx.Client(base_url=base_url, timeout=timeout,
                                    headers={"User-Agent": user_agent})
        self._min_interval = min_interval
        self._clock, self._sleep = clock, sleep
        self._last = 0.0
        self._lock = threading.Lock()
        self._cache: dict[tuple[str, int], list[Place]] = {}

    def search(self, query: str, limit: int = 5) -> list[Place]:
        import httpx

        key = (normalize_place(query), limit)
        if key in self._cache:
            return self._cache[key]
        with self._lock:
            wait = self._min_interval - (self._clock() - self._last)
            if wait > 0:
                self._sleep(wait)
            try:
                response = self._client.get("/search", params={"q": query, "format": "jsonv2",
                                                                "limit": limit, "addressdetails": 0})
                response.raise_for_status()
                rows = response.json()
            except (httpx.HTTPError, ValueError) as exc:
                raise GeocoderError(f"the place search failed: {exc}") from exc
            finally:
                self._last = self._clock()
        places = []
        for row in rows if isinstance(rows, list) else []:
            display = str(row.get("display_name") or "")
            name = str(row.get("name") or display.split(",")[0])
            category = str(row.get("category") or row.get("class") or "")
            kind = "business" if category in {"shop", "amenity", "leisure", "tourism", "office",
                                              "craft", "healthcare"} else "unknown"
            places.append(Place(kind, name, display))
        self._cache[key] = places
        return places


class LocationService:
    """Answers the location tools and rewrites saved-place names into addresses."""

    def __init__(self, home_address: str | None, places: dict[str, str] | None = None,
                 geocoder: Geocoder | None = None) -> None:
        self.home_address = (home_address or "").strip() or None
        self.places = {normalize_place(k): v for k, v in (places or {}).items()}
        self._names = {normalize_place(k): k for k in (places or {})}
        self.geocoder = geocoder

    def saved(self, text: str) -> Place | None:
        """The saved place these words name, if any ("home", "grandma's")."""
        if is_home_phrase(text):
            if self.home_address:
                return Place("home", "Home", self.home_address)
            return None
        norm = _ARTICLE_RE.sub("", normalize_place(text))
        for key in (normalize_place(text), norm):
            if key in self.places:
                return Place("saved", self._names[key], self.places[key])
        return None

    def info(self, query: str) -> Place:
        saved = self.saved(query)
        if saved:
            return saved
        if is_home_phrase(query):
            return Place("unknown", query, "")  # home with no home address set: say so
        if self.geocoder is not None:
            found = self.geocoder.search(query, limit=1)
            if found:
                return found[0]
        return Place("unknown", query, query)

    def suggestions(self, query: str, limit: int = 5) -> list[Place]:
        out: list[Place] = []
        saved = self.saved(query)
        if saved:
            out.append(saved)
        norm = normalize_place(query)
        for key, address in self.places.items():
            if norm and norm in key and all(p.address != address for p in out):
                out.append(Place("saved", self._names[key], address))
        if self.geocoder is not None and not is_home_phrase(query):
            out.extend(self.geocoder.search(query, limit=limit))
        return out[:limit]

    def written_location(self, location: str | None) -> str | None:
        """What is stored for a location: a saved place's address, anything else as given."""
        if location is None:
            return None
        saved = self.saved(location)
        return saved.address if saved else location
