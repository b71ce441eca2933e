"""Turn benchmark over the scripted conversations in fixtures/conversations (run by hand):

    python bench/bench_turns.py [--repeat N]

Per turn: the guard's added latency outside the model calls (the guard_ms the agent measures:
case assembly, symbolic checks, reflection prompt building and filtering; the reflection call's
own time is subtracted), and the size of the reflection prompts as a share of all prompt text
sent. A scripted server only echoes scripted usage, so the share is counted on the prompts
themselves (characters of system + messages + tools) and is an estimate of the token share.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.replay import REFLECTION_MODEL, load_scenario, replay_settings, run_scenario  # noqa: E402
from assistant.settings import Settings  # noqa: E402


def prompt_chars(body: dict) -> int:
    return len(json.dumps({k: body.get(k) for k in ("system", "messages", "tools")}, ensure_ascii=False))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    guard_ms: list[float] = []
    main_chars = refl_chars = 0
    files = sorted((ROOT / "fixtures" / "conversations").glob("*.json"))
    with tempfile.TemporaryDirectory() as home:
        base = Settings(home=Path(home))
        for _ in range(args.repeat):
            for path in files:
                scenario = load_scenario(path)
                requests: list[dict] = []
                with tempfile.TemporaryDirectory() as work:
                    report = run_scenario(scenario, replay_settings(base, scenario), Path(work), requests)
                for turn in report["turns"]:
                    guard_ms.extend(ms for ms in turn["guard_ms"] if ms > 0)
                for body in requests:
                    if body.get("model") == REFLECTION_MODEL:
                        refl_chars += prompt_chars(body)
                    else:
                        main_chars += prompt_chars(body)
    guard_ms.sort()
    p99 = guard_ms[max(0, int(len(guard_ms) * 0.99) - 1)]
    print(json.dumps({
        "conversations": len(files), "repeat": args.repeat, "guarded_attempts": len(guard_ms),
        "guard_ms_median": round(statistics.median(guard_ms), 2), "guard_ms_p99": round(p99, 2),
        "guard_ms_max": round(guard_ms[-1], 2),
        "reflection_prompt_share_estimate": round(refl_chars / (refl_chars + main_chars), 4),
        "note": "share counted on prompt characters; only 2 of the conversations run reflection",
    }, indent=1))


if __name__ == "__main__":
    main()
