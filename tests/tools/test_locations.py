"""Places: saved places first; the Nominatim geocoder over httpx within its usage policy
(identifying User-Agent, one request a second, cached), here against a local stand-in server."""
from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tools.locations import GeocoderError, LocationService, NominatimGeocoder, is_home_phrase


class _Nominatim(BaseHTTPRequestHandler):
    seen: list[tuple[float, str, str]] = []
    status = 200

    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        type(self).seen.append((time.monotonic(), self.path, self.headers.get("User-Agent", "")))
        body = json.dumps([{"name": "Home Depot", "display_name": "Home Depot, 1200 Main St, Springfield",
                            "category": "shop"},
                           {"name": "Main St", "display_name": "Main St, Springfield", "category": "highway"}])
        self.send_response(type(self).status)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, *args: Any) -> None:
        return None


@pytest.fixture
def nominatim() -> Iterator[str]:
    _Nominatim.seen = []
    _Nominatim.status = 200
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Nominatim)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_results_carry_kinds_and_an_identifying_user_agent(nominatim: str) -> None:
    geo = NominatimGeocoder("family-calendar (me@example.com)", base_url=nominatim, min_interval=0.2)
    places = geo.search("home depot springfield")
    assert [p.kind for p in places] == ["business", "unknown"]
    assert "calendar-assistant" in _Nominatim.seen[0][2] and "me@example.com" in _Nominatim.seen[0][2]
    assert "format=jsonv2" in _Nominatim.seen[0][1]


def test_results_are_cached_and_requests_spaced(nominatim: str) -> None:
    """One request a second: the geocoder waits out the rest of the interval before the next
    request (a fake clock stands still, so the whole interval is waited; no wall-clock timing)."""
    clock = {"now": 1000.0}
    waited: list[float] = []

    def sleep(seconds: float) -> None:
        waited.append(seconds)
        clock["now"] += seconds

    geo = NominatimGeocoder("calendar-assistant test", base_url=nominatim, min_interval=0.2,
                            clock=lambda: clock["now"], sleep=sleep)
    geo.search("library")
    geo.search("library")
    assert waited == [] and len(_Nominatim.seen) == 1  # the second one came from the cache
    geo.search("pool")
    assert len(_Nominatim.seen) == 2 and waited == [pytest.approx(0.2)]
    clock["now"] += 5
    geo.search("park")  # long after the last request: no wait
    assert len(waited) == 1 and len(_Nominatim.seen) == 3


def test_a_failing_geocoder_is_a_clear_error(nominatim: str) -> None:
    _Nominatim.status = 503
    geo = NominatimGeocoder("calendar-assistant test", base_url=nominatim, min_interval=0.0)
    with pytest.raises(GeocoderError, match="place search failed"):
        geo.search("anything")


def test_home_words_name_the_home_address_never_a_business(nominatim: str) -> None:
    service = LocationService("77 Cedar Ln", {"Grandma's": "9 Willow Ln"},
                              NominatimGeocoder("calendar-assistant test", base_url=nominatim, min_interval=0))
    for words in ("home", "my place", "our house", "at home"):
        assert is_home_phrase(words)
        place = service.info(words)
        assert (place.kind, place.address) == ("home", "77 Cedar Ln")
    assert _Nominatim.seen == []  # home never goes to the geocoder
    assert service.info("grandma's").kind == "saved"
    assert service.written_location("home") == "77 Cedar Ln"
    assert service.written_location("Home Depot") == "Home Depot"
    assert service.info("Home Depot").kind == "business"
