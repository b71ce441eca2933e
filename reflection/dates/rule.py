"""The shape of a grammar rule: a compiled pattern and a handler from one match to an `Atom`
(or None when the match, read in context, is not a date/time phrase after all)."""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from reflection.dates.values import Atom, Ctx

I = re.IGNORECASE

Handler = Callable[[re.Match[str], Ctx], "Atom | None"]


def rx(pattern: str, flags: int = I) -> re.Pattern[str]:
    return re.compile(pattern, flags)


@dataclass(frozen=True)
class Rule:
    """One phrase family. `retry`: a match the handler rejects does not hide a later overlapping
    match of the same pattern (used for numeric dates like 1-2-2025 inside 11-1-2-2025)."""
    name: str
    pattern: re.Pattern[str]
    handler: Handler
    retry: bool = False


def ap_of(s: str | None) -> str | None:
    """'p.m.' -> 'pm', 'a' -> 'am', None -> None."""
    return None if not s else ("am" if s.lower().startswith("a") else "pm")
