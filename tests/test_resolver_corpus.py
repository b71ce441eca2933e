"""Runs every line of the independent labelled corpus fixtures/corpus/resolve_cases.jsonl through
reflection.resolver.resolve and compares the set of candidate starts over all expressions, the way
/work/shared/contract-check does (date-only starts by 10 chars, datetimes by 16: local wall time)."""
import json
from datetime import datetime
from pathlib import Path

import pytest

from reflection.resolver import resolve

CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "corpus" / "resolve_cases.jsonl"
CASES = [json.loads(l) for l in CORPUS.read_text(encoding="utf-8").splitlines() if l.strip()] if CORPUS.exists() else []


def norm(s: str) -> str:
    return s[:10] if len(s) <= 10 else s[:16]


@pytest.mark.skipif(not CASES, reason="corpus not present")
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_corpus_line(case):
    res = resolve(case["text"], datetime.fromisoformat(case["now"]), case["tz"]).to_json()
    got = {norm(c["start"]) for e in res["expressions"] for c in e["candidates"]}
    want = set(case["expect"]["candidates"])
    assert got == want, (case["text"], case.get("note"), [e["span"] for e in res["expressions"]])
    amb = any(e["ambiguous"] for e in res["expressions"]) or len(got) > 1
    assert amb == case["expect"]["ambiguous"]
