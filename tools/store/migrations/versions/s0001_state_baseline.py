"""state: the journal, undo records, turn records, history and lessons as of the first
migration (adopts older files: a journal from before owners and intents gets those columns).

Revision ID: s0001
Revises: (base of the `state` branch)
"""
from __future__ import annotations

from alembic import op
from sqlalchemy import Boolean, Column, DateTime, Float, Integer, MetaData, String, Table

from tools.store.adoption import adopt

revision = "s0001"
down_revision = None
branch_labels = ("state",)
depends_on = None


def _when(name: str, nullable: bool = False) -> Column[object]:
    """A moment: timestamptz on PostgreSQL (sqlmodel's UTCDateTime reads it back as aware UTC)."""
    return Column(name, DateTime(timezone=True), nullable=nullable)


metadata = MetaData()
TABLES = [
    Table(
        "journal_turns", metadata,
        Column("turn_id", String, primary_key=True),
        Column("backend", String, nullable=False, default="local"),
        Column("state", String, nullable=False, default="open"),
        _when("started_at"),
        _when("closed_at", nullable=True),
        Column("owner", String),
        Column("recovery_tries", Integer, nullable=False, default=0),
        Column("last_error", String),
    ),
    Table(
        "journal_entries", metadata,
        Column("id", Integer, primary_key=True),
        Column("turn_id", String, nullable=False, index=True),
        Column("attempt", Integer, nullable=False, default=1),
        Column("tool", String, nullable=False),
        Column("calendar_id", String, nullable=False),
        Column("event_id", String, nullable=False),
        Column("pre", String, nullable=False),
        Column("pre_event", String),
        Column("post", String),
        Column("post_version", String),
        Column("post_event", String),
        Column("intent", String),
        Column("base_version", String),
        Column("note", String),
        Column("state", String, nullable=False, default="pending"),
        _when("created_at"),
    ),
    Table(
        "undo_records", metadata,
        Column("turn_id", String, primary_key=True),
        Column("entry_ids", String, nullable=False),
        _when("undone_at"),
        Column("redone_as", String),
    ),
    Table(
        "turn_records", metadata,
        Column("turn_id", String, primary_key=True),
        _when("recorded_at"),
        Column("user_message", String, nullable=False),
        Column("attempts", Integer, nullable=False),
        Column("guarded", Boolean, nullable=False),
        Column("confidence", String),
        Column("first_valid", Boolean),
        Column("final_valid", Boolean),
        Column("rolled_back", String, nullable=False, default="[]"),
        Column("conflicts", String, nullable=False, default="[]"),
        Column("findings", String, nullable=False, default="[]"),
        Column("latency_ms", Float, nullable=False, default=0.0),
        Column("guard_ms", Float, nullable=False, default=0.0),
        Column("llm_calls", Integer, nullable=False, default=0),
        Column("main_input_tokens", Integer, nullable=False, default=0),
        Column("main_output_tokens", Integer, nullable=False, default=0),
        Column("reflection_input_tokens", Integer, nullable=False, default=0),
        Column("reflection_output_tokens", Integer, nullable=False, default=0),
        Column("error", String),
    ),
    Table(
        "conversations", metadata,
        Column("id", String, primary_key=True),
        _when("started_at"),
        Column("kind", String, nullable=False, default="chat"),
    ),
    Table(
        "messages", metadata,
        Column("id", Integer, primary_key=True),
        Column("conversation_id", String, nullable=False, index=True),
        Column("turn_id", String),
        Column("role", String, nullable=False),
        Column("content", String, nullable=False),
        _when("created_at"),
    ),
    Table(
        "lessons", metadata,
        Column("id", Integer, primary_key=True),
        Column("fingerprint", String, nullable=False, index=True, unique=True),
        Column("type", String, nullable=False),
        Column("severity", String, nullable=False, default="warning"),
        Column("text", String, nullable=False),
        Column("rationale", String, nullable=False),
        Column("change", String, nullable=False, default=""),
        Column("source", String, nullable=False, default="symbolic"),
        Column("change_source", String, nullable=False, default="symbolic"),
        Column("entities", String, nullable=False, default="[]"),
        Column("provenance", String, nullable=False, default="[]"),
        Column("guard_version", String, nullable=False, default=""),
        Column("seen_count", Integer, nullable=False, default=1),
        _when("first_seen"),
        _when("last_seen"),
        Column("resolved", Boolean, nullable=False, default=False),
        _when("resolved_at", nullable=True),
    ),
    Table(
        "lesson_events", metadata,
        Column("id", Integer, primary_key=True),
        Column("kind", String, nullable=False, index=True),
        Column("turn_id", String),
        _when("at"),
        Column("lesson_id", Integer),
        Column("fingerprint", String),
        Column("data", String, nullable=False, default="{}"),
    ),
]


def upgrade() -> None:
    adopt(op.get_bind(), TABLES)


def downgrade() -> None:
    for table in reversed(TABLES):
        op.drop_table(table.name)
