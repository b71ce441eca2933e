"""The guard's `conflict` and `duplicate` findings (CONTRACT section 5, issue 17) over hand-written
cases (fixtures/corpus/guard_cases_overlaps.jsonl), labelled from the contract before the check
was read. One test per case. A case is judged on its validity, its error types, and its conflict
and duplicate warnings (`expect_warning_types`); other warnings are not what these cases are about.
"""
from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from reflection.case import case_from_json
from reflection.guard import Guard

OVERLAP_TYPES = ("conflict", "duplicate")


def _cases() -> list[dict[str, Any]]:
    text = resources.files("fixtures").joinpath("corpus/guard_cases_overlaps.jsonl").read_text(
        encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


CASES = _cases()
def test_the_cases_cover_both_findings_as_warnings_errors_and_absences() -> None:
    expects = [c["expect"] for c in CASES]
    for kind in OVERLAP_TYPES:
        assert any(kind in e["error_types"] for e in expects)
        assert any(kind in e["expect_warning_types"] for e in expects)
    assert sum(1 for e in expects if not e["error_types"] and not e["expect_warning_types"]) >= 4


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_guard_overlap_case(case: dict[str, Any]) -> None:
    verdict = Guard(mode="symbolic").judge(case_from_json(case)).verdict
    expect = case["expect"]
    found = [f"{f.severity} {f.type}: {f.issue}" for f in verdict.findings]
    assert verdict.valid == expect["valid"], found
    assert sorted({f.type for f in verdict.errors}) == expect["error_types"], found
    warned = sorted({f.type for f in verdict.warnings if f.type in OVERLAP_TYPES})
    assert warned == expect["expect_warning_types"], found
