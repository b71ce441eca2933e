"""The symbolic layer's checks, by name, in the order they run.

Each check is a small function over a `CheckContext`: it adds findings (errors only where it can
prove them) and marks calls it could not verify. Structural checks run before date checks, so a
call already shown to touch the wrong event is not also judged against another event's phrases
(one finding per problem).
"""
from __future__ import annotations

from collections.abc import Callable

from reflection.checks.calendars import check_calendar
from reflection.checks.context import CheckContext
from reflection.checks.created import (
    check_all_day_spans,
    check_created_titles,
    check_invited,
    check_renamed_titles,
)
from reflection.checks.dates import (
    check_contradictions,
    check_end,
    check_other_fields,
    check_recurrence_rule,
    check_start,
    check_written_values,
)
from reflection.checks.groups import check_group_span
from reflection.checks.ids import check_ids
from reflection.checks.overlaps import check_overlaps
from reflection.checks.places import check_location_lookups, check_places
from reflection.checks.provenance import check_provenance
from reflection.checks.reminders import check_reminders
from reflection.checks.structure import (
    check_all_parts_done,
    check_create_vs_move,
    check_delete_vs_change,
    check_half_done,
    check_held_back,
    check_named_by_time,
    check_named_event,
    check_series_scope,
    check_swap,
    check_unreferenced,
)
from reflection.checks.zones import check_zone_drift

Check = Callable[[CheckContext], None]

CHECKS: tuple[tuple[str, Check], ...] = (
    ("written values are dates", check_written_values),
    ("ids exist", check_ids),
    ("what untrusted text asked for", check_provenance),
    ("an event named by its time", check_named_by_time),
    ("events the message refers to", check_unreferenced),
    ("a group bounded by a day", check_group_span),
    ("the named event", check_named_event),
    ("delete or change", check_delete_vs_change),
    ("create or move", check_create_vs_move),
    ("series or occurrence", check_series_scope),
    ("a change said not to be made", check_held_back),
    ("impossible dates", check_contradictions),
    ("start", check_start),
    ("end and length", check_end),
    ("other fields", check_other_fields),
    ("reminders", check_reminders),
    ("created titles", check_created_titles),
    ("renamed titles", check_renamed_titles),
    ("invited addresses", check_invited),
    ("calendar", check_calendar),
    ("all-day spans", check_all_day_spans),
    ("repeat rule", check_recurrence_rule),
    ("a series on another place's clock", check_zone_drift),
    ("swap", check_swap),
    ("list done", check_half_done),
    ("every part done", check_all_parts_done),
    ("places", check_places),
    ("place lookups", check_location_lookups),
    ("overlaps", check_overlaps),
)
