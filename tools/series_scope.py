"""Changes to a recurring event at the scope asked (CONTRACT section 3): one occurrence, that
occurrence and every later one, or the whole series.

One occurrence, and a series by its own id, go the plain way (`tools.handlers`). The rest is
built here from the writes every backend already journals and rolls back exactly (create,
patch, delete), so a split is the same on the local calendar, Google and CalDAV, and its undo is
the journal's ordinary undo of the call's entries, newest first:

1. the new series is created, starting at the occurrence named, moved as the change says
   (`tools.calendar.series_split` works out its rule);
2. the occurrences of the old series from there on that were changed or cancelled on their own
   are carried to the new series, and the changed ones removed from the old;
3. the old series' rule is ended with its last occurrence before the split.

If any write fails, the call's earlier writes are undone before the error is returned; a crash
between two writes leaves journal entries that the next start rolls back (the turn is
unfinished), like any other interrupted turn.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from tools.backends.base import CalendarError, EventPatch
from tools.calendar.events import (
    Event,
    EventCard,
    EventFieldError,
    as_date,
    format_when,
    local_start_of,
    normalize_recurrence,
)
from tools.calendar.occurrences import (
    instance_id,
    instance_parts,
    is_occurrence,
    occurrences,
    series_end,
    stamp_original,
    virtual_instance,
)
from tools.calendar.patching import apply_patch, check_times
from tools.calendar.recurrence import check_recurrence
from tools.calendar.series_split import (
    before_split,
    following_rule,
    kept_rule,
    moved_rule,
    until_as,
    wall_shift,
)
from tools.calendar.wording import day_label
from tools.context import ToolContext, ToolResult
from tools.handlers import (
    _event_fields,
    _journalled,
    _require,
    compact_row,
)
from tools.handlers import check_delete as check_delete_plainly
from tools.handlers import check_update as check_update_plainly
from tools.handlers import delete_calendar_event as delete_plainly
from tools.handlers import update_calendar_event as update_plainly
from tools.journal.entries import Intent

HORIZON = timedelta(days=731)
"""How far past the split an unending series is searched for occurrences changed on their own:
two years (a change further out stays with the old series, where no occurrence shows it)."""

_CONTENT = ("title", "location", "description", "attendees", "reminders")


@dataclass(frozen=True)
class Target:
    """What a scoped call changes: `master` from the occurrence starting at `original` on
    (`following`), or all of it (`series`)."""

    scope: str
    master: Event
    original: date | datetime


def _calendar(ctx: ToolContext, args: dict[str, Any]) -> str:
    return str(args.get("calendar_id") or ctx.calendar_id)


def target(ctx: ToolContext, args: dict[str, Any]) -> Target | None:
    """The scoped change a call asks for, or None for the plain way. An id naming a whole
    series with scope `occurrence` is refused: which occurrence is not said."""
    scope = args.get("scope")
    event_id = str(args.get("event_id") or "")
    parts = instance_parts(event_id)
    if parts is None:
        if scope == "occurrence":
            event = _require(ctx, _calendar(ctx, args), event_id)
            if event.is_recurring_series:
                raise EventFieldError("scope", "this id names the whole series; to change one "
                                      "occurrence, use that occurrence's id from list_events")
        return None  # a series by its own id (`following` from its first is the series)
    if scope not in ("following", "series"):
        return None
    master = ctx.backend.get_event(_calendar(ctx, args), parts[0])
    if master is None or not master.is_recurring_series:
        return None  # not an occurrence of a series here: the plain way names what is wrong
    original = stamp_original(parts[1])
    if isinstance(original, datetime):
        original = original.astimezone(master.zone)
    if master.all_day == isinstance(original, datetime) or not is_occurrence(master, original):
        raise EventFieldError("event_id", f"{event_id!r} is not an occurrence of that series")
    if scope == "following" and not before_split(master, original):
        scope = "series"  # from its first occurrence on is all of it
    return Target(scope, master, original)


# ------------------------------------------------------------------ what a split carries over
@dataclass(frozen=True)
class Carried:
    """One occurrence of the old series changed (`patch`) or cancelled (`patch` None) on its
    own, at or after the split, and the occurrence of the new series it becomes."""

    old_id: str
    new_id: str
    patch: EventPatch | None
    kept_on_old: bool
    """Whether the old series holds a changed copy to remove (a cancelled one needs nothing)."""


def _own_changes(ctx: ToolContext, calendar_id: str, master: Event,
                 original: date | datetime) -> tuple[list[Event], list[date | datetime]]:
    """The occurrences from `original` on that differ from what the rule makes (changed) and
    the ones the rule makes that are not there (cancelled), read through the backend's own
    listing so that every backend answers alike."""
    tz = master.zone
    start = local_start_of(original, tz)
    end = series_end(master)
    last = start + HORIZON if end is None else min(end + timedelta(days=1), start + HORIZON)
    listed = ctx.backend.list_events(calendar_id, start, last)
    expected = [o for o in occurrences(master, start, last) if local_start_of(o, tz) >= start]
    seen: dict[str, Event] = {}
    for event in listed:
        parts = instance_parts(event.id)
        if parts is not None and parts[0] == master.id:
            seen[parts[1]] = event
    changed: list[Event] = []
    cancelled: list[date | datetime] = []
    for occ in expected:
        made = virtual_instance(master, occ)
        stamp = instance_parts(made.id)
        assert stamp is not None
        found = seen.get(stamp[1])
        if found is None:
            cancelled.append(occ)
        elif _differs(found, made):
            changed.append(found)
    return changed, cancelled


def _differs(event: Event, made: Event) -> bool:
    return any(getattr(event, k) != getattr(made, k) for k in _CONTENT) or \
        (event.start_instant, event.end_instant, event.all_day) != \
        (made.start_instant, made.end_instant, made.all_day)


def _moved(original: date | datetime, shift: timedelta, master: Event, new: Event) -> date | datetime:
    """Where an occurrence of the old series falls in the new one."""
    if master.all_day:
        return as_date(original) + timedelta(days=shift.days)
    wall = local_start_of(original, master.zone).replace(tzinfo=None) + shift
    return local_start_of(wall.replace(tzinfo=new.zone), new.zone)


def _carried(ctx: ToolContext, calendar_id: str, master: Event, original: date | datetime,
             new: Event, shift: timedelta) -> list[Carried]:
    """What the split carries to `new`; a changed occurrence with no place in the new pattern is
    refused before anything is written (dropping it would lose what the person set)."""
    changed, cancelled = _own_changes(ctx, calendar_id, master, original)
    carried: list[Carried] = []
    for occ in cancelled:
        to = _moved(occ, shift, master, new)
        if is_occurrence(new, to):
            carried.append(Carried(instance_id(master.id, occ), instance_id(new.id, to), None, False))
    for event in changed:
        parts = instance_parts(event.id)
        assert parts is not None
        own: date | datetime = event.original_start or stamp_original(parts[1])
        to = _moved(own, shift, master, new)
        if not is_occurrence(new, to):
            raise EventFieldError("scope", f"the {_day(event)} '{event.title}' was changed on its "
                                  "own and has no place in the new pattern; change or remove it "
                                  "first")
        made = virtual_instance(master, own)
        fields: dict[str, Any] = {k: getattr(event, k) for k in _CONTENT
                                  if getattr(event, k) != getattr(made, k)}
        for listed in ("attendees", "reminders"):
            if fields.get(listed) is not None:
                fields[listed] = list(fields[listed])
        if (event.start_instant, event.end_instant) != (made.start_instant, made.end_instant):
            lands = virtual_instance(new, to)
            fields["start"] = format_when(_plus(lands.start, event.start, made.start, event))
            fields["end"] = format_when(_plus(lands.start, event.end, made.start, event))
        carried.append(Carried(event.id, instance_id(new.id, to), EventPatch(fields), True))
    return carried


def _plus(base: date | datetime, value: date | datetime, made: date | datetime,
          event: Event) -> date | datetime:
    """`value` kept at the same distance from `base` as it was from `made` (the rule's start)."""
    if isinstance(base, datetime) and isinstance(value, datetime) and isinstance(made, datetime):
        return (base + (value - made)).astimezone(event.zone)
    return as_date(base) + (as_date(value) - as_date(made))


def _day(event: Event) -> str:
    return day_label(as_date(local_start_of(event.start, event.zone)))


# ------------------------------------------------------------------------------- the writes
class _Writes:
    """The call's journaled writes, undone together if one of them fails."""

    def __init__(self, ctx: ToolContext, tool: str, calendar_id: str) -> None:
        self.ctx, self.tool, self.calendar_id = ctx, tool, calendar_id
        self.entries: list[int] = []

    def create(self, event: Event) -> Event:
        made, _ = _journalled(self.ctx, self.tool, self.calendar_id, event.id,
                              lambda: self.ctx.backend.create_event(self.calendar_id, event,
                                                                    turn_id=self.ctx.turn_id),
                              intent=Intent.create(event), started=self.entries)
        assert made is not None
        self.ctx.created_in_turn.add(made.id)
        return made

    def patch(self, current: Event, patch: EventPatch) -> Event:
        made, _ = _journalled(self.ctx, self.tool, self.calendar_id, current.id,
                              lambda: self.ctx.backend.patch_event(
                                  self.calendar_id, current.id, patch,
                                  if_match=current.version or None),
                              intent=Intent.update(apply_patch(current, patch)),
                              base_version=current.version or None, started=self.entries)
        assert made is not None
        return made

    def delete(self, current: Event) -> None:
        _journalled(self.ctx, self.tool, self.calendar_id, current.id,
                    lambda: self.ctx.backend.delete_event(self.calendar_id, current.id,
                                                          if_match=current.version or None),
                    intent=Intent.delete(), base_version=current.version or None,
                    started=self.entries)

    def event(self, event_id: str) -> Event:
        found = self.ctx.backend.get_event(self.calendar_id, event_id)
        if found is None:
            raise CalendarError(f"event {event_id!r} disappeared during the change")
        return found

    def undo(self, exc: Exception) -> CalendarError:
        """The writes so far undone; the error to return."""
        journal = self.ctx.journal
        if journal is None or not self.entries:
            return exc if isinstance(exc, CalendarError) else CalendarError(str(exc))
        undo = journal.rollback_entries(self.ctx.turn_id,
                                        journal.entries(self.ctx.turn_id, ids=self.entries))
        return CalendarError(f"the change stopped part-way ({exc}); what it had written was "
                             f"undone: {undo.summary()}")


def _trim(writes: _Writes, master: Event, original: date | datetime) -> Event:
    """The old series ended before `original`, read afresh (carrying changes out of a CalDAV
    series rewrites the same resource) and refused if anyone else changed it meanwhile."""
    fresh = writes.event(master.id)
    if any(getattr(fresh, k) != getattr(master, k) for k in (*_CONTENT, "recurrence")) or \
            (fresh.start_instant, fresh.end_instant) != (master.start_instant, master.end_instant):
        raise CalendarError("the series was changed elsewhere meanwhile; read it again")
    return writes.patch(fresh, EventPatch({"recurrence": list(kept_rule(master, original))}))


def _split_words(original: date | datetime, master: Event) -> str:
    return day_label(as_date(local_start_of(original, master.zone)))


def update_following(ctx: ToolContext, args: dict[str, Any], aim: Target) -> ToolResult:
    calendar_id = _calendar(ctx, args)
    master, original = aim.master, aim.original
    new, carried = prepare_following(ctx, args, aim)
    writes = _Writes(ctx, "update_calendar_event", calendar_id)
    try:
        made = writes.create(new)
        for carry in carried:
            target_event = writes.event(carry.new_id)
            if carry.patch is None:
                writes.delete(target_event)
            else:
                writes.patch(target_event, carry.patch)
        for carry in carried:
            if carry.kept_on_old:
                writes.delete(writes.event(carry.old_id))
        trimmed = _trim(writes, master, original)
    except Exception as exc:
        raise writes.undo(exc) from exc
    occurrence = virtual_instance(master, original)
    return ToolResult(
        text=(f"Split the series at {_split_words(original, master)}: from then on "
              f"{compact_row(made, ctx.timezone)}; until then {compact_row(trimmed, ctx.timezone)}"),
        cards=[EventCard("updated", made, occurrence)],
        data={"events": [made.to_contract(), trimmed.to_contract()], "scope": "following"})


def prepare_following(ctx: ToolContext, args: dict[str, Any],
                      aim: Target) -> tuple[Event, list[Carried]]:
    """The new series and what it carries, checked in full before anything is written."""
    calendar_id = _calendar(ctx, args)
    master, original = aim.master, aim.original
    occurrence = virtual_instance(master, original)
    patch = EventPatch(_event_fields(ctx, args))
    if not patch:
        raise EventFieldError("event_id", "no field to change was given")
    moved = apply_patch(occurrence.with_changes(recurrence=master.recurrence), patch)
    shift = wall_shift(occurrence.start, moved.start, occurrence, moved)
    rule = tuple(normalize_recurrence(patch.fields["recurrence"]) or ()) \
        if "recurrence" in patch.fields else until_as(following_rule(master, original, shift),
                                                      moved.all_day, moved.zone)
    if not rule:
        raise EventFieldError("recurrence", "a change from one occurrence on keeps repeating; "
                              "to make it a single event, change that occurrence alone")
    new = moved.with_changes(id=ctx.backend.new_event_id(), recurrence=rule,
                             recurring_event_id=None, original_start=None, version="",
                             calendar_id=calendar_id, status="confirmed")
    check_times(new)
    check_recurrence(new.recurrence, new.start, new.timezone)
    kept_rule(master, original)  # the old part's rule can be written
    return new, _carried(ctx, calendar_id, master, original, new, shift)


def delete_following(ctx: ToolContext, args: dict[str, Any], aim: Target) -> ToolResult:
    calendar_id = _calendar(ctx, args)
    master, original = aim.master, aim.original
    changed, _ = _own_changes(ctx, calendar_id, master, original)
    writes = _Writes(ctx, "delete_calendar_event", calendar_id)
    try:
        for event in changed:
            writes.delete(writes.event(event.id))
        trimmed = _trim(writes, master, original)
    except Exception as exc:
        raise writes.undo(exc) from exc
    ctx.deleted_in_turn += 1
    occurrence = virtual_instance(master, original)
    return ToolResult(
        text=(f"Deleted every occurrence from {_split_words(original, master)} on; kept "
              f"{compact_row(trimmed, ctx.timezone)}"),
        cards=[EventCard("deleted", None, occurrence)],
        data={**occurrence.to_contract(), "deleted": True, "scope": "following",
              "events": [trimmed.to_contract()]})


def series_args(ctx: ToolContext, args: dict[str, Any], aim: Target) -> dict[str, Any]:
    """An update of the whole series named through one of its occurrences, as the same update
    of the series by its own id: the occurrence's new time becomes the same move of the series'
    first start, and a day the rule names follows it."""
    master = aim.master
    occurrence = virtual_instance(master, aim.original)
    fields = _event_fields(ctx, args)
    moved = apply_patch(occurrence.with_changes(recurrence=master.recurrence), EventPatch(fields))
    item = {k: v for k, v in args.items() if k not in ("scope", "start", "end")}
    item["event_id"] = master.id
    if "start" in fields or "end" in fields or "all_day" in fields:
        shift = wall_shift(occurrence.start, moved.start, occurrence, moved)
        start = _moved(master.start, shift, master, moved)
        item["start"] = format_when(start)
        item["end"] = format_when(_plus(start, moved.end, moved.start, moved))
        if "recurrence" not in fields:
            rule = moved_rule(master.recurrence, occurrence.start, moved.start, shift)
            if rule is not None:
                item["recurrence"] = list(rule)
    return item


# ------------------------------------------------------------------------- the tools' code
def update_calendar_event(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    aim = target(ctx, args)
    if aim is None:
        return update_plainly(ctx, args)
    if aim.scope == "following":
        return update_following(ctx, args, aim)
    done = update_plainly(ctx, series_args(ctx, args, aim))
    # the series as written, under "events": its first start is not the occurrence's, and a
    # reader of the result (the guard) judges the times the call gave for the occurrence named
    return ToolResult(text=done.text, cards=done.cards,
                      data={"events": [done.data], "scope": "series"})


def delete_calendar_event(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    aim = target(ctx, args)
    if aim is None:
        return delete_plainly(ctx, args)
    if aim.scope == "following":
        return delete_following(ctx, args, aim)
    return delete_plainly(ctx, {**{k: v for k, v in args.items() if k != "scope"},
                                "event_id": aim.master.id})


def check_update(ctx: ToolContext, args: dict[str, Any]) -> None:
    """The full check, nothing written (the registry runs it before asking for a yes)."""
    aim = target(ctx, args)
    if aim is None:
        check_update_plainly(ctx, args)
    elif aim.scope == "following":
        prepare_following(ctx, args, aim)
    else:
        check_update_plainly(ctx, series_args(ctx, args, aim))


def check_delete(ctx: ToolContext, args: dict[str, Any]) -> None:
    if target(ctx, args) is None:
        check_delete_plainly(ctx, args)
