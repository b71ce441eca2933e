"""Occurrence ids of recurring events, one rule for every backend and for the guard.

CONTRACT section 2: an occurrence of a recurring event is `<series id>_<YYYYMMDD>` (all day) or
`<series id>_<YYYYMMDDTHHMMSSZ>` (its original start in UTC). Google's own ids use only `a-v0-9`.
"""
from __future__ import annotations

import re

from tools.local_backend import is_occurrence, occurrences

__all__ = ["is_occurrence", "occurrences", "instance_parts", "series_of", "is_google_id"]

INSTANCE_RE = re.compile(r"^(?P<base>.+)_(?P<stamp>\d{8}(?:T\d{6}Z)?)$")
GOOGLE_EVENT_ID_RE = re.compile(r"^[a-v0-9]{5,1024}$")
GOOGLE_INSTANCE_ID_RE = re.compile(r"^(?P<base>[a-v0-9]{5,1024})_(?P<stamp>\d{8}(?:T\d{6}Z)?)$")


def instance_parts(event_id: str) -> tuple[str, str] | None:
    """(series id, stamp) of an occurrence id, or None for any other id."""
    match = INSTANCE_RE.match(event_id)
    return (match.group("base"), match.group("stamp")) if match else None


def series_of(event_id: str) -> str | None:
    parts = instance_parts(event_id)
    return parts[0] if parts else None


def is_google_id(event_id: str) -> bool:
    """Whether Google could hold this id: a base32hex id, or an occurrence of one."""
    return bool(GOOGLE_EVENT_ID_RE.match(event_id) or GOOGLE_INSTANCE_ID_RE.match(event_id))
