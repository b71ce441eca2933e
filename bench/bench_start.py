"""Start-up cost of the console script against its floor, `python -c pass`, in the same run
(issue 23: every command imports only what it uses).

    python bench/bench_start.py [--runs 7]

Each command runs as a whole process from another directory with a fresh, empty home; the figure
is the CPU time (user + sys) the process used, from the operating system's accounting, median of
the runs, and its ratio to the floor's median. Also: how many modules `import reflection.guard`
loads and whether any of SQLAlchemy, the Anthropic SDK, Textual or mcp is among them.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BIN = Path(sys.executable).parent
CA = str(BIN / "calendar-assistant")


def cpu_seconds(command: list[str], env: dict[str, str], cwd: str) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(command: list[str], runs: int, env: dict[str, str], cwd: str) -> float:
    cpu_seconds(command, env, cwd)  # warm-up: the file cache, the .pyc files
    return statistics.median(cpu_seconds(command, env, cwd) for _ in range(runs))


def guard_modules() -> tuple[int, list[str]]:
    code = ("import sys, reflection.guard; heavy = sorted({m.split('.')[0] for m in sys.modules} & "
            "{'sqlalchemy', 'sqlmodel', 'anthropic', 'textual', 'mcp'}); print(len(sys.modules)); print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    return int(out[0]), eval(out[1])  # noqa: S307 - our own printed list


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as cwd:
        env = {**os.environ, "CALENDAR_ASSISTANT_HOME": home}
        env.pop("ANTHROPIC_API_KEY", None)
        subprocess.run([CA, "agenda"], env=env, cwd=cwd, capture_output=True, check=False)  # make the stores
        floor = measure([sys.executable, "-c", "pass"], args.runs, env, cwd)
        print(f"floor: python -c pass  {floor * 1000:.0f} ms CPU (median of {args.runs})")
        print("| command | CPU (median) | ratio to the floor |")
        print("|---|---|---|")
        completion_env = {**env, "_ARGCOMPLETE": "1", "COMP_LINE": "calendar-assistant ag",
                          "COMP_POINT": "21", "_ARGCOMPLETE_IFS": "\013"}
        for label, command, run_env in [
                ("--version", [CA, "--version"], env),
                ("tools", [CA, "tools"], env),
                ("completion (Tab after 'ag')", [CA], completion_env),
                ("agenda (empty calendar)", [CA, "agenda"], env),
                ("resolve (one phrase)", [CA, "resolve", "tomorrow at 3pm"], env)]:
            cost = measure(command, args.runs, run_env, cwd)
            print(f"| `{label}` | {cost * 1000:.0f} ms | {cost / floor:.1f}x |")
    count, heavy = guard_modules()
    print(f"\n`import reflection.guard`: {count} modules; heavy among them: {heavy or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
