"""Generate the guard evaluation cases: ``python bench/guard_eval/generate.py --out DIR``.

Seeded and deterministic. Truth comes from the generator's own intent (see README.md); nothing
here imports the project's ``reflection``, ``assistant`` or ``tools`` packages.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    __package__ = "bench.guard_eval"

from bench.guard_eval.model import Scenario, set_start
from bench.guard_eval.mutations import LOCAL_FORMS, LOCAL_FORMS_ONLY, MUTATIONS
from bench.guard_eval.render import case, forms_for
from bench.guard_eval.scenarios import FAMILIES, build

DEFAULT_SEED = 20251022
DEFAULT_COUNT = 8000
CORRECT_SHARE = 0.55


def _prelude(rng: random.Random, sc: Scenario) -> list[dict[str, Any]]:
    """Sometimes the model called ``calculate_datetime`` for a relative phrase first (unguarded)."""
    if not sc.relative_phrases or rng.random() < 0.6:
        return []
    now = sc.setting.now.isoformat(timespec="seconds")
    return [{"name": "calculate_datetime", "input": {"expression": p, "reference": now}} for p in sc.relative_phrases]


def _correct(rng: random.Random, sc: Scenario) -> Iterator[tuple[list[Any], str]]:
    """Correct call sets in different forms, each picking any reading the phrase allows."""
    forms = forms_for(sc)
    rng.shuffle(forms)
    for form in forms[: 1 if forms == ["plain"] else 2]:
        calls = [c.clone() for c in sc.calls]
        for t in sc.targets:
            if len(t.allowed) > 1 and "start" in calls[t.call].input:
                set_start(calls[t.call], rng.choice(t.allowed))
        for c in calls:
            if (c.name == "create_calendar_event" and not c.input.get("all_day") and not sc.info.get("keep_end")
                    and t_free(sc) and rng.random() < 0.2):
                c.input.pop("end", None)
        yield calls, form


def _mutations(rng: random.Random, sc: Scenario, want: int) -> list[tuple[str, list[Any]]]:
    """Up to ``want`` wrong call sets; the first from the scenario's own wrong forms
    (``info["prefer"]``: the phenomenon its family is about) when one applies, the rest from all."""
    names = list(MUTATIONS)
    rng.shuffle(names)
    prefer = [n for n in names if n in sc.info.get("prefer", ())]
    out: list[tuple[str, list[Any]]] = []
    for name in prefer:
        if want <= 0:
            break
        mutated = MUTATIONS[name](sc, rng)
        if mutated is not None:
            out.append((name, mutated))
            break
    for name in names:
        if len(out) >= want:
            break
        if any(name == n for n, _ in out):
            continue
        mutated = MUTATIONS[name](sc, rng)
        if mutated is not None:
            out.append((name, mutated))
    return out


def t_free(sc: Scenario) -> bool:
    """Whether the message leaves a created event's length free."""
    return all(t.duration is None for t in sc.targets)


def generate(seed: int = DEFAULT_SEED, count: int = DEFAULT_COUNT) -> list[dict[str, Any]]:
    """``count`` cases, about 55 % correct, round-robin over the families."""
    rng = random.Random(seed)
    want_ok = round(count * CORRECT_SHARE)
    want_bad = count - want_ok
    ok: list[dict[str, Any]] = []
    bad: list[dict[str, Any]] = []
    families = list(FAMILIES)
    n = 0
    while len(ok) < want_ok or len(bad) < want_bad:
        family = families[n % len(families)]
        n += 1
        sc = build(rng, family)
        backend = "google" if rng.random() < 0.2 else "local"
        prelude = _prelude(rng, sc)
        for calls, form in _correct(rng, sc):
            if len(ok) < want_ok:
                ok.append(case("", sc, calls, form, True, None, backend, prelude))
        for name, mutated in _mutations(rng, sc, min(2, want_bad - len(bad))):
            forms = [f for f in forms_for(sc) if name not in LOCAL_FORMS_ONLY or f in LOCAL_FORMS]
            bad.append(case("", sc, mutated, rng.choice(forms or ["offset"]), False, name, backend, prelude))
    cases = ok + bad
    random.Random(seed + 1).shuffle(cases)
    for i, c in enumerate(cases):
        c["id"] = f"ge{i:05d}"
    return cases


def write(cases: list[dict[str, Any]], out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    path = out / "cases.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        for c in cases:
            fh.write(json.dumps(c, ensure_ascii=False) + "\n")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, required=True, help="directory for cases.jsonl")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--count", type=int, default=DEFAULT_COUNT)
    args = parser.parse_args(argv)
    if args.count < 1:
        print("generate: --count must be at least 1", file=sys.stderr)
        return 2
    path = write(generate(args.seed, args.count), args.out)
    print(f"wrote {args.count} cases to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
