"""What one turn produced: attempts, verdicts, rollbacks, cards, confidence, usage.

The TUI shows a `TurnReport`, `replay` prints it (CONTRACT section 6), `stats` aggregates it and
the lesson store learns from it: one record, four readers.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from reflection.findings import Confidence, Finding, Verdict
from tools.calendar.events import EventCard
from tools.context import ToolCall
from tools.journal.journal import RollbackReport

if TYPE_CHECKING:  # the SDK's closed list of stop reasons; importing it at run time would load the SDK
    from anthropic.types import StopReason



@dataclass
class Hold:
    """An unverified destructive change: undone, then put to the person (CONTRACT 5)."""

    reasons: list[str]  # what makes it destructive, in words
    doubts: list[str]  # why it could not be verified, in words
    undone: RollbackReport  # the rollback that took it back while the person decides
    calls: list[ToolCall] = field(default_factory=list)  # the calls as first run
    confirmed: bool = False  # the person said yes: the calls were made again, unjudged


@dataclass
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0
    calls: int = 0

    def add(self, other: Any) -> None:
        """Add an SDK `Usage` object (or another Usage)."""
        for name in ("input_tokens", "output_tokens", "cache_creation_input_tokens",
                     "cache_read_input_tokens"):
            setattr(self, name, getattr(self, name) + int(getattr(other, name, 0) or 0))
        self.calls += other.calls if isinstance(other, Usage) else 1  # an SDK usage is one call

    @property
    def total(self) -> int:
        return (self.input_tokens + self.output_tokens + self.cache_creation_input_tokens
                + self.cache_read_input_tokens)

    def to_json(self) -> dict[str, int]:
        return {"input_tokens": self.input_tokens, "output_tokens": self.output_tokens,
                "cache_creation_input_tokens": self.cache_creation_input_tokens,
                "cache_read_input_tokens": self.cache_read_input_tokens, "calls": self.calls}


@dataclass
class Attempt:
    number: int
    calls: list[ToolCall] = field(default_factory=list)
    reply: str = ""
    stop_reason: StopReason | None = None
    verdict: Verdict | None = None
    rollback: RollbackReport | None = None
    main_usage: Usage = field(default_factory=Usage)
    reflection_usage: Usage = field(default_factory=Usage)
    guard_ms: float = 0.0
    stopped: str | None = None  # why the loop stopped early (budget, rounds, refusal, error)
    hold: Hold | None = None  # unverified and destructive: undone and put to the person

    @property
    def held(self) -> bool:
        """Its change was held for the person's yes and not confirmed: nothing of it stands."""
        return self.hold is not None and not self.hold.confirmed

    @property
    def unfinished(self) -> bool:
        """Its rollback could not finish: the turn waits for the next start to finish undoing."""
        return self.rollback is not None and not self.rollback.complete

    @property
    def cards(self) -> list[EventCard]:
        return [card for c in self.calls if c.result for card in c.result.cards]


@dataclass
class TurnReport:
    turn_id: str
    user_message: str
    attempts: list[Attempt] = field(default_factory=list)
    reply: str = ""
    error: str | None = None  # a readable notice (network down, rate limited, budget spent)
    latency_ms: float = 0.0
    lessons_surfaced: list[int] = field(default_factory=list)
    lesson_candidates: int = 0

    @property
    def final(self) -> Attempt | None:
        return self.attempts[-1] if self.attempts else None

    @property
    def cards(self) -> list[EventCard]:
        """Cards of the attempt that stands (a rolled-back attempt's cards are dropped)."""
        final = self.final
        if final is None or (final.rollback is not None):
            return []
        return final.cards

    @property
    def findings(self) -> list[Finding]:
        return [f for a in self.attempts if a.verdict for f in a.verdict.findings]

    @property
    def rolled_back(self) -> list[str]:
        return [i for a in self.attempts if a.rollback for i in a.rollback.restored_ids]

    @property
    def conflicts(self) -> list[str]:
        """What a rollback could not put back, in words (titles and times, never ids)."""
        return [c.shown for a in self.attempts if a.rollback
                for c in a.rollback.conflicts + a.rollback.failures + a.rollback.skipped]

    @property
    def corrected(self) -> bool:
        return len(self.attempts) > 1

    @property
    def confidence(self) -> Confidence | None:
        """None when the final attempt changed nothing (it only asked a question, or every
        guarded call it made was refused or failed): there is no change to vouch for."""
        final = self.final
        if final is None or final.verdict is None:
            return None
        if self.conflicts:
            return "low"
        return final.verdict.confidence

    @property
    def held(self) -> bool:
        """The final attempt's change was held for the person's yes and not given it."""
        final = self.final
        return final is not None and final.held

    @property
    def unfinished(self) -> bool:
        """A rollback of this turn could not finish: the next start finishes it."""
        return any(a.unfinished for a in self.attempts)

    @property
    def verified(self) -> bool | None:
        """Whether what the turn left was checked and found right: None when it changed nothing
        (nothing was judged), False when it is wrong, not verified (no reflection answer for
        what code could not settle) or held for a yes."""
        final = self.final
        if final is None or final.verdict is None:
            return None
        return final.verdict.valid and not final.verdict.unverified and not final.held

    @property
    def doubts(self) -> list[str]:
        """Why the final change could not be verified, in words (empty when it was)."""
        final = self.final
        if final is None or final.verdict is None or not final.verdict.unverified:
            return []
        return list(final.verdict.doubts)

    @property
    def main_usage(self) -> Usage:
        total = Usage()
        for a in self.attempts:
            total.add(a.main_usage)
        return total

    @property
    def reflection_usage(self) -> Usage:
        total = Usage()
        for a in self.attempts:
            total.add(a.reflection_usage)
        return total

    def to_json(self) -> dict[str, Any]:
        """The CONTRACT section 6 turn report, plus optional detail."""
        return {"reply": self.reply, "attempts": len(self.attempts),
                "confidence": self.confidence, "rolled_back": self.rolled_back,
                "findings": [f.to_json() for f in self.findings],
                "conflicts": self.conflicts, "error": self.error,
                "cards": [c.to_json() for c in self.cards],
                "guard_ms": [round(a.guard_ms, 3) for a in self.attempts],
                "verified": self.verified, "doubts": self.doubts,
                "needs_confirmation": self.held, "unfinished": self.unfinished}


class TurnObserver(Protocol):
    """How a running turn tells the app what it is doing (the TUI implements it)."""

    def on_status(self, text: str) -> None:
        """A working state: "thinking…", "updating the calendar…", "checking the change…",
        "correcting…"."""

    def on_text_delta(self, text: str) -> None:
        """Reply text as it streams. Only sent while the attempt has written nothing: the text
        of an attempt that changed the calendar is held back until its verdict is in."""

    def on_draft_discarded(self) -> None:
        """The streamed text so far was a preamble to tool calls (or belongs to an attempt that
        is being redone): stop showing it."""


class NullObserver:
    def on_status(self, text: str) -> None:
        return None

    def on_text_delta(self, text: str) -> None:
        return None

    def on_draft_discarded(self) -> None:
        return None
