"""Several calendar accounts as one backend (CONTRACT section 1, `[[accounts]]`).

A family's calendars live on several services at once: a parent's Google account, the other's
iCloud (CalDAV), the local calendar on this machine. `AccountsBackend` holds one backend per
account and is itself a `CalendarBackend`: every call is routed by the calendar id, which is then
`<account>/<calendar id>` ("dad/family@example.com", "mom/https://caldav.icloud.com/.../home/").

Why one backend rather than one per tool call: the journal records every write by calendar id
and undoes it through `snapshot` and `restore`. Here the snapshots carry the prefixed calendar id,
so the journal, unchanged, keeps one record for a turn that wrote on two accounts: one `undo`,
one rollback, each event restored by its own account's backend under that backend's own version
check (a Google etag, a CalDAV ETag, a local row version). A failure of one account's service is
raised with the account named (`AccountFailure`), so a rollback that could not reach it says which
account waits for the next start instead of losing that part.

Event ids stay each service's own: an event is named by (calendar id, event id), as everywhere.
"""
from __future__ import annotations

import contextlib
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, TypeVar

from tools.backends.base import (
    ITEM_FAILURES,
    CalendarBackend,
    CalendarError,
    EventNotFound,
    EventPatch,
    FreeBusy,
    PatchItem,
    RestoreItem,
    RestoreResult,
    Snapshot,
    Transaction,
    VersionConflict,
    WriteRecord,
)
from tools.calendar.events import CalendarInfo, Event

__all__ = ["SEPARATOR", "Account", "AccountFailure", "AccountsBackend", "CalendarChoice",
           "calendar_facts", "join_id", "short_names", "split_id"]

SEPARATOR = "/"
"""Between the account name and the service's own calendar id; account names never hold it."""

_BASE32HEX = "0123456789abcdefghijklmnopqrstuv"

T = TypeVar("T")


def join_id(account: str, calendar_id: str) -> str:
    """`<account>/<calendar id>`: the id a calendar of one account has among several."""
    return f"{account}{SEPARATOR}{calendar_id}"


def split_id(calendar_id: str) -> tuple[str, str]:
    """(account, the service's own calendar id); ("", id) when the id names no account."""
    account, sep, inner = calendar_id.partition(SEPARATOR)
    return (account, inner) if sep and account and inner else ("", calendar_id)


class AccountFailure(CalendarError):
    """One account's calendar service failed: the message names the account, so the person (and
    a rollback's report) knows which part waits, while the others go on."""

    speaks_for_itself = True

    def __init__(self, account: str, cause: CalendarError) -> None:
        text = str(cause).rstrip()
        super().__init__(f"{text[:-1]} (account '{account}')." if text.endswith(".")
                         else f"{text} (account '{account}')")
        self.account = account
        self.cause = cause


@dataclass
class Account:
    """One configured account: its name, its backend, and whose it is when the person said so
    (`owner` in `[[accounts]]`) or the service told us (`login`: a CalDAV user name, a Google
    address)."""

    name: str
    backend: CalendarBackend
    owner: str | None = None
    login: str | None = None


@dataclass(frozen=True)
class CalendarChoice:
    """The calendars a listing without a calendar id reads (the `calendars` setting: every
    calendar of every account by default), and what people call each one. Empty: one calendar,
    the context's own, as before accounts existed."""

    ids: tuple[str, ...] = ()
    names: Mapping[str, str] = field(default_factory=dict)
    facts: tuple[Mapping[str, Any], ...] = ()
    """Each calendar read as `list_calendars` gives it (`calendar_facts`): what the guard knows
    "on Leo's calendar" by."""

    def name(self, calendar_id: str) -> str:
        """The short name people use for a calendar ("Leo", "Family (mom)")."""
        return self.names.get(calendar_id) or split_id(calendar_id)[1] or calendar_id


def short_names(infos: Sequence[CalendarInfo]) -> dict[str, str]:
    """Each calendar's name as a person says it: its own name, with its account added only when
    two accounts have a calendar of that name ("Family (dad)", "Family (mom)")."""
    counts: dict[str, int] = {}
    for info in infos:
        counts[info.name.casefold()] = counts.get(info.name.casefold(), 0) + 1
    names = {}
    for info in infos:
        account = str(info.extra.get("account") or "")
        clash = counts[info.name.casefold()] > 1 and account
        names[info.id] = f"{info.name} ({account})" if clash else info.name
    return names


def calendar_facts(info: CalendarInfo, default_id: str | None,
                   account: str = "default") -> dict[str, Any]:
    """One calendar as `list_calendars` gives it (CONTRACT section 3): `{id, name, owner?,
    primary, writable, account}`. `primary` is the calendar a new event goes to when the person
    names none; `writable` is false for a calendar the service shares read-only (Google's
    `reader` and `freeBusyReader`)."""
    role = info.extra.get("accessRole")
    facts: dict[str, Any] = {
        "id": info.id, "name": info.name,
        "primary": info.id == default_id if default_id else info.primary,
        "writable": bool(info.extra.get("writable", role in (None, "owner", "writer"))),
        "account": str(info.extra.get("account") or account)}
    owner = info.extra.get("owner")
    if owner:
        facts["owner"] = str(owner)
    if info.extra.get("unreachable"):
        facts["unreachable"] = str(info.extra["unreachable"])
    return facts


class _Prefixed:
    """A bulk write's record (`WriteRecord`) seen through one account: the snapshots and events
    it is handed carry the prefixed calendar id, as every other journal entry does."""

    def __init__(self, record: WriteRecord, owner: AccountsBackend, account: str) -> None:
        self.record, self.owner, self.account = record, owner, account

    def before(self, pres: list[Snapshot], within: Transaction | None) -> bool:
        return self.record.before([self.owner.outer_snapshot(self.account, s) for s in pres], within)

    def after(self, posts: list[Snapshot], written: list[Event],
              within: Transaction | None) -> None:
        self.record.after([self.owner.outer_snapshot(self.account, s) for s in posts],
                          [self.owner.outer_event(self.account, e) for e in written], within)

    def whole(self, pres: list[Snapshot], posts: list[Snapshot], written: list[Event],
              within: Transaction) -> None:
        self.record.whole([self.owner.outer_snapshot(self.account, s) for s in pres],
                          [self.owner.outer_snapshot(self.account, s) for s in posts],
                          [self.owner.outer_event(self.account, e) for e in written], within)


class AccountsBackend(CalendarBackend):
    """Every account's calendars behind one interface, routed by `<account>/<calendar id>`."""

    name = "accounts"

    def __init__(self, accounts: Sequence[Account], default_calendar: str | None = None) -> None:
        if not accounts:
            raise ValueError("at least one account is needed")
        self.accounts: dict[str, Account] = {}
        for account in accounts:
            if not account.name or SEPARATOR in account.name or account.name in self.accounts:
                raise ValueError(f"bad or repeated account name {account.name!r}")
            self.accounts[account.name] = account
        self.default_calendar = default_calendar
        self.restores_are_independent = all(a.backend.restores_are_independent
                                            for a in accounts)
        self._known: dict[str, list[CalendarInfo]] = {}
        """Each account's calendars as last listed: names for a listing while it is down."""
        self._listing = threading.local()

    # ------------------------------------------------------------------ routing
    def route(self, calendar_id: str) -> tuple[Account, str]:
        """The account a calendar id names and the service's own id for it. `primary` (the
        alias the tools default to) is the default calendar."""
        if calendar_id == "primary":
            calendar_id = self.primary_calendar_id()
        name, inner = split_id(calendar_id)
        account = self.accounts.get(name)
        if account is None:
            raise CalendarError(
                f"there is no calendar {calendar_id!r}: a calendar id is <account>/<calendar>, "
                f"and the accounts are {', '.join(self.accounts)} (list_calendars names them)")
        return account, inner

    def service_of(self, calendar_id: str) -> str:
        return split_id(calendar_id)[0]

    def restores_independent_on(self, calendar_id: str) -> bool:
        try:
            return self.route(calendar_id)[0].backend.restores_are_independent
        except CalendarError:
            return False

    def _call(self, account: Account, work: Callable[[], T]) -> T:
        """Run one account's call; a failure of its service names the account."""
        try:
            return work()
        except ITEM_FAILURES:
            raise
        except AccountFailure:
            raise
        except CalendarError as exc:
            raise AccountFailure(account.name, exc) from exc

    def outer_event(self, account: str, event: Event) -> Event:
        return event.with_changes(calendar_id=join_id(account, event.calendar_id))

    def outer_snapshot(self, account: str, snapshot: Snapshot) -> Snapshot:
        return replace(snapshot, calendar_id=join_id(account, snapshot.calendar_id))

    def _inner_snapshot(self, snapshot: Snapshot) -> tuple[Account, Snapshot]:
        account, inner = self.route(snapshot.calendar_id)
        return account, replace(snapshot, calendar_id=inner)

    @staticmethod
    def _inner_event(event: Event | None, inner: str) -> Event | None:
        return event.with_changes(calendar_id=inner) if event is not None else None

    # ------------------------------------------------------------------ calendars
    def calendars(self) -> list[CalendarInfo]:
        """Every calendar of every account, ids prefixed; an account that cannot be reached
        now shows the calendars it had when last listed (or its main one), marked
        `unreachable` with the reason, so a listing names it instead of leaving it out."""
        out: list[CalendarInfo] = []
        try:
            default: str | None = self.primary_calendar_id()
        except CalendarError:  # the first account's main calendar is on a service that is down
            default = None
        for account in self.accounts.values():
            try:
                infos = self._call(account, account.backend.calendars)
                self._known[account.name] = infos
                reason = None
            except CalendarError as exc:
                reason = str(exc)
                infos = self._known.get(account.name) or [
                    CalendarInfo("primary", account.name, True)]
            for info in infos:
                out.append(self._outer_info(account, info, default, reason))
        return out

    def _outer_info(self, account: Account, info: CalendarInfo, default: str | None,
                    unreachable: str | None) -> CalendarInfo:
        role = info.extra.get("accessRole")
        owner = None  # a calendar shared with the account (Google's holidays) is someone else's
        if role in (None, "owner"):
            owner = account.owner or account.login or (
                info.id if info.primary and "@" in info.id else None)
        calendar_id = join_id(account.name, info.id)
        extra: dict[str, Any] = {**info.extra, "account": account.name, "calendar": info.id,
                                 "writable": role in (None, "owner", "writer"), "owner": owner,
                                 "service": account.backend.name, "main": info.primary}
        if unreachable:
            extra["unreachable"] = unreachable
        return CalendarInfo(calendar_id, info.name, calendar_id == default, info.timezone, extra)

    def primary_calendar_id(self) -> str:
        """The default calendar (`default_calendar`), else the first account's main one."""
        if self.default_calendar:
            return self.default_calendar
        first = next(iter(self.accounts.values()))
        return join_id(first.name, first.backend.primary_calendar_id())

    def add_calendar(self, calendar_id: str, name: str,
                     timezone: str | None = None) -> CalendarInfo:
        account, inner = self.route(calendar_id)
        made = self._call(account, lambda: account.backend.add_calendar(inner, name, timezone))
        self._known.pop(account.name, None)
        return self._outer_info(account, made, self.primary_calendar_id(), None)

    # ------------------------------------------------------------------ reading
    def list_events(self, calendar_id: str, start: datetime, end: datetime,
                    query: str | None = None) -> list[Event]:
        account, inner = self.route(calendar_id)
        self._listing.skipped = []
        events = self._call(account, lambda: account.backend.list_events(inner, start, end, query))
        self._listing.skipped = [self.outer_event(account.name, e)
                                 for e in account.backend.skipped_series()]
        return [self.outer_event(account.name, e) for e in events]

    def skipped_series(self) -> list[Event]:
        return list(getattr(self._listing, "skipped", []))

    def get_event(self, calendar_id: str, event_id: str) -> Event | None:
        account, inner = self.route(calendar_id)
        found = self._call(account, lambda: account.backend.get_event(inner, event_id))
        return self.outer_event(account.name, found) if found is not None else None

    def get_events(self, calendar_id: str, event_ids: Sequence[str]) -> list[Event | None]:
        account, inner = self.route(calendar_id)
        found = self._call(account, lambda: account.backend.get_events(inner, event_ids))
        return [self.outer_event(account.name, e) if e is not None else None for e in found]

    def new_event_id(self) -> str:
        """26 base32hex characters: an id every service takes (Google's rule is the
        strictest), chosen before the calendar it lands on is known."""
        return "".join(secrets.choice(_BASE32HEX) for _ in range(26))

    def id_problem(self, event_id: str) -> str | None:
        """None when some account could hold the id (the event's own calendar decides)."""
        problems = [a.backend.id_problem(event_id) for a in self.accounts.values()]
        return None if any(p is None for p in problems) else problems[0]

    # ------------------------------------------------------------------ writing
    def create_event(self, calendar_id: str, event: Event, *, turn_id: str | None = None,
                     send_updates: bool = False) -> Event:
        account, inner = self.route(calendar_id)
        made = self._call(account, lambda: account.backend.create_event(
            inner, event.with_changes(calendar_id=inner), turn_id=turn_id,
            send_updates=send_updates))
        return self.outer_event(account.name, made)

    def patch_event(self, calendar_id: str, event_id: str, patch: EventPatch, *,
                    if_match: str | None = None, send_updates: bool = False) -> Event:
        account, inner = self.route(calendar_id)
        changed = self._call(account, lambda: account.backend.patch_event(
            inner, event_id, patch, if_match=if_match, send_updates=send_updates))
        return self.outer_event(account.name, changed)

    def _inner_items(self, items: Sequence[PatchItem], inner: str) -> list[PatchItem]:
        return [replace(item, read=self._inner_event(item.read, inner),
                        expected=self._inner_event(item.expected, inner)) for item in items]

    def patch_events(self, calendar_id: str, items: Sequence[PatchItem], *,
                     send_updates: bool = False) -> list[Event]:
        account, inner = self.route(calendar_id)
        written = self._call(account, lambda: account.backend.patch_events(
            inner, self._inner_items(items, inner), send_updates=send_updates))
        return [self.outer_event(account.name, e) for e in written]

    def patch_events_recorded(self, calendar_id: str, items: Sequence[PatchItem],
                              record: WriteRecord, *, send_updates: bool = False) -> list[Event]:
        """The account's own recorded write (a local account's entries still commit in its
        write's transaction when the journal shares its store), its record seeing prefixed ids."""
        account, inner = self.route(calendar_id)
        written = self._call(account, lambda: account.backend.patch_events_recorded(
            inner, self._inner_items(items, inner), _Prefixed(record, self, account.name),
            send_updates=send_updates))
        return [self.outer_event(account.name, e) for e in written]

    def upsert_event(self, calendar_id: str, event: Event, *, turn_id: str | None = None) -> Event:
        account, inner = self.route(calendar_id)
        made = self._call(account, lambda: account.backend.upsert_event(
            inner, event.with_changes(calendar_id=inner), turn_id=turn_id))
        return self.outer_event(account.name, made)

    def delete_event(self, calendar_id: str, event_id: str, *, if_match: str | None = None,
                     send_updates: bool = False) -> None:
        account, inner = self.route(calendar_id)
        self._call(account, lambda: account.backend.delete_event(
            inner, event_id, if_match=if_match, send_updates=send_updates))

    # ------------------------------------------------------------------ journal
    def snapshot(self, calendar_id: str, event_id: str) -> Snapshot:
        account, inner = self.route(calendar_id)
        taken = self._call(account, lambda: account.backend.snapshot(inner, event_id))
        return self.outer_snapshot(account.name, taken)

    def snapshots(self, calendar_id: str, event_ids: Sequence[str]) -> list[Snapshot]:
        account, inner = self.route(calendar_id)
        taken = self._call(account, lambda: account.backend.snapshots(inner, event_ids))
        return [self.outer_snapshot(account.name, s) for s in taken]

    def restore(self, snapshot: Snapshot, *, expected_version: str | None) -> Snapshot:
        account, inner = self._inner_snapshot(snapshot)
        back = self._call(account, lambda: account.backend.restore(
            inner, expected_version=expected_version))
        return self.outer_snapshot(account.name, back)

    def restore_item(self, item: RestoreItem) -> Snapshot:
        account, inner = self._inner_snapshot(item.snapshot)
        left = self._inner_snapshot(item.left)[1] if item.left is not None else None
        back = self._call(account, lambda: account.backend.restore_item(
            replace(item, snapshot=inner, left=left)))
        return self.outer_snapshot(account.name, back)

    def restore_many(self, items: Sequence[RestoreItem]) -> list[RestoreResult]:
        """Each run of consecutive items on one account restored by that account's own
        `restore_many` (a local account's in one transaction), in order; as the interface
        says, the list ends at the first failure of a service, named by its account."""
        results: list[RestoreResult] = []
        index = 0
        while index < len(items):
            try:
                account, _ = self.route(items[index].snapshot.calendar_id)
            except CalendarError as exc:
                results.append(exc)
                return results
            run: list[RestoreItem] = []
            while index < len(items) and split_id(items[index].snapshot.calendar_id)[0] == account.name:
                item = items[index]
                left = self._inner_snapshot(item.left)[1] if item.left is not None else None
                run.append(replace(item, snapshot=self._inner_snapshot(item.snapshot)[1], left=left))
                index += 1
            try:
                done = account.backend.restore_many(run)
            except CalendarError as exc:
                done = [exc]
            for result in done:
                if isinstance(result, Snapshot):
                    results.append(self.outer_snapshot(account.name, result))
                elif isinstance(result, CalendarError) and not isinstance(
                        result, (VersionConflict, EventNotFound, AccountFailure)):
                    results.append(AccountFailure(account.name, result))
                else:
                    results.append(result)
            if len(done) < len(run) or any(
                    isinstance(r, CalendarError) and not isinstance(r, ITEM_FAILURES) for r in done):
                return results
        return results

    def same_content(self, a: Snapshot, b: Snapshot) -> bool:  # type: ignore[override]
        """As the snapshots' own account's backend judges it (CalDAV compares a series' own
        part only)."""
        account, inner_a = self._inner_snapshot(a)
        return account.backend.same_content(inner_a, replace(b, calendar_id=inner_a.calendar_id))

    # ------------------------------------------------------------------ free/busy
    def free_busy(self, calendar_ids: Sequence[str], start: datetime, end: datetime) -> FreeBusy:
        """Each account asked for its own calendars (Google by its free/busy query); a calendar
        of no account, or of an account that failed, is unreadable with the reason, never free."""
        busy: dict[str, tuple[tuple[datetime, datetime], ...]] = {}
        unreadable: dict[str, str] = {}
        wanted: dict[str, list[str]] = {}
        for calendar_id in dict.fromkeys(calendar_ids):
            try:
                account, inner = self.route(calendar_id)
            except CalendarError:
                unreadable[calendar_id] = "no such calendar"
                continue
            wanted.setdefault(account.name, []).append(inner)
        for name, inners in wanted.items():
            account = self.accounts[name]
            try:
                answer = account.backend.free_busy(inners, start, end)
            except Exception as exc:  # noqa: BLE001 - whatever stopped it, these are not free
                for inner in inners:
                    unreadable[join_id(name, inner)] = f"{exc or type(exc).__name__} (account '{name}')"
                continue
            busy.update({join_id(name, c): spans for c, spans in answer.busy.items()})
            unreadable.update({join_id(name, c): why for c, why in answer.unreadable.items()})
        return FreeBusy(busy, unreadable)

    def close(self) -> None:
        for account in self.accounts.values():
            with contextlib.suppress(Exception):  # closing is best effort, each on its own
                account.backend.close()
