"""Turn records: what every guarded turn did, kept so `stats` can say what the guard is worth.

One row a turn: attempts, findings, rollbacks, confidence, latency, and the tokens of the main and
the reflection calls (so the reflection's cost relative to the main calls is a measured figure).
"""
from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlmodel import AutoString, Field, Session, SQLModel, col, select

from assistant.report import TurnReport
from reflection.findings import Confidence
from tools.store.database import Store


class TurnRecord(SQLModel, table=True):
    __tablename__ = "turn_records"
    turn_id: str = Field(primary_key=True)
    recorded_at: datetime = Field(default_factory=lambda: datetime.now(UTC))
    user_message: str
    attempts: int
    guarded: bool
    confidence: Confidence | None = Field(default=None, sa_type=AutoString)
    first_valid: bool | None = None
    final_valid: bool | None = None
    rolled_back: str = "[]"
    conflicts: str = "[]"
    findings: str = "[]"  # per attempt: [[finding json...], ...]
    latency_ms: float = 0.0
    guard_ms: float = 0.0
    llm_calls: int = 0
    main_input_tokens: int = 0
    main_output_tokens: int = 0
    reflection_input_tokens: int = 0
    reflection_output_tokens: int = 0
    error: str | None = None


class TurnRecorder:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine
        store.migrate("state")

    def record(self, report: TurnReport) -> None:
        first = report.attempts[0] if report.attempts else None
        final = report.final
        main, refl = report.main_usage, report.reflection_usage
        row = TurnRecord(
            turn_id=report.turn_id, user_message=report.user_message[:2000],
            attempts=len(report.attempts),
            guarded=any(a.verdict is not None for a in report.attempts),
            confidence=report.confidence,
            first_valid=first.verdict.valid if first and first.verdict else None,
            final_valid=final.verdict.valid if final and final.verdict else None,
            rolled_back=json.dumps(report.rolled_back), conflicts=json.dumps(report.conflicts),
            findings=json.dumps([[f.to_json() for f in a.verdict.findings] if a.verdict else []
                                 for a in report.attempts]),
            latency_ms=report.latency_ms, guard_ms=sum(a.guard_ms for a in report.attempts),
            llm_calls=refl.calls,
            main_input_tokens=main.input_tokens + main.cache_read_input_tokens + main.cache_creation_input_tokens,
            main_output_tokens=main.output_tokens,
            reflection_input_tokens=refl.input_tokens + refl.cache_read_input_tokens + refl.cache_creation_input_tokens,
            reflection_output_tokens=refl.output_tokens, error=report.error)
        with Session(self.engine) as session:
            session.merge(row)
            session.commit()

    def all(self) -> list[TurnRecord]:
        with Session(self.engine) as session:
            rows = session.exec(select(TurnRecord).order_by(col(TurnRecord.recorded_at))).all()
            session.expunge_all()
            return list(rows)


def summarize(records: list[TurnRecord]) -> dict[str, Any]:
    """The figures `stats` prints: each is counted from the records, nothing estimated."""
    guarded = [r for r in records if r.guarded]
    caught = [r for r in guarded if r.first_valid is False]
    retried = [r for r in caught if r.attempts > 1]
    fixed = [r for r in retried if r.final_valid]
    main_tokens = sum(r.main_input_tokens + r.main_output_tokens for r in records)
    refl_tokens = sum(r.reflection_input_tokens + r.reflection_output_tokens for r in records)
    by_conf: dict[str, int] = {}
    for r in guarded:
        by_conf[r.confidence or "none"] = by_conf.get(r.confidence or "none", 0) + 1
    return {
        "turns": len(records),
        "guarded_turns": len(guarded),
        "errors_caught": len(caught),
        "rollbacks": sum(1 for r in records if json.loads(r.rolled_back)),
        "rollback_conflicts": sum(1 for r in records if json.loads(r.conflicts)),
        "retries": len(retried),
        "retries_that_fixed_the_error": len(fixed),
        "confidence": by_conf,
        "reflection_calls": sum(r.llm_calls for r in records),
        "main_tokens": main_tokens,
        "reflection_tokens": refl_tokens,
        "reflection_token_share": round(refl_tokens / main_tokens, 4) if main_tokens else None,
        "median_guard_ms": _median([r.guard_ms for r in guarded]),
        "median_latency_ms": _median([r.latency_ms for r in records]),
    }


def _median(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    mid = len(ordered) // 2
    return round(ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2, 2)
