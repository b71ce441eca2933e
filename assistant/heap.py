"""The collector after start-up: what a long-lived door built to serve is frozen out of it.

Why (issue 25): a full collection walks every object the collector tracks, and a running chat
or MCP server holds a lot that lives as long as the process (modules, the store's engine and
statements, the tool specs, the guard's tables). At a 100,000-event calendar a full
collection took 20-150 ms, and one landing inside a guarded call was that call's delay. Once
start-up is done, `gc.freeze()` moves what is alive then to a generation the collector never
walks; what comes later (a turn's objects, the caches it fills) is collected as before.

Only the commands that start a long-lived door call it (`chat`, `mcp`): a test, a one-shot
command or a library caller builds and drops many apps in one process, and what is frozen is
never collected if it later becomes garbage in a cycle."""
from __future__ import annotations

import gc


def settle_start_up() -> None:
    """Collect what start-up left as garbage, then freeze what is alive (`gc.freeze`)."""
    gc.collect()
    gc.freeze()
