"""The guard's vocabulary: a `Finding` (what is wrong, how badly, who said so) and a `Verdict`.

Severity carries the whole decision: an `error` means the outcome is wrong and the attempt is
rolled back; a `warning` means the process was imperfect but the outcome stands (CONTRACT 5).
Every closed set of words the guard uses is a `Literal` here (finding type, severity, source,
confidence, fact kind, guard mode), so the settings, the reports and the records share one
definition and mypy catches a misspelt one.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal, get_args

FindingType = Literal["date", "time", "timezone", "event_id", "location", "process", "ambiguity",
                      "reflection_unavailable", "conflict", "duplicate", "other", "calendar",
                      "reminder"]
Severity = Literal["error", "warning"]
Source = Literal["symbolic", "llm"]
Confidence = Literal["high", "medium", "low"]
FactKind = Literal["weekday", "relation", "reading", "event", "place", "id"]
GuardMode = Literal["auto", "always", "symbolic"]
"""`symbolic`: never call the reflection model; `always`: call it for every guarded attempt;
`auto`: only when the symbolic layer could not verify every guarded call."""
FINDING_TYPES: tuple[FindingType, ...] = get_args(FindingType)
SEVERITIES: tuple[Severity, ...] = get_args(Severity)
CONFIDENCES: tuple[Confidence, ...] = get_args(Confidence)
GUARD_MODES: tuple[GuardMode, ...] = get_args(GuardMode)
CONFIDENCE_ORDER: dict[Confidence, int] = {"low": 0, "medium": 1, "high": 2}


def as_confidence(value: object) -> Confidence | None:
    """`value` when it is one of the confidence words (a model's answer may hold anything)."""
    for level in CONFIDENCES:
        if value == level:
            return level
    return None


def median_confidence(levels: list[Confidence]) -> Confidence:
    """The middle of the stated confidences (the upper middle for an even count); `levels` is
    not empty."""
    return sorted(levels, key=CONFIDENCE_ORDER.__getitem__)[len(levels) // 2]


@dataclass(frozen=True)
class Finding:
    type: FindingType
    severity: Severity
    issue: str
    correction: str = ""
    source: Source = "symbolic"
    call_index: int | None = None  # which guarded call it concerns, when known
    phrase: str | None = None  # the person's words it concerns ("next Friday", "home")
    proof: dict[str, Any] | None = field(default=None, compare=False)
    """For an error computed in code: why it is proven (the phrase, its role, which call it is
    bound to, every reading accepted, the value written), so tests and `check --explain` read
    the proof rather than the wording."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type, "severity": self.severity, "source": self.source,
                "issue": self.issue, "correction": self.correction}
        if self.call_index is not None:
            data["call_index"] = self.call_index
        if self.phrase:
            data["phrase"] = self.phrase
        if self.proof:
            data["proof"] = self.proof
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Finding:
        return cls(type=data["type"], severity=data["severity"], issue=data["issue"],
                   correction=data.get("correction") or "", source=data.get("source", "symbolic"),
                   call_index=data.get("call_index"), phrase=data.get("phrase"),
                   proof=data.get("proof") if isinstance(data.get("proof"), dict) else None)

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


@dataclass(frozen=True)
class Fact:
    """Something computed in code that the reflection model may not contradict."""

    kind: FactKind
    subject: str
    statement: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Verdict:
    findings: list[Finding] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    llm_needed: bool = False
    llm_used: bool = False
    llm_confidence: Confidence | None = None  # what a reflection answer stated, if any
    doubts: list[str] = field(default_factory=list)
    """Why code could not verify the change in full, in words (empty when it did)."""

    @property
    def unverified(self) -> bool:
        """Valid only for want of proof: code could not verify it in full and no reflection
        answer was had. The person must be told plainly (CONTRACT 5, without a reflection model),
        never "verified"."""
        return self.valid and self.llm_needed and not self.llm_used

    @property
    def valid(self) -> bool:
        return not any(f.is_error for f in self.findings)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.is_error]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if not f.is_error]

    @property
    def confidence(self) -> Confidence:
        level: Confidence
        if not self.valid:
            level = "low"
        elif self.warnings:
            level = "medium"
        else:
            level = "high"
        stated = self.llm_confidence
        if self.llm_used and stated is not None and CONFIDENCE_ORDER[stated] < CONFIDENCE_ORDER[level]:
            level = stated
        return level

    def to_json(self, case_id: Any = None) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if case_id is not None:
            data["id"] = case_id
        data.update({"valid": self.valid, "confidence": self.confidence,
                     "llm_needed": self.llm_needed, "llm_used": self.llm_used,
                     "findings": [f.to_json() for f in self.findings]})
        if self.doubts:
            data["doubts"] = list(self.doubts)
        return data
