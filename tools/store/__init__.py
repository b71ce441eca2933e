"""The store's databases: engines (SQLite files or `DATABASE_URL`), the writer lock, and the
alembic migrations that bring any older store to the newest schema.
"""
