"""How sure the assistant is about a turn, and why."""
from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static

from assistant.tui.formatting import Outcome

OUTCOME_ICONS = {"verified": "✔", "noted": "✔", "corrected": "↺", "unverified": "?", "held": "⏸",
                 "doublecheck": "⚠", "error": "✖"}


class OutcomeBadge(Static):
    """How sure the assistant is about a turn, and why; coloured by confidence, which is said
    once, in the border ("confidence: high"), as the why screen says it (not also "(sure)")."""

    def __init__(self, outcome: Outcome, **kwargs: Any) -> None:
        self.outcome = outcome
        super().__init__(self._render_text(), **kwargs)
        self.add_class(f"-{outcome.kind}")
        if outcome.confidence:
            self.border_title = f"confidence: {outcome.confidence}"
            self.border_subtitle = "ctrl+f: why"

    def _render_text(self) -> Text:
        o = self.outcome
        text = Text()
        text.append(f"{OUTCOME_ICONS.get(o.kind, '•')} {o.title}", style="bold")
        for line in o.lines:
            text.append("\n" + line)
        return text

    @property
    def plain(self) -> str:
        return "\n".join([self.outcome.title, *self.outcome.lines])
