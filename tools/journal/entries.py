"""Journal records as values: the tables, and the one place their JSON is written and read.

A journal row keeps JSON in text columns, the same on SQLite and PostgreSQL (CONTRACT section
9): the pre- and post-image snapshots (`Snapshot.to_json`), the event before and after in the
contract shape (CONTRACT section 2), the intent `{"kind": "create|update|delete", "event":
<event or null>}`, and a turn's owner; an undo record keeps the ids of the entries it took back.
Every encode and decode of that JSON is here, so the stored format has one definition and a
journal an older version wrote is read by the very code that reads a new one. The rest of the
journal works with types: an `Intent` (an `IntentKind` and the event the write means to leave),
an `Entry` (a row read back, its snapshots and events decoded), an `Owner`. Text that cannot be
read back raises `Unreadable`, which the rollback reports and skips rather than failing on.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Literal, Protocol, get_args

from sqlalchemy import String
from sqlmodel import Field, SQLModel

from tools.backends.base import Snapshot
from tools.calendar.events import Event, EventFieldError, event_from_contract
from tools.journal.turn_owner import Owner
from tools.store.json_text import dumps, loads

TurnState = Literal["open", "committed", "rolled_back", "unfinished"]
"""A turn: still running (`open`), its changes standing (`committed`), undone (`rolled_back`),
or a rollback that could not finish and is retried at the next start (`unfinished`)."""

EntryState = Literal["pending", "done", "refused", "noop", "rolled_back", "conflict", "unreadable"]
"""A journal entry: pre-image committed, write outcome unknown (`pending`); written, post-image
committed (`done`); refused by the server, nothing written (`refused`); provably untouched
(`noop`); undone (`rolled_back`); someone else's change kept (`conflict`); its JSON cannot be read
(`unreadable`)."""

TURN_STATES: tuple[TurnState, ...] = get_args(TurnState)
ENTRY_STATES: tuple[EntryState, ...] = get_args(EntryState)


def _now() -> datetime:
    return datetime.now(UTC)


# ---------------------------------------------------------------------------- the tables
class JournalTurn(SQLModel, table=True):
    __tablename__ = "journal_turns"
    turn_id: str = Field(primary_key=True)
    backend: str = "local"
    state: TurnState = Field(default="open", sa_type=String)
    started_at: datetime = Field(default_factory=_now)
    closed_at: datetime | None = None
    owner: str | None = None  # `owner_text`; None: no live owner
    recovery_tries: int = 0
    last_error: str | None = None


class JournalEntry(SQLModel, table=True):
    __tablename__ = "journal_entries"
    id: int | None = Field(default=None, primary_key=True)
    turn_id: str = Field(index=True)
    attempt: int = 1
    tool: str
    calendar_id: str
    event_id: str
    pre: str  # `snapshot_text`
    pre_event: str | None = None  # `event_text` of the event before, for cards and words
    post: str | None = None
    post_version: str | None = None
    post_event: str | None = None
    intent: str | None = None  # `Intent.to_text`; None in entries from before intents
    base_version: str | None = None  # the version/etag the write was conditioned on
    note: str | None = None  # why the last restore of this entry failed
    state: EntryState = Field(default="pending", sa_type=String)
    created_at: datetime = Field(default_factory=_now)


class EntryRow(Protocol):
    """The columns of a stored entry, as a `JournalEntry` or a row fetched by Core holds them."""

    @property
    def id(self) -> int | None: ...
    @property
    def turn_id(self) -> str: ...
    @property
    def attempt(self) -> int: ...
    @property
    def tool(self) -> str: ...
    @property
    def calendar_id(self) -> str: ...
    @property
    def event_id(self) -> str: ...
    @property
    def pre(self) -> str: ...
    @property
    def pre_event(self) -> str | None: ...
    @property
    def post(self) -> str | None: ...
    @property
    def post_version(self) -> str | None: ...
    @property
    def post_event(self) -> str | None: ...
    @property
    def intent(self) -> str | None: ...
    @property
    def base_version(self) -> str | None: ...
    @property
    def state(self) -> EntryState: ...


class Unreadable(ValueError):
    """Stored journal text that cannot be read back; the message says which and why."""


# ---------------------------------------------------------------------------- the codec
def _loads(text: str, what: str) -> Any:
    try:
        return loads(text)
    except ValueError as exc:
        raise Unreadable(f"{what}: {exc}") from None


def snapshot_text(snapshot: Snapshot) -> str:
    return dumps(snapshot.to_json())


def read_snapshot(text: str, what: str = "snapshot") -> Snapshot:
    data = _loads(text, what)
    try:
        return Snapshot.from_json(data)
    except (KeyError, TypeError, AttributeError) as exc:
        raise Unreadable(f"{what}: not a snapshot ({exc!r})") from None


def event_text(event: Event | None) -> str | None:
    return dumps(event.to_contract()) if event is not None else None


def _event(data: Any, calendar_id: str, what: str) -> Event | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise Unreadable(f"{what}: not an event")
    try:
        return event_from_contract(data, data.get("timezone") or "UTC", calendar_id)
    except (EventFieldError, KeyError, TypeError, AttributeError, ValueError) as exc:
        raise Unreadable(f"{what}: {exc}") from None


def read_event(text: str | None, calendar_id: str, what: str = "event") -> Event | None:
    """The event stored as `text` (None: none stored), on `calendar_id`."""
    return _event(_loads(text, what), calendar_id, what) if text else None


def _intent_text(kind: IntentKind, event_json: str | None) -> str:
    """`json.dumps({"kind": kind, "event": event})` from the event's own JSON text (`null`:
    none): the same text, with the event serialized once."""
    return f'{{"kind": "{kind.value}", "event": {event_json or "null"}}}'


def _is_intent_text(text: str, kind: IntentKind, event_json: str) -> bool:
    """Whether `text == _intent_text(kind, event_json)`, compared in place (no copy made of a
    text of several hundred characters for each entry a rollback reads)."""
    head = _INTENT_HEADS[kind]
    return len(text) == len(head) + len(event_json) + 1 and text.startswith(head) and \
        text.startswith(event_json, len(head)) and text.endswith("}")


def owner_text(owner: Owner) -> str:
    return json.dumps(asdict(owner), sort_keys=True)


def read_owner(text: str | None) -> Owner | None:
    """The owner stored with a turn; None for a turn written before owners were recorded (or an
    unreadable one): its process is treated as gone."""
    if not text:
        return None
    try:
        data = json.loads(text)
        return Owner(str(data["host"]), str(data["boot"]), int(data["pid"]), str(data["started"]))
    except (ValueError, KeyError, TypeError):
        return None


def entry_ids_text(ids: list[int]) -> str:
    """The entries an undo took back, as its record keeps them."""
    return json.dumps(ids)


def read_entry_ids(text: str) -> list[int]:
    data = _loads(text, "undo record")
    try:
        return [int(i) for i in data]
    except (TypeError, ValueError) as exc:
        raise Unreadable(f"undo record: {exc}") from None


# ---------------------------------------------------------------------------- the values
class IntentKind(StrEnum):
    """What a write means to do; its value is the `kind` stored in the intent."""

    CREATE = "create"
    UPDATE = "update"
    DELETE = "delete"


_INTENT_HEADS = {kind: f'{{"kind": "{kind.value}", "event": ' for kind in IntentKind}
"""How each kind's stored intent begins, up to its event (`_intent_text`)."""


@dataclass(frozen=True)
class Intent:
    """What a write means to leave behind, recorded before it runs: the event as it should read
    afterwards (None for a delete, or an update whose outcome was not worked out), so a write
    whose process died before its post-image can still be recognised as ours."""

    kind: IntentKind
    event: Event | None = None

    @classmethod
    def create(cls, event: Event) -> Intent:
        return cls(IntentKind.CREATE, event)

    @classmethod
    def update(cls, event: Event | None) -> Intent:
        return cls(IntentKind.UPDATE, event)

    @classmethod
    def delete(cls) -> Intent:
        return cls(IntentKind.DELETE)

    @classmethod
    def between(cls, before: Snapshot, after: Snapshot, event: Event | None) -> Intent:
        """The intent of a write that takes the event from `before` to `after` (a redo)."""
        if not before.exists:
            return cls(IntentKind.CREATE, event)
        return cls.delete() if not after.exists else cls(IntentKind.UPDATE, event)

    def to_text(self, event_json: str | None = None) -> str:
        """The stored text; `event_json`: `event_text(self.event)` when the caller has it already
        (the same text, spelled as `json.dumps` spells the whole)."""
        if event_json is None:
            event_json = event_text(self.event)
        return _intent_text(self.kind, event_json)

    @classmethod
    def from_text(cls, text: str | None, calendar_id: str, known: tuple[str, Event | None] | None = None
                  ) -> Intent | None:
        """The intent stored as `text`; None for an entry written before intents were."""
        if not text:
            return None
        if known is not None and known[0] and _is_intent_text(text, IntentKind.UPDATE, known[0]):
            return cls(IntentKind.UPDATE, known[1])  # the event after, read already: same text
        data = _loads(text, "intent")
        if not isinstance(data, dict):
            raise Unreadable("intent: not an object")
        try:
            kind = IntentKind(str(data.get("kind")))
        except ValueError:
            raise Unreadable(f"intent: unknown kind {data.get('kind')!r}") from None
        return cls(kind, _event(data.get("event"), calendar_id, "intent event"))


@dataclass(frozen=True)
class Entry:
    """One journal entry read back: the row's facts, its JSON decoded into snapshots, events
    and an intent."""

    id: int
    turn_id: str
    attempt: int
    tool: str
    calendar_id: str
    event_id: str
    state: EntryState
    pre: Snapshot
    """The stored record before the write (`pre.exists` is False: the event did not exist)."""
    pre_event: Event | None
    """The event before the write, as a person is shown it (None: there was none)."""
    post: Snapshot | None
    """The stored record after the write; None until it completed (pending, refused)."""
    post_version: str | None
    post_event: Event | None
    """The event the write left (None: it deleted the event, or it has not completed)."""
    intent: Intent | None
    base_version: str | None

    @property
    def deletes(self) -> bool:
        """Whether the write meant to delete the event."""
        return self.intent is not None and self.intent.kind is IntentKind.DELETE

    @classmethod
    def read(cls, row: EntryRow) -> Entry:
        """Decode a stored row; `Unreadable` names the column that cannot be read."""
        assert row.id is not None
        cal = row.calendar_id
        pre = read_snapshot(row.pre, "pre-image")
        before = read_event(row.pre_event, cal, "event before")
        post = read_snapshot(row.post, "post-image") if row.post else None
        after = read_event(row.post_event, cal, "event after")
        # an update's intent is most often the event after, to the letter: read once
        intent = Intent.from_text(row.intent, cal, (row.post_event or "", after))
        return cls(row.id, row.turn_id, row.attempt, row.tool, cal, row.event_id, row.state,
                   pre, before, post, row.post_version, after, intent, row.base_version)


def new_entry(turn_id: str, attempt: int, tool: str, calendar_id: str, event_id: str,
              pre: Snapshot, pre_event: Event | None, intent: Intent | None,
              base_version: str | None) -> dict[str, Any]:
    """The columns of an entry begun before its write (`pending`)."""
    return {"turn_id": turn_id, "attempt": attempt, "tool": tool, "calendar_id": calendar_id,
            "event_id": event_id, "pre": snapshot_text(pre), "pre_event": event_text(pre_event),
            "intent": intent.to_text() if intent is not None else None,
            "base_version": base_version, "state": "pending", "created_at": _now()}


def completed_entry(post: Snapshot, post_event: Event | None) -> dict[str, Any]:
    """The columns an entry gains when its write succeeded (`done`)."""
    return {"post": snapshot_text(post), "post_version": post.version,
            "post_event": event_text(post_event), "state": "done"}


def whole_entry(turn_id: str, attempt: int, tool: str, calendar_id: str, event_id: str,
                pre: Snapshot, pre_event: Event | None, intent: Intent | None,
                base_version: str | None, post: Snapshot, post_event: Event | None) -> dict[str, Any]:
    """`new_entry` and `completed_entry` of one write at once (`done`), the same texts: the
    event after is serialized once when the intent's event reads the same (an update worked
    out before it was written; most often its values are the event after's own, and then the
    intent's contract is not even built: `Event.surely_same_contract`)."""
    after = post_event.to_contract() if post_event is not None else None
    after_text = dumps(after) if after is not None else None
    intent_text = None
    if intent is not None:
        meant_event = intent.event
        if meant_event is not None and post_event is not None and \
                meant_event.surely_same_contract(post_event):
            intent_text = intent.to_text(after_text)
        else:
            meant = meant_event.to_contract() if meant_event is not None else None
            intent_text = intent.to_text(after_text if meant is not None and meant == after
                                         else dumps(meant) if meant is not None else None)
    return {"turn_id": turn_id, "attempt": attempt, "tool": tool, "calendar_id": calendar_id,
            "event_id": event_id, "pre": snapshot_text(pre), "pre_event": event_text(pre_event),
            "intent": intent_text, "base_version": base_version, "created_at": _now(),
            "post": snapshot_text(post), "post_version": post.version, "post_event": after_text,
            "state": "done"}
