"""calendar: the local calendars' tables as of the first migration (adopts older files).

Revision ID: c0001
Revises: (base of the `calendar` branch)
"""
from __future__ import annotations

from alembic import op
from sqlalchemy import Boolean, Column, Index, Integer, MetaData, String, Table

from tools.store.adoption import adopt

revision = "c0001"
down_revision = None
branch_labels = ("calendar",)
depends_on = None

metadata = MetaData()
calendars = Table(
    "calendars", metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("timezone", String),
    Column("is_primary", Boolean, nullable=False, default=False),
)
events = Table(
    "events", metadata,
    Column("calendar_id", String, primary_key=True),
    Column("id", String, primary_key=True),
    Column("title", String, nullable=False, default=""),
    Column("start", String, nullable=False),
    Column("end", String, nullable=False),
    Column("all_day", Boolean, nullable=False, default=False),
    Column("timezone", String, nullable=False, default="UTC"),
    Column("location", String),
    Column("description", String),
    Column("attendees", String, nullable=False, default="[]"),
    Column("recurrence", String),
    Column("recurring_event_id", String, index=True),
    Column("original_start", String),
    Column("status", String, nullable=False, default="confirmed"),
    Column("version", Integer, nullable=False, default=1),
    Column("turn_id", String),
    Column("start_utc", Integer, nullable=False, index=True),
    Column("end_utc", Integer, nullable=False, index=True),
)
_E = events.c
_SINGLE = _E.recurrence.is_(None)
Index("ix_events_span", _E.calendar_id, _E.end_utc - _E.start_utc,
      sqlite_where=_SINGLE, postgresql_where=_SINGLE)
Index("ix_events_cal_start", _E.calendar_id, _E.start_utc,
      sqlite_where=_SINGLE, postgresql_where=_SINGLE)
Index("ix_events_masters", _E.calendar_id, _E.start_utc,
      sqlite_where=_E.recurrence.is_not(None), postgresql_where=_E.recurrence.is_not(None))


def upgrade() -> None:
    adopt(op.get_bind(), [calendars, events])


def downgrade() -> None:
    op.drop_table("events")
    op.drop_table("calendars")
