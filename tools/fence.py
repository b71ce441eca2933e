"""Calendar text handed to a model: one way to clean it and one fence around it.

Titles, descriptions, locations, attendees and tool results are written by other people (an
invitation from anyone lands in the calendar), so whatever a model reads of them is data, never
instructions. The main model (tool results) and the reflection model (the guard's prompt) get
that text the same way: flattened to one line with no markup (`clean_text`), or as JSON whose
`<`/`>` are escaped (`fenced_json`), inside one `<calendar_data>` block (`fence`) that no piece of
calendar text can close.
"""
from __future__ import annotations

import json
import re
from typing import Any

from tools.calendar.events import plain_text

OPEN_TAG = "<calendar_data"
CLOSE_TAG = "</calendar_data>"
_MARKUP_RE = re.compile(r"[<>\s]+")


def clean_text(text: Any, limit: int) -> str:
    """Calendar text as one line: no markup, no control or bidi characters, at most `limit`."""
    if text is None or text == "":
        return ""
    flat = _MARKUP_RE.sub(" ", plain_text(str(text))).strip()
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _plain(value: Any) -> Any:
    if isinstance(value, str):
        return plain_text(value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def fenced_json(value: Any, limit: int | None = None) -> str:
    """`value` as one line of JSON safe inside the fence: strings made plain, `<` and `>`
    written as JSON escapes (the model still reads them; no tag can be closed or opened)."""
    text = json.dumps(_plain(value), ensure_ascii=False, default=str)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e")
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


def fence(body: list[str], note: str) -> list[str]:
    """The lines of `body` inside one data block, its note saying what the data is."""
    return [f'{OPEN_TAG} note="{clean_text(note, 200)}">', *body, CLOSE_TAG]
