"""A CalDAV calendar (iCloud, Fastmail, Nextcloud, Radicale) behind the backend interface.

CONTRACT section 8. An event's id is its UID; an occurrence is `<uid>_<stamp>` as everywhere
(`tools.calendar.occurrences`). One event or series is one resource holding the series, its RECURRENCE-ID
overrides and EXDATEs (`tools.backends.caldav.series`); its ETag is the version of every id it holds.

- Listing asks the server for the resources overlapping the window, unexpanded (servers disagree
  on expanding), and expands series here with `recurring-ical-events`.
- Every write is a read-modify-write of the resource: it is loaded first (a search result's ETag
  may be stale, an expanded one has none), and sent back with `If-Match` (`If-None-Match: *` for
  a new one); a 412 is a `VersionConflict` the person hears about, never an overwrite.
- Basic auth is sent with the first request (some servers spend a second on each 401 round trip).
"""
from __future__ import annotations

import contextlib
import re
import secrets
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import quote, urljoin

import icalendar
from caldav import DAVClient
from caldav.lib import error as dav_error

from tools.backends.base import (
    CalendarBackend,
    CalendarError,
    EventNotFound,
    EventPatch,
    PatchItem,
    RestoreItem,
    Snapshot,
    VersionConflict,
    WriteRecord,
    strip_volatile,
)
from tools.backends.caldav.series import Series
from tools.backends.errors import LOG, Failure, ServiceFailure, describe, service_error
from tools.calendar.events import CalendarInfo, Event
from tools.calendar.occurrences import instance_parts

ICAL_HEADERS = {"Content-Type": "text/calendar; charset=utf-8"}
DEFAULT_CALENDAR_NAME = "Family"
OWN_ID_BYTES = 8
OWN_ID_RE = re.compile(rf"^ev[0-9a-f]{{{OWN_ID_BYTES * 2}}}$")
"""The UIDs `new_event_id` makes: stored as `<uid>.ics`, so a missing one needs no UID search."""
LISTING_FROM = 2
"""Ids of unknown place from which `get_events` lists the collection's UIDs once rather than
reading them one by one: each would cost a UID search, which the server answers by reading the
whole collection, as the listing does."""
_EVERY_EVENT = (
    '<?xml version="1.0" encoding="utf-8"?>'
    '<C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
    "<D:prop><D:getetag/><C:calendar-data/></D:prop>"
    '<C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"/></C:comp-filter>'
    "</C:filter></C:calendar-query>")
_UNFOLD = re.compile(r"\r?\n[ \t]")


@dataclass
class _Resource:
    """One stored resource: where it is, its version, and what it holds."""

    href: str
    etag: str | None
    series: Series


@dataclass
class _Target:
    """What an event id names: the series itself (stamp None) or one of its occurrences."""

    resource: _Resource
    stamp: str | None


class CalDAVBackend(CalendarBackend):
    """One CalDAV account; calendar ids are the calendars' URLs."""

    name = "caldav"

    def __init__(self, url: str, username: str | None = None, password: str | None = None, *,
                 calendar: str | None = None, default_timezone: str = "UTC",
                 timeout: float = 30.0) -> None:
        self.url = url
        self.default_timezone = default_timezone
        self.client: Any = DAVClient(url, username=username or None, password=password or None,
                                auth_type="basic" if username else None,  # type: ignore[operator]
                                timeout=int(timeout))
        self._wanted_calendar = calendar
        self._primary: str | None = None
        self._calendars: dict[str, Any] = {}
        self._hrefs: dict[tuple[str, str], str] = {}
        self._named: set[tuple[str, str]] = set()
        """UIDs seen stored under their own name (`<uid>.ics`: created here, or read there): a
        404 there means gone, with no UID search of the collection (see `_load`)."""
        self._listing = threading.local()

    # ------------------------------------------------------------------ HTTP
    def _request(self, url: str, method: str, body: bytes | str = "",
                 headers: dict[str, str] | None = None) -> Any:
        try:
            return self.client.request(url, method, body, headers or {})
        except Exception as exc:
            raise service_error("caldav", exc, _DOING.get(method, "answer")) from exc

    @staticmethod
    def _etag(response: Any) -> str | None:
        value = (response.headers or {}).get("etag")
        return str(value) if value else None

    def _principal(self) -> Any:
        try:
            return self.client.principal()
        except Exception as exc:
            raise service_error("caldav", exc, "sign in") from exc

    # ------------------------------------------------------------------ calendars
    def calendars(self) -> list[CalendarInfo]:
        try:
            found = self._principal().calendars()
        except CalendarError:
            raise
        except Exception as exc:
            raise service_error("caldav", exc, "list the calendars") from exc
        infos = []
        for index, cal in enumerate(found):
            url = str(cal.url)
            self._calendars[url] = cal
            try:
                name = cal.get_display_name() or url
            except Exception:  # noqa: BLE001 - a calendar without a name is still a calendar
                name = url
            infos.append(CalendarInfo(url, str(name), primary=index == 0))
        return infos

    def primary_calendar_id(self) -> str:
        """The configured calendar (a display name or a URL), else the first one; an account
        with no calendar at all gets one."""
        if self._primary is not None:
            return self._primary
        wanted = self._wanted_calendar
        if wanted and wanted.startswith(("http://", "https://")):
            self._primary = wanted
            return wanted
        infos = self.calendars()
        if wanted:
            for info in infos:
                if wanted in (info.name, info.id):
                    self._primary = info.id
                    return info.id
            names = ", ".join(repr(i.name) for i in infos) or "none"
            raise CalendarError(f"no CalDAV calendar named {wanted!r} (have {names})")
        self._primary = infos[0].id if infos else \
            self.add_calendar("family", DEFAULT_CALENDAR_NAME).id
        return self._primary

    def add_calendar(self, calendar_id: str, name: str,
                     timezone: str | None = None) -> CalendarInfo:
        for info in self.calendars():
            if calendar_id in (info.id, info.name) or name == info.name:
                return info
        slug = calendar_id if calendar_id.isalnum() else None
        try:
            made = self._principal().make_calendar(name=name, cal_id=slug)
        except Exception as exc:
            raise service_error("caldav", exc, f"make the calendar {name!r}") from exc
        self._calendars[str(made.url)] = made
        return CalendarInfo(str(made.url), name, False, timezone)

    def _url(self, calendar_id: str) -> str:
        """A calendar's URL: its id, the URL of the calendar with that display name (the
        setting may name a calendar either way), or the primary one's for `primary`."""
        if calendar_id.startswith(("http://", "https://")) or calendar_id in self._calendars:
            return calendar_id
        if calendar_id == "primary":  # the alias Google has, for callers that use it
            return self.primary_calendar_id()
        for info in self.calendars():
            if calendar_id == info.name:
                self._calendars[calendar_id] = self._calendars[info.id]
                return info.id
        raise CalendarError(f"calendar {calendar_id!r} does not exist")

    def _calendar(self, calendar_id: str) -> Any:
        found = self._calendars.get(calendar_id)
        if found is None:
            found = self.client.calendar(url=self._url(calendar_id))
            self._calendars[calendar_id] = found
        return found

    def _href(self, calendar_id: str, uid: str) -> str:
        return self._hrefs.get((calendar_id, uid)) or \
            str(self._calendar(calendar_id).url).rstrip("/") + "/" + quote(uid, safe="") + ".ics"

    # ------------------------------------------------------------------ resources
    def _load(self, calendar_id: str, uid: str) -> _Resource | None:
        """The resource holding `uid`, read now (with its current ETag), or None."""
        href = self._href(calendar_id, uid)
        response = self._request(href, "GET")
        if response.status == 200:
            for series in Series.parse(response.raw, self.default_timezone):
                if series.uid == uid:
                    if (calendar_id, uid) not in self._hrefs:
                        self._named.add((calendar_id, uid))
                    return _Resource(href, self._etag(response), series)
        elif response.status not in (404, 410):
            raise _refused(response, "read the event")
        if OWN_ID_RE.match(uid) or (calendar_id, uid) in self._named:
            # an id this backend made, or one seen under its own name: stored there and nowhere
            # else (a server keeps one resource per UID), so missing there is gone
            return None
        return self._find_by_uid(calendar_id, uid)

    def _find_by_uid(self, calendar_id: str, uid: str) -> _Resource | None:
        """A resource another client stored under a name of its own (a UID search)."""
        try:
            found = self._calendar(calendar_id).object_by_uid(uid)
        except dav_error.NotFoundError:
            return None
        except Exception as exc:
            raise service_error("caldav", exc, "search the calendar") from exc
        href = str(found.url)
        if href == self._href(calendar_id, uid) and (calendar_id, uid) not in self._hrefs:
            return None  # the search found the name just read as missing: gone meanwhile
        self._hrefs[(calendar_id, uid)] = href
        response = self._request(href, "GET")  # the search's copy may carry no ETag
        if response.status != 200:
            return None
        for series in Series.parse(response.raw, self.default_timezone):
            if series.uid == uid:
                return _Resource(href, self._etag(response), series)
        return None

    def _target(self, calendar_id: str, event_id: str) -> _Target | None:
        """The resource and occurrence stamp an id names (None when there is no such event)."""
        parts = instance_parts(event_id)
        if parts is not None:
            base = self._load(calendar_id, parts[0])
            if base is not None and base.series.occurrence(
                    parts[1], calendar_id, "") is not None:
                return _Target(base, parts[1])
        resource = self._load(calendar_id, event_id)
        if resource is not None and resource.series.event(calendar_id, "") is not None:
            return _Target(resource, None)
        return None

    def _require(self, calendar_id: str, event_id: str, if_match: str | None) -> _Target:
        target = self._target(calendar_id, event_id)
        if target is None:
            raise EventNotFound(event_id)
        if if_match is not None and if_match != target.resource.etag:
            raise VersionConflict(event_id, if_match, target.resource.etag)
        return target

    def _put(self, calendar_id: str, event_id: str, resource: _Resource) -> str:
        """Write the resource back under its version check; its new ETag."""
        headers = dict(ICAL_HEADERS)
        if resource.etag:
            headers["If-Match"] = resource.etag
        else:
            headers["If-None-Match"] = "*"
        response = self._request(resource.href, "PUT", resource.series.to_ical(), headers)
        if response.status == 412:
            raise VersionConflict(event_id, resource.etag, None)
        if response.status not in (200, 201, 204):
            raise _refused(response, "save the change")
        etag = self._etag(response)
        if etag is None:  # the server changed what it stored: read its version back
            again = self._load(calendar_id, resource.series.uid)
            etag = again.etag if again is not None else None
        resource.etag = etag
        return etag or ""

    def _delete(self, event_id: str, resource: _Resource) -> None:
        headers = {"If-Match": resource.etag} if resource.etag else {}
        response = self._request(resource.href, "DELETE", "", headers)
        if response.status == 412:
            raise VersionConflict(event_id, resource.etag, None)
        if response.status == 404:
            raise EventNotFound(event_id)
        if response.status not in (200, 204):
            raise _refused(response, "delete the event")

    # ------------------------------------------------------------------ reading
    def list_events(self, calendar_id: str, start: datetime, end: datetime,
                    query: str | None = None) -> list[Event]:
        try:
            found = self._calendar(calendar_id).search(start=start, end=end, event=True,
                                                       expand=False)
        except dav_error.NotFoundError as exc:
            LOG.warning("the CalDAV calendar %s does not exist", calendar_id)
            raise CalendarError("that calendar does not exist on the CalDAV server") from exc
        except Exception as exc:
            raise service_error("caldav", exc, "list the events") from exc
        events: list[Event] = []
        skipped: list[Event] = []
        for obj in found:
            etag = str(obj.etag or "")
            for series in Series.parse(obj.data, self.default_timezone):
                self._hrefs[(calendar_id, series.uid)] = str(obj.url)
                try:
                    events.extend(series.between(start, end, calendar_id, etag))
                except (ValueError, TypeError, KeyError, CalendarError):
                    master = series.event(calendar_id, etag)
                    if master is not None:
                        skipped.append(master)
        self._listing.skipped = skipped
        if query:
            needle = query.casefold()
            events = [e for e in events if needle in " ".join(
                filter(None, (e.title, e.location, e.description, *e.attendees))).casefold()]
        events.sort(key=lambda e: (e.start_instant, e.id))
        return events

    def skipped_series(self) -> list[Event]:
        return list(getattr(self._listing, "skipped", []))

    def get_event(self, calendar_id: str, event_id: str) -> Event | None:
        target = self._target(calendar_id, event_id)
        if target is None:
            return None
        resource = target.resource
        etag = resource.etag or ""
        if target.stamp is None:
            return resource.series.event(calendar_id, etag)
        return resource.series.occurrence(target.stamp, calendar_id, etag)

    def get_events(self, calendar_id: str, event_ids: Sequence[str]) -> list[Event | None]:
        """Several events. When `LISTING_FROM` or more of them are ids another client named,
        not yet located (an import's UIDs), one listing of where every UID of the calendar is
        stored (`_where`) replaces a UID search for each, which the server answers by reading
        the whole collection: an import's plan then costs one listing and a GET per event
        already there, not a search per event (quadratic). Otherwise one by one."""
        unknown = {uid for uid in (self._base_uid(e) for e in event_ids)
                   if not OWN_ID_RE.match(uid) and (calendar_id, uid) not in self._hrefs
                   and (calendar_id, uid) not in self._named}
        if len(unknown) < LISTING_FROM:
            return [self.get_event(calendar_id, event_id) for event_id in event_ids]
        stored = self._where(calendar_id)
        loaded: dict[str, _Resource | None] = {}
        found: list[Event | None] = []
        for event_id in event_ids:
            parts = instance_parts(event_id)
            event: Event | None = None
            for uid, stamp in ((parts[0], parts[1]), (event_id, None)) if parts else \
                    ((event_id, None),):
                if uid not in stored:
                    continue  # not in the calendar: nothing to read
                if uid not in loaded:
                    loaded[uid] = self._load(calendar_id, uid)
                resource = loaded[uid]
                if resource is None:
                    continue
                etag = resource.etag or ""
                event = resource.series.event(calendar_id, etag) if stamp is None else \
                    resource.series.occurrence(stamp, calendar_id, etag)
                if event is not None:
                    break
            found.append(event)
        return found

    @staticmethod
    def _base_uid(event_id: str) -> str:
        parts = instance_parts(event_id)
        return parts[0] if parts is not None else event_id

    def _where(self, calendar_id: str) -> set[str]:
        """Every UID of the calendar, from one calendar-query REPORT; where each is stored is
        remembered (`_hrefs`, `_named`), so reading or writing it later goes straight there.
        The UIDs are read from the text (a line scan), not by parsing every resource."""
        url = str(self._calendar(calendar_id).url)
        response = self._request(url, "REPORT", _EVERY_EVENT,
                                 {"Depth": "1", "Content-Type": "application/xml; charset=utf-8"})
        if response.status not in (200, 207):
            raise _refused(response, "list the events")
        try:
            results = response.parse_calendar_query()
        except Exception as exc:
            raise service_error("caldav", exc, "list the events") from exc
        uids: set[str] = set()
        for result in results:
            if result.status != 200 or not result.calendar_data:
                continue
            uid = _uid_in(str(result.calendar_data))
            if uid is None:
                uid = next((series.uid for series in Series.parse(
                    str(result.calendar_data), self.default_timezone)), None)
            if uid is None:
                continue
            href = urljoin(url, str(result.href))
            if href == self._href(calendar_id, uid):
                self._named.add((calendar_id, uid))
            else:
                self._hrefs[(calendar_id, uid)] = href
            uids.add(uid)
        return uids

    # ------------------------------------------------------------------ writing
    def new_event_id(self) -> str:
        return "ev" + secrets.token_hex(OWN_ID_BYTES)

    def create_event(self, calendar_id: str, event: Event, *, turn_id: str | None = None,
                     send_updates: bool = False) -> Event:
        return self._create(calendar_id, event, turn_id)[0]

    def _create(self, calendar_id: str, event: Event,
                turn_id: str | None) -> tuple[Event, Snapshot]:
        """One PUT with `If-None-Match: *` at the UID's own name: the event as written and its
        record (the resource this PUT stored, under the ETag the server answered)."""
        uid = event.id or self.new_event_id()
        made = event.with_changes(id=uid, status="confirmed", calendar_id=calendar_id)
        resource = _Resource(self._href(calendar_id, uid), None,
                             Series.of_event(made, turn_id, self.default_timezone))
        try:
            etag = self._put(calendar_id, uid, resource)
        except VersionConflict:  # If-None-Match: * failed: the UID is taken
            existing = self._load(calendar_id, uid)
            if existing is not None and turn_id and existing.series.turn_id == turn_id:
                again = existing.series.event(calendar_id, existing.etag or "")
                if again is not None:  # our own create, retried: not a duplicate
                    return again, Snapshot(calendar_id, uid, existing.series.record(),
                                           existing.etag)
            raise CalendarError(f"an event with id {uid!r} already exists") from None
        if (calendar_id, uid) not in self._hrefs:
            self._named.add((calendar_id, uid))
        written = resource.series.event(calendar_id, etag)
        assert written is not None
        return written, Snapshot(calendar_id, uid, resource.series.record(), etag)

    def create_events_recorded(self, calendar_id: str, events: Sequence[Event],
                               record: WriteRecord, *, turn_id: str | None = None) -> list[Event]:
        """One PUT per event and nothing else: the pre-images are "did not exist" (each PUT is
        refused when its UID is taken), the post-images the resources just stored under the
        ETags the server answered, so an import of n events costs n requests, not n PUTs plus
        the reads and UID searches of `snapshot`. When a PUT fails, the record gets the events
        stored before it, and the failure is raised."""
        record.before([Snapshot(calendar_id, event.id, None, None) for event in events], None)
        written: list[Event] = []
        posts: list[Snapshot] = []
        try:
            for event in events:
                made, post = self._create(calendar_id, event, turn_id)
                written.append(made)
                posts.append(post)
        finally:
            if written:
                record.after(posts, written, None)
        return written

    def upsert_event(self, calendar_id: str, event: Event, *, turn_id: str | None = None) -> Event:
        existing = self._load(calendar_id, event.id)
        made = event.with_changes(status="confirmed", calendar_id=calendar_id)
        series = Series.of_event(made, turn_id, self.default_timezone)
        resource = _Resource(existing.href if existing else self._href(calendar_id, event.id),
                             existing.etag if existing else None, series)
        etag = self._put(calendar_id, event.id, resource)
        written = series.event(calendar_id, etag)
        assert written is not None
        return written

    def patch_event(self, calendar_id: str, event_id: str, patch: EventPatch, *,
                    if_match: str | None = None, send_updates: bool = False) -> Event:
        target = self._require(calendar_id, event_id, if_match)
        changed = target.resource.series.patch(target.stamp, patch, calendar_id)
        etag = self._put(calendar_id, event_id, target.resource)
        return changed.with_changes(version=etag, calendar_id=calendar_id)

    def patch_events(self, calendar_id: str, items: Sequence[PatchItem], *,
                     send_updates: bool = False) -> list[Event]:
        """In order, each its own write. Two occurrences of one series share a resource: the
        version an item was read at is taken as the one this call itself wrote since."""
        ours: dict[str, str] = {}
        written = []
        for item in items:
            if_match = ours.get(item.if_match or "", item.if_match)
            event = self.patch_event(calendar_id, item.event_id, item.patch, if_match=if_match)
            if if_match is not None:  # every version this call went through leads to the new one
                for old, new in list(ours.items()):
                    if new == if_match:
                        ours[old] = event.version
                ours[if_match] = event.version
            written.append(event)
        return written

    def delete_event(self, calendar_id: str, event_id: str, *, if_match: str | None = None,
                     send_updates: bool = False) -> None:
        target = self._require(calendar_id, event_id, if_match)
        if target.stamp is None:
            self._delete(event_id, target.resource)
            return
        target.resource.series.delete_occurrence(target.stamp)
        self._put(calendar_id, event_id, target.resource)

    # ------------------------------------------------------------------ journal support
    def _snapshot_parts(self, calendar_id: str, event_id: str
                        ) -> tuple[_Resource | None, str | None]:
        """(resource, occurrence stamp) an id's record lives in: its own resource when one
        holds that UID, else its series' resource when it is an occurrence id."""
        parts = instance_parts(event_id)
        if parts is not None:
            base = self._load(calendar_id, parts[0])
            if base is not None:
                return base, parts[1]
        return self._load(calendar_id, event_id), None

    def snapshot(self, calendar_id: str, event_id: str) -> Snapshot:
        resource, stamp = self._snapshot_parts(calendar_id, event_id)
        if resource is None:
            return Snapshot(calendar_id, event_id, None, None)
        record = resource.series.record() if stamp is None else \
            resource.series.occurrence_record(stamp)
        return Snapshot(calendar_id, event_id, record, resource.etag)

    def restore(self, snapshot: Snapshot, *, expected_version: str | None) -> Snapshot:
        return self._restore(snapshot, expected_version, None)

    def restore_item(self, item: RestoreItem) -> Snapshot:
        return self._restore(item.snapshot, item.expected_version, item.left)

    def _restore(self, snapshot: Snapshot, expected_version: str | None, left: Snapshot | None) -> Snapshot:
        cal, event_id = snapshot.calendar_id, snapshot.event_id
        resource, stamp = self._snapshot_parts(cal, event_id)
        actual = resource.etag if resource is not None else None
        if expected_version is not None and actual != expected_version:
            raise VersionConflict(event_id, expected_version, actual)
        record = snapshot.record
        if stamp is not None and resource is not None:
            resource.series.put_occurrence_record(stamp, record)
            self._put(cal, event_id, resource)
        elif record is None:
            if resource is not None:
                self._delete(event_id, resource)
        elif resource is not None and resource.series.master is not None:
            # the series is there: its own part goes back, its occurrences' parts (undone by
            # their own records, or someone else's since) are left as they are
            resource.series.put_series_record(record, left.record if left is not None else None)
            self._put(cal, event_id, resource)
        else:
            series = Series.from_record(event_id, record, self.default_timezone)
            href = resource.href if resource is not None else self._href(cal, event_id)
            self._put(cal, event_id, _Resource(href, actual, series))
        return self.snapshot(cal, event_id)

    @staticmethod
    def same_content(a: Snapshot, b: Snapshot) -> bool:
        """Whether two snapshots hold the same event: for a series, its own part only (its
        master without EXDATEs), since its occurrences' changes are their own records."""
        return strip_volatile(Series.own_part(a.record)) == strip_volatile(Series.own_part(b.record))

    def all_records(self) -> dict[tuple[str, str], dict[str, Any]]:
        """Every stored event of the primary calendar, for exact before/after comparisons in
        tests and benchmarks: each series (its EXDATEs aside) and each changed or removed
        occurrence under its own id, as the local backend keeps them."""
        cal = self.primary_calendar_id()
        records: dict[tuple[str, str], dict[str, Any]] = {}
        for obj in self._calendar(cal).search(event=True):
            for series in Series.parse(obj.data, self.default_timezone):
                records.update({(cal, key): value for key, value in series.records().items()})
        return records

    def close(self) -> None:
        with contextlib.suppress(Exception):  # closing is best effort
            self.client.close()


_DOING = {"GET": "read the event", "PUT": "save the change", "DELETE": "delete the event",
          "REPORT": "search the calendar", "PROPFIND": "list the calendars"}


def _body(response: Any) -> str:
    text = response.raw if isinstance(response.raw, str) else str(response.raw or "")
    return " ".join(text.split())[:200]


def _refused(response: Any, doing: str) -> ServiceFailure:
    """A status the server answered instead of doing it: the sign-in for 401 and 403, else a
    refusal in words; the status and the server's own text go to the log."""
    failure: Failure = "login" if response.status in (401, 403) else "other"
    sentence = describe("caldav", failure, doing)
    LOG.error("%s (the CalDAV server answered %s: %s)", sentence, response.status, _body(response))
    return ServiceFailure(sentence, "caldav", failure)


def _uid_in(text: str) -> str | None:
    """The UID of a resource's first VEVENT, by a line scan (None when it cannot be read that
    way: escaped, or missing; the caller parses the resource then)."""
    in_event = False
    for line in _UNFOLD.sub("", text).splitlines():
        head = line[:13].upper()
        if head.startswith("BEGIN:"):
            in_event = head.startswith("BEGIN:VEVENT")
        elif in_event and (head.startswith("UID:") or head.startswith("UID;")):
            value = line.split(":", 1)[1]
            return None if "\\" in value or '"' in line.split(":", 1)[0] or not value else value
    return None


def backend_from_settings(url: str | None, username: str | None, password: str | None,
                          calendar: str | None, default_timezone: str) -> CalDAVBackend:
    """The backend the settings describe; a missing URL is a settings error the caller names."""
    if not url:
        raise CalendarError("the caldav backend needs caldav_url (or CALENDAR_ASSISTANT_CALDAV_URL)")
    return CalDAVBackend(url, username, password, calendar=calendar,
                         default_timezone=default_timezone)


__all__ = ["CalDAVBackend", "backend_from_settings", "icalendar"]
