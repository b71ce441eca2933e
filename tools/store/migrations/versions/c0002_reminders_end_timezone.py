"""calendar: each event's reminders and the zone of its end (issue 26).

`reminders` holds the minutes before the start as JSON (`[30, 1440]`; `[]` for none), NULL for
the calendar's default; `end_timezone` the end's own zone when it differs from the start's (a
flight), NULL otherwise. Both are nullable with no default, so every event already stored reads
as it did: the calendar's default reminders, ending in its own zone.

Revision ID: c0002
Revises: c0001
"""
from __future__ import annotations

from alembic import op
from sqlalchemy import Column, String, inspect

revision = "c0002"
down_revision = "c0001"
branch_labels = None
depends_on = None

NEW_COLUMNS = ("reminders", "end_timezone")


def upgrade() -> None:
    present = {c["name"] for c in inspect(op.get_bind()).get_columns("events")}
    for name in NEW_COLUMNS:
        if name not in present:  # a store some later copy already widened keeps its data
            op.add_column("events", Column(name, String, nullable=True))


def downgrade() -> None:
    for name in reversed(NEW_COLUMNS):
        op.drop_column("events", name)
