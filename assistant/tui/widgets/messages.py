"""The transcript's plain lines: what the person typed, and notices from the app itself."""
from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static


class UserMessage(Static):
    """What the person typed, right-aligned like a chat bubble."""

    def __init__(self, text: str, **kwargs: Any) -> None:
        super().__init__(Text(text), **kwargs)


class NoticeMessage(Static):
    """A line from the app itself (welcome, undo results, errors), not from the model."""
