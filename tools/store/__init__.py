"""What the app keeps in its home dir: the databases (`database`: SQLite files or `DATABASE_URL`,
the writer lock, and the alembic migrations that bring any older store to the newest schema, with
`adoption` for tables made before them) and the private files written whole (`files`).
"""
