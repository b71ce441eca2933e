"""Alembic's environment for the store: migrations run on the connection `tools.store.database.Store.migrate`
hands over (already inside the writer's transaction), never on one opened from a config file."""
from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None)
with context.begin_transaction():
    context.run_migrations()
