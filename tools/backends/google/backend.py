"""Google Calendar as a `CalendarBackend`, on google-api-python-client with static discovery.

What makes it safe to journal and roll back:
- creates use an id chosen before the call (base32hex) and record the turn id in a private
  extended property, so a create retried after a lost response is recognised (409 -> read back,
  ours -> success) and never duplicated;
- patches, deletes and restores carry `If-Match` with the etag, so a concurrent edit turns into
  `VersionConflict` and the other person's change is kept;
- a snapshot is the raw Google resource and `restore` sends it back whole with `events.update`,
  which also un-cancels a deleted event under the same id;
- transient failures (403 rate limits, 429, 5xx, dropped connections) are retried with
  exponential backoff and jitter, and a write whose reply was lost is read back before it is
  repeated, because a blind repeat of a conditional write would fail against its own success.

HTTP goes through a small httpx transport instead of httplib2: httplib2 silently re-sends a
request (even a POST or a conditional PATCH) when the connection drops before the reply, which
would turn our own applied write into a false 412. Here every retry is a decision made above.
"""
from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import httplib2
import httpx
from googleapiclient.discovery import build
from googleapiclient.errors import HttpError
from googleapiclient.http import HttpRequest

from tools.backends.base import (
    CalendarBackend,
    CalendarError,
    EventNotFound,
    EventPatch,
    PatchItem,
    Snapshot,
    VersionConflict,
)
from tools.backends.errors import LOG, service_error
from tools.backends.google.auth import TOKEN_FILENAME, TokenManager
from tools.backends.google.events import (
    event_body,
    event_from_google,
    id_problem,
    new_event_id,
    patch_body,
    split_instance_id,
    turn_of,
    update_body,
)
from tools.calendar.events import CalendarInfo, Event, EventFieldError
from tools.calendar.free_time import FreeBusy, Interval, merge
from tools.calendar.patching import apply_patch, check_times, same_outcome

GOOGLE_API_ENDPOINT = "https://www.googleapis.com/calendar/v3/"
RATE_LIMIT_REASONS = frozenset({"rateLimitExceeded", "userRateLimitExceeded"})
RETRYABLE_STATUSES = frozenset({429, 500, 502, 503, 504})

T = TypeVar("T")


# ---------------------------------------------------------------------- transport
class RequestNotSent(ConnectionError):
    """The connection failed before the request went out: repeating it is always safe."""


class ResponseLost(ConnectionError):
    """The request may have reached the server but no reply came back: it may have been applied."""


class HttpxTransport:
    """The `http` object googleapiclient calls (`request(uri, method, body, headers)`), on httpx.

    No hidden retries; adds the bearer token and, on a 401, refreshes once and resends (a 401
    means the request was rejected, so resending cannot apply it twice).
    """

    def __init__(self, tokens: TokenManager | None, *, timeout: float = 30.0,
                 client: httpx.Client | None = None) -> None:
        self._tokens = tokens
        self._client = client or httpx.Client(timeout=timeout, follow_redirects=False)

    def request(self, uri: str, method: str = "GET", body: Any = None,
                headers: dict[str, str] | None = None, redirections: int = 5,
                connection_type: Any = None) -> tuple[httplib2.Response, bytes]:
        response = self._send(uri, method, body, headers)
        if response.status_code == 401 and self._tokens is not None:
            sent = response.request.headers.get("authorization")
            self._tokens.force_refresh(sent)
            response = self._send(uri, method, body, headers)
        info: dict[str, Any] = dict(response.headers)
        info["status"] = str(response.status_code)
        resp = httplib2.Response(info)
        resp.reason = response.reason_phrase
        return resp, response.content

    def _send(self, uri: str, method: str, body: Any, headers: dict[str, str] | None) -> httpx.Response:
        out = {k: v for k, v in (headers or {}).items() if k.lower() != "content-length"}
        if self._tokens is not None:
            out["authorization"] = self._tokens.authorization()
        try:
            return self._client.request(method, uri, content=body, headers=out)
        except (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout) as exc:
            raise RequestNotSent(f"cannot connect to {uri}: {exc}") from exc
        except httpx.HTTPError as exc:
            raise ResponseLost(f"no reply from {uri}: {exc}") from exc

    def close(self) -> None:
        self._client.close()


# ---------------------------------------------------------------------- errors
@dataclass
class ApiFailure(Exception):
    """A final error answer from the API (after retries), with what is known about earlier tries."""

    status: int
    reason: str
    message: str
    uncertain: bool = False  # an earlier attempt may have applied the write

    def __str__(self) -> str:
        return f"Google Calendar error {self.status} ({self.reason}): {self.message}"


def _error_info(exc: HttpError) -> tuple[int, str, str]:
    status = int(exc.resp.status)
    reason, message = "", str(getattr(exc, "reason", "") or "")
    try:
        data = json.loads(exc.content.decode("utf-8") if isinstance(exc.content, bytes) else exc.content)
        error = data.get("error", {})
        if isinstance(error, dict):
            message = error.get("message") or message
            errors = error.get("errors") or []
            if errors and isinstance(errors[0], dict):
                reason = errors[0].get("reason") or ""
        elif isinstance(error, str):
            reason = error
    except (ValueError, AttributeError, UnicodeDecodeError):
        pass
    return status, reason, message


def api_error(exc: ApiFailure) -> CalendarError:
    """A final error answer in words: a refused sign-in says so; otherwise Google's own message
    (written for people), with the status and reason codes kept for the log."""
    if exc.status in (401,) or exc.reason in ("authError", "unauthorized"):
        return service_error("google", exc, "sign in")
    LOG.warning("Google Calendar answered %s", exc)
    message = exc.message.strip().rstrip(".") or "no reason given"
    return CalendarError(f"Google Calendar refused this: {message}")


def is_retryable(status: int, reason: str) -> bool:
    return status in RETRYABLE_STATUSES or (status == 403 and reason in RATE_LIMIT_REASONS)


_NOT_YET = object()


class GoogleBackend(CalendarBackend):
    """One Google account; `calendar_id` is the calendar the app works on ("primary" by default)."""

    name = "google"

    def __init__(self, tokens: TokenManager | None, *, api_endpoint: str | None = None,
                 calendar_id: str = "primary", default_timezone: str | None = None,
                 sleep: Callable[[float], None] = time.sleep, max_attempts: int = 5,
                 base_delay: float = 0.5, max_delay: float = 32.0,
                 rng: random.Random | None = None, timeout: float = 30.0,
                 transport: HttpxTransport | None = None, page_size: int = 250) -> None:
        self.api_endpoint = _with_slash(api_endpoint or GOOGLE_API_ENDPOINT)
        self.calendar_id = calendar_id
        self.default_timezone = default_timezone
        self.tokens = tokens
        self.sleep = sleep
        self.max_attempts = max(1, max_attempts)
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.rng = rng or random.Random()
        self.page_size = page_size
        self.http = transport or HttpxTransport(tokens, timeout=timeout)
        self.service = build("calendar", "v3", http=self.http, static_discovery=True,
                             cache_discovery=False,
                             client_options={"api_endpoint": self.api_endpoint})
        self._zones: dict[str, str] = {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ plumbing
    def _backoff(self, attempt: int, retry_after: float | None = None) -> None:
        """Exponential backoff with jitter: base * 2^(n-1), capped, plus up to one base of noise."""
        delay = min(self.max_delay, self.base_delay * (2 ** (attempt - 1)))
        delay += self.rng.uniform(0, self.base_delay)
        if retry_after is not None:
            delay = max(delay, min(self.max_delay, retry_after))
        self.sleep(delay)

    def _execute(self, make: Callable[[], HttpRequest], *,
                 on_lost: Callable[[], Any] | None = None) -> Any:
        """Run one API call with retries; `on_lost` reads back after a possibly-applied write and
        returns the result to use, or `_NOT_YET` when the write did not happen (then it is retried).
        """
        uncertain = False
        attempt = 0
        while True:
            attempt += 1
            try:
                return make().execute(num_retries=0)
            except HttpError as exc:
                status, reason, message = _error_info(exc)
                if is_retryable(status, reason) and attempt < self.max_attempts:
                    uncertain = uncertain or status >= 500
                    retry_after = _retry_after(exc)
                    self._backoff(attempt, retry_after)
                    continue
                raise ApiFailure(status, reason, message, uncertain) from exc
            except RequestNotSent as exc:
                if attempt < self.max_attempts:
                    self._backoff(attempt)
                    continue
                raise service_error("google", exc, "answer") from exc
            except ResponseLost as exc:
                uncertain = True
                if on_lost is not None:
                    outcome = on_lost()
                    if outcome is not _NOT_YET:
                        return outcome
                if attempt < self.max_attempts:
                    self._backoff(attempt)
                    continue
                raise service_error("google", exc, "answer") from exc

    @property
    def _events(self) -> Any:
        return self.service.events()

    def _raw_get(self, calendar_id: str, event_id: str) -> dict[str, Any] | None:
        """The resource as stored (cancelled ones included), or None when Google has no such id."""
        try:
            found: dict[str, Any] = self._execute(
                lambda: self._events.get(calendarId=calendar_id, eventId=event_id))
        except ApiFailure as exc:
            if exc.status in (404, 410):
                return None
            raise api_error(exc) from exc
        return found

    def _zone(self, calendar_id: str) -> str:
        """The calendar's zone (all-day events have none of their own); fetched once."""
        if self.default_timezone:
            return self.default_timezone
        with self._lock:
            cached = self._zones.get(calendar_id)
        if cached:
            return cached
        try:
            entry = self._execute(lambda: self.service.calendarList().get(calendarId=calendar_id))
            zone_name = entry.get("timeZone") or "UTC"
        except ApiFailure:  # no calendarList access: all-day events fall back to UTC
            zone_name = "UTC"
        with self._lock:
            self._zones[calendar_id] = zone_name
        return zone_name

    def _to_event(self, calendar_id: str, resource: dict[str, Any]) -> Event:
        return event_from_google(resource, calendar_id, self._zone(calendar_id))

    @staticmethod
    def _send_updates(send_updates: bool) -> str:
        return "all" if send_updates else "none"

    def _conditional(self, request: HttpRequest, if_match: str | None) -> HttpRequest:
        if if_match is not None:
            request.headers["If-Match"] = if_match
        return request

    def _actual_version(self, calendar_id: str, event_id: str) -> str | None:
        current = self._raw_get(calendar_id, event_id)
        return current.get("etag") if current else None

    # ------------------------------------------------------------------ calendars
    def calendars(self) -> list[CalendarInfo]:
        out: list[CalendarInfo] = []
        token: str | None = None
        while True:
            request = partial(self.service.calendarList().list, pageToken=token,
                              maxResults=self.page_size)
            page = self._wrap(partial(self._execute, request))
            for item in page.get("items", []):
                out.append(CalendarInfo(item["id"], item.get("summaryOverride") or item.get("summary") or item["id"],
                                        bool(item.get("primary")), item.get("timeZone"),
                                        {"accessRole": item.get("accessRole")}))
                if item.get("timeZone"):
                    self._zones.setdefault(item["id"], item["timeZone"])
                    if item.get("primary"):
                        self._zones.setdefault("primary", item["timeZone"])
            token = page.get("nextPageToken")
            if not token:
                return out

    def primary_calendar_id(self) -> str:
        return self.calendar_id

    def add_calendar(self, calendar_id: str, name: str,
                     timezone: str | None = None) -> CalendarInfo:
        """A new secondary calendar (calendars.insert). Google names calendars itself, so
        `calendar_id` is only looked up first: an existing calendar is returned as it is."""
        for info in self.calendars():
            if info.id == calendar_id:
                return info
        body: dict[str, Any] = {"summary": name}
        if timezone:
            body["timeZone"] = timezone
        made = self._wrap(lambda: self._execute(lambda: self.service.calendars().insert(body=body)))
        return CalendarInfo(made["id"], made.get("summary") or name, False, made.get("timeZone"))

    @staticmethod
    def _wrap(call: Callable[[], T]) -> T:
        try:
            return call()
        except ApiFailure as exc:
            raise api_error(exc) from exc

    # ------------------------------------------------------------------ reading
    def list_events(self, calendar_id: str, start: datetime, end: datetime,
                    query: str | None = None) -> list[Event]:
        start, end = _aware(start), _aware(end)
        events: list[Event] = []
        token: str | None = None
        while True:
            request = partial(self._events.list, calendarId=calendar_id,
                              timeMin=start.isoformat(), timeMax=end.isoformat(), q=query or None,
                              singleEvents=True, orderBy="startTime", maxResults=self.page_size,
                              pageToken=token)
            page = self._wrap(partial(self._execute, request))
            if page.get("timeZone"):
                with self._lock:
                    self._zones.setdefault(calendar_id, page["timeZone"])
            for item in page.get("items", []):
                if item.get("status") != "cancelled":
                    events.append(self._to_event(calendar_id, item))
            token = page.get("nextPageToken")
            if not token:
                break
        events.sort(key=lambda e: (e.start_instant, e.id))
        return events

    def skipped_series(self) -> list[Event]:
        """Google expands series itself: a listing never leaves one out."""
        return []

    def free_busy(self, calendar_ids: Sequence[str], start: datetime, end: datetime) -> FreeBusy:
        """Google's own free/busy query: one request for every calendar, and it works on a
        calendar shared as "see only free/busy", where listing events is refused. Google's
        answer honours each event's "Show as free" mark; an all-day event marked busy counts
        as busy here (events the local backend reads never block time when all-day). A calendar
        Google answers with `errors` (not found, no access, a backend failure), or leaves out,
        is unreadable; when the whole query fails, every calendar is."""
        wanted = list(dict.fromkeys(calendar_ids))
        body = {"timeMin": _aware(start).isoformat(), "timeMax": _aware(end).isoformat(),
                "items": [{"id": c} for c in wanted]}
        try:
            answer = self._execute(lambda: self.service.freebusy().query(body=body))
        except (ApiFailure, CalendarError) as exc:
            said = str(api_error(exc)) if isinstance(exc, ApiFailure) else str(exc)
            return FreeBusy({}, {c: said for c in wanted})
        found = answer.get("calendars") or {}
        busy: dict[str, tuple[Interval, ...]] = {}
        unreadable: dict[str, str] = {}
        for calendar_id in wanted:
            entry = found.get(calendar_id)
            if not isinstance(entry, dict):
                unreadable[calendar_id] = "Google gave no free/busy answer for it"
            elif entry.get("errors"):
                unreadable[calendar_id] = ", ".join(
                    str(e.get("reason") or "error") for e in entry["errors"] if isinstance(e, dict)
                ) or "Google could not read it"
            else:
                busy[calendar_id] = tuple(merge(
                    (_instant(b["start"]), _instant(b["end"])) for b in entry.get("busy") or []))
        return FreeBusy(busy, unreadable)

    def instances(self, calendar_id: str, series_id: str, start: datetime | None = None,
                  end: datetime | None = None) -> list[Event]:
        """The occurrences of one recurring series (events.instances)."""
        out: list[Event] = []
        token: str | None = None
        while True:
            try:
                page = self._execute(partial(
                    self._events.instances, calendarId=calendar_id, eventId=series_id,
                    timeMin=start.isoformat() if start else None,
                    timeMax=end.isoformat() if end else None, maxResults=self.page_size,
                    pageToken=token))
            except ApiFailure as exc:
                if exc.status in (404, 410):
                    raise EventNotFound(series_id) from exc
                raise api_error(exc) from exc
            out.extend(self._to_event(calendar_id, i) for i in page.get("items", [])
                       if i.get("status") != "cancelled")
            token = page.get("nextPageToken")
            if not token:
                return out

    def get_event(self, calendar_id: str, event_id: str) -> Event | None:
        if id_problem(event_id):
            return None
        resource = self._raw_get(calendar_id, event_id)
        if resource is None or resource.get("status") == "cancelled":
            return None
        return self._to_event(calendar_id, resource)

    # ------------------------------------------------------------------ ids
    def new_event_id(self) -> str:
        return new_event_id()

    def id_problem(self, event_id: str) -> str | None:
        return id_problem(event_id)

    # ------------------------------------------------------------------ writing
    def create_event(self, calendar_id: str, event: Event, *, turn_id: str | None = None,
                     send_updates: bool = False) -> Event:
        event_id = event.id or self.new_event_id()
        problem = id_problem(event_id)
        if problem or split_instance_id(event_id):
            raise EventFieldError("id", problem or f"{event_id!r} names an occurrence; "
                                  "occurrences cannot be created")
        check_times(event)
        body = event_body(event, turn_id=turn_id)
        body["id"] = event_id
        try:
            created = self._execute(lambda: self._events.insert(
                calendarId=calendar_id, body=body, sendUpdates=self._send_updates(send_updates)))
        except ApiFailure as exc:
            if exc.status == 409:
                existing = self._raw_get(calendar_id, event_id)
                if (existing is not None and turn_id and turn_of(existing) == turn_id
                        and existing.get("status") != "cancelled"):
                    return self._to_event(calendar_id, existing)  # our own create, retried
                raise CalendarError(f"an event with id {event_id!r} already exists") from exc
            if exc.status == 400:
                raise CalendarError(f"Google rejected the event: {exc.message}") from exc
            raise api_error(exc) from exc
        return self._to_event(calendar_id, created)

    def patch_event(self, calendar_id: str, event_id: str, patch: EventPatch, *,
                    if_match: str | None = None, send_updates: bool = False) -> Event:
        problem = id_problem(event_id)
        if problem:
            raise EventNotFound(event_id)
        current = self._raw_get(calendar_id, event_id)
        if current is None or current.get("status") == "cancelled":
            raise EventNotFound(event_id)
        # No local etag check: If-Match goes to the server, which alone decides (and races).
        before = self._to_event(calendar_id, current)
        wanted = apply_patch(before, patch)
        body = patch_body(current, before, wanted)
        if not body:  # nothing to send; still honour the version check like a real write would
            if if_match is not None and current.get("etag") != if_match:
                raise VersionConflict(event_id, if_match, current.get("etag"))
            return before
        fields = set(patch.fields)

        def read_back() -> Any:
            got = self._raw_get(calendar_id, event_id)
            if got is not None and got.get("status") != "cancelled" and same_outcome(
                    wanted, self._to_event(calendar_id, got), fields):
                return got
            return _NOT_YET

        try:
            result = self._execute(lambda: self._conditional(self._events.patch(
                calendarId=calendar_id, eventId=event_id, body=body,
                sendUpdates=self._send_updates(send_updates)), if_match), on_lost=read_back)
        except ApiFailure as exc:
            result = self._write_failure(exc, calendar_id, event_id, if_match, read_back)
        return self._to_event(calendar_id, result)

    def patch_events(self, calendar_id: str, items: Sequence[PatchItem], *,
                     send_updates: bool = False) -> list[Event]:
        """One conditional patch after another. Google has no transaction (a batch request
        applies each part on its own), so a failure leaves the earlier items written: the
        caller's journal entries undo them."""
        return [self.patch_event(calendar_id, item.event_id, item.patch, if_match=item.if_match,
                                 send_updates=send_updates) for item in items]

    def _write_failure(self, exc: ApiFailure, calendar_id: str, event_id: str,
                       if_match: str | None, read_back: Callable[[], Any]) -> Any:
        """Map a failed conditional write; a 412/410 after an uncertain attempt may be our own
        earlier success, so that is read back before anyone is told about a conflict."""
        if exc.uncertain and exc.status in (410, 412):
            outcome = read_back()
            if outcome is not _NOT_YET:
                return outcome
        if exc.status == 412:
            raise VersionConflict(event_id, if_match, self._actual_version(calendar_id, event_id)) from exc
        if exc.status in (404, 410):
            raise EventNotFound(event_id) from exc
        if exc.status == 400:
            raise CalendarError(f"Google rejected the change to {event_id!r}: {exc.message}") from exc
        raise api_error(exc) from exc

    def delete_event(self, calendar_id: str, event_id: str, *, if_match: str | None = None,
                     send_updates: bool = False) -> None:
        if id_problem(event_id):
            raise EventNotFound(event_id)

        def read_back() -> Any:
            got = self._raw_get(calendar_id, event_id)
            return True if got is None or got.get("status") == "cancelled" else _NOT_YET

        try:
            self._execute(lambda: self._conditional(self._events.delete(
                calendarId=calendar_id, eventId=event_id,
                sendUpdates=self._send_updates(send_updates)), if_match), on_lost=read_back)
        except ApiFailure as exc:
            self._write_failure(exc, calendar_id, event_id, if_match, read_back)

    def upsert_event(self, calendar_id: str, event: Event, *, turn_id: str | None = None) -> Event:
        """Write `event` under its id whatever is there (replay seeding): update if the id is
        taken, cancelled or not, else insert. No notifications."""
        existing = self._raw_get(calendar_id, event.id)
        if existing is None:
            return self.create_event(calendar_id, event, turn_id=turn_id)
        check_times(event)
        body = event_body(event, existing=existing, turn_id=turn_id)
        body["status"] = "confirmed"
        try:
            updated = self._execute(lambda: self._events.update(
                calendarId=calendar_id, eventId=event.id, body=body, sendUpdates="none"))
        except ApiFailure as exc:
            raise api_error(exc) from exc
        return self._to_event(calendar_id, updated)

    # ------------------------------------------------------------------ journal support
    def snapshot(self, calendar_id: str, event_id: str) -> Snapshot:
        if id_problem(event_id):
            return Snapshot(calendar_id, event_id, None, None)
        resource = self._raw_get(calendar_id, event_id)
        if resource is None:
            return Snapshot(calendar_id, event_id, None, None)
        if resource.get("status") == "cancelled":
            return Snapshot(calendar_id, event_id, None, resource.get("etag"))
        return Snapshot(calendar_id, event_id, resource, resource.get("etag"))

    def restore(self, snapshot: Snapshot, *, expected_version: str | None) -> Snapshot:
        calendar_id, event_id = snapshot.calendar_id, snapshot.event_id
        current = self._raw_get(calendar_id, event_id)
        actual = current.get("etag") if current else None
        if expected_version is not None and actual != expected_version:
            raise VersionConflict(event_id, expected_version, actual)
        guard = expected_version if expected_version is not None else actual
        if snapshot.record is None:
            if current is not None and current.get("status") != "cancelled":
                self.delete_event(calendar_id, event_id, if_match=guard)
            return self.snapshot(calendar_id, event_id)
        body = update_body(snapshot.record)
        body["status"] = snapshot.record.get("status") or "confirmed"

        def read_back() -> Any:
            got = self.snapshot(calendar_id, event_id)
            return got if CalendarBackend.same_content(snapshot, got) else _NOT_YET

        if current is None:
            # Google has no trace of the id (never created there, or purged): insert it again.
            try:
                self._execute(lambda: self._events.insert(calendarId=calendar_id, body=body,
                                                          sendUpdates="none"), on_lost=read_back)
            except ApiFailure as exc:
                if exc.status != 409 or read_back() is _NOT_YET:
                    raise CalendarError(f"{event_id} could not be restored: {api_error(exc)}") from exc
            return self.snapshot(calendar_id, event_id)
        try:
            self._execute(lambda: self._conditional(self._events.update(
                calendarId=calendar_id, eventId=event_id, body=body, sendUpdates="none"), guard),
                on_lost=read_back)
        except ApiFailure as exc:
            self._write_failure(exc, calendar_id, event_id, guard, read_back)
        return self.snapshot(calendar_id, event_id)

    def close(self) -> None:
        self.http.close()


# ---------------------------------------------------------------------- construction
def _with_slash(url: str) -> str:
    return url if url.endswith("/") else url + "/"


def backend_from_settings(home_dir: Path | str, *, api_endpoint: str | None = None,
                          token_uri: str | None = None, calendar_id: str | None = None,
                          token_file: str = TOKEN_FILENAME, **options: Any) -> GoogleBackend:
    """A backend signed in with the token stored in `home_dir` (raises LoginRequired without
    one); `token_file`: the file of one account of several (`auth.account_token_file`)."""
    tokens = TokenManager.from_home(home_dir, token_uri=token_uri, token_file=token_file)
    return GoogleBackend(tokens, api_endpoint=api_endpoint, calendar_id=calendar_id or "primary",
                         **options)


def _aware(value: datetime) -> datetime:
    """Google needs an offset on timeMin/timeMax; a naive bound is taken as UTC."""
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _instant(text: str) -> datetime:
    """An RFC 3339 instant from Google (`Z` or an offset)."""
    return _aware(datetime.fromisoformat(text))


def _retry_after(exc: HttpError) -> float | None:
    value = exc.resp.get("retry-after") if exc.resp is not None else None
    try:
        return float(value) if value is not None else None
    except (TypeError, ValueError):
        return None
