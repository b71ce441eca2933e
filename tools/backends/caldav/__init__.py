"""CalDAV calendars: the backend and the components of one resource (a series, its overrides and
EXDATEs).
"""
