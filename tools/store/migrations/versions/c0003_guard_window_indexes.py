"""calendar: indexes that keep the guard's window reads proportional to the rows they return
(issue 25).

- `ix_events_cal_series` (calendar, series) for the exceptions of the listed series: without
  it SQLite reads `recurring_event_id IN (...)` through the primary key's calendar prefix, every
  row of the calendar (27 ms of a 100,000-event listing).
- `ix_events_window_texts` (SQLite only): the window's single events with their texts, so the
  distinct titles, places and guests of a window (`LocalBackend.window_texts`) are read from
  the index alone. Not on PostgreSQL, whose b-tree entries cannot hold long descriptions.
- `ix_events_master_rules` (SQLite only, like the one above): each series' rule, start, length
  and zone, so a listing passes over the series that ended before its window (most of them, in
  a calendar of ten years) without reading their rows.

Revision ID: c0003
Revises: c0002
"""
from __future__ import annotations

from alembic import op
from sqlalchemy import text

revision = "c0003"
down_revision = "c0002"
branch_labels = None
depends_on = None

_RULE_COLUMNS = ["calendar_id", "start_utc", "status", "recurring_event_id", "id", "start", "end",
                 "timezone", "all_day", "recurrence"]
_TEXTS_COLUMNS = ["calendar_id", "start_utc", "end_utc", "status", "recurrence", "recurring_event_id",
                  "id", "title", "description", "location", "attendees"]


def upgrade() -> None:
    exceptions = text("recurring_event_id IS NOT NULL")
    op.create_index("ix_events_cal_series", "events", ["calendar_id", "recurring_event_id"],
                    sqlite_where=exceptions, postgresql_where=exceptions, if_not_exists=True)
    if op.get_bind().dialect.name == "sqlite":
        op.execute("CREATE INDEX IF NOT EXISTS ix_events_window_texts ON events ("
                   + ", ".join(f'"{c}"' for c in _TEXTS_COLUMNS) + ") WHERE recurrence IS NULL")
        op.execute("CREATE INDEX IF NOT EXISTS ix_events_master_rules ON events ("
                   + ", ".join(f'"{c}"' for c in _RULE_COLUMNS) + ") WHERE recurrence IS NOT NULL")


def downgrade() -> None:
    op.drop_index("ix_events_master_rules", "events", if_exists=True)
    op.drop_index("ix_events_window_texts", "events", if_exists=True)
    op.drop_index("ix_events_cal_series", "events", if_exists=True)
