"""Runs every line of the independent labelled corpora fixtures/corpus/resolve_cases.jsonl and
resolve_cases_people.jsonl (written from the contract by people who did not read the resolver)
through reflection.dates.resolver.resolve and compares the set of candidate starts over all
expressions, the way /work/shared/contract-check does (date-only starts by 10 chars, datetimes by
16: local wall time)."""
import json
from datetime import datetime
from pathlib import Path

import pytest

from reflection.dates.resolver import resolve

CORPUS_DIR = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"
FILES = ("resolve_cases.jsonl", "resolve_cases_people.jsonl")
CASES = [json.loads(line) for name in FILES if (CORPUS_DIR / name).exists()
         for line in (CORPUS_DIR / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def norm(s: str) -> str:
    return s[:10] if len(s) <= 10 else s[:16]


def test_both_corpora_are_present():
    ids = {c["id"] for c in CASES}
    assert "r001" in ids and "rp001" in ids


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_corpus_line(case):
    res = resolve(case["text"], datetime.fromisoformat(case["now"]), case["tz"]).to_json()
    got = {norm(c["start"]) for e in res["expressions"] for c in e["candidates"]}
    want = set(case["expect"]["candidates"])
    assert got == want, (case["text"], case.get("note"), [e["span"] for e in res["expressions"]])
    amb = any(e["ambiguous"] for e in res["expressions"]) or len(got) > 1
    assert amb == case["expect"]["ambiguous"]
