"""The working state of a running turn, with its spinner."""
from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class WorkingIndicator(Static):
    """The working state of a running turn: "checking the change…", "correcting…".

    It animates a spinner unless `animate` is off (tests and snapshots need a still frame).
    """

    def __init__(self, text: str = "thinking…", *, animate: bool = True, **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        self._label = text
        self._frame = 0
        self._motion = animate

    def on_mount(self) -> None:
        self._paint()
        if self._motion:
            self.set_interval(0.1, self._tick)

    def _tick(self) -> None:
        self._frame = (self._frame + 1) % len(SPINNER)
        self._paint()

    def _paint(self) -> None:
        glyph = SPINNER[self._frame] if self._motion else "…"
        self.update(Text.assemble((glyph + " ", "bold"), (self._label, "italic")))

    @property
    def label(self) -> str:
        return self._label

    def set_label(self, text: str) -> None:
        self._label = text
        self._paint()
