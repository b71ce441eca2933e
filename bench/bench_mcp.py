"""How soon `calendar-assistant mcp` answers over stdio: start, tool list, first call.

Aims: the tool list within 1 s of starting the process (issue 23), a first call within 2 s
(issue 15), on this machine. Each run starts the real console script in a fresh home (local
backend, no network, no API key) with the SDK's stdio client, as Claude Desktop does, and times
from the spawn to the list_tools answer and to the answer of a first `list_events` call. Each run
also times `python -c pass` with the same interpreter, so a busy machine shows in the figures:
compare the tool list with that floor, not only with the aim.

    .venv/bin/python bench/bench_mcp.py [RUNS]

Figures, before and after, are in bench/RESULTS_mcp.md.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters


async def one_run(script: str) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as home:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("ANTHROPIC_", "CALENDAR_ASSISTANT_"))}
        env["CALENDAR_ASSISTANT_HOME"] = home
        params = StdioServerParameters(command=script, args=["mcp"], env=env)
        started = time.perf_counter()
        async with Client(params, mode="legacy") as client:
            await client.list_tools()
            listed = time.perf_counter() - started
            result = await client.call_tool("list_events", {"start": "2025-10-20",
                                                            "end": "2025-10-27"})
            called = time.perf_counter() - started
        if result.is_error:
            raise SystemExit(f"first call failed: {result.content}")
        return listed, called


def bare_python() -> float:
    """Seconds to start and stop the same interpreter doing nothing: the floor of any start."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - started


async def main(runs: int) -> None:
    script = str(Path(sys.executable).parent / "calendar-assistant")
    floor, listed, called = [], [], []
    for _ in range(runs):
        floor.append(bare_python())
        a, b = await one_run(script)
        listed.append(a)
        called.append(b)
    print(f"{runs} runs: `python -c pass` median {statistics.median(floor):.3f} s "
          f"(max {max(floor):.3f} s); tool list after median {statistics.median(listed):.2f} s "
          f"(max {max(listed):.2f} s), aim 1 s; first call after median "
          f"{statistics.median(called):.2f} s (max {max(called):.2f} s), aim 2 s")


if __name__ == "__main__":
    anyio.run(main, int(sys.argv[1]) if len(sys.argv) > 1 else 5)
