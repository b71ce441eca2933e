"""A child process killed with SIGKILL in the middle of a turn: the one harness the recovery
tests share.

The child runs a script on CALENDAR_ASSISTANT_HOME (the app's own services), prints "ready" once it
has written what the test wants to catch it in the middle of, and sleeps; the test looks at the
stores while the child lives, then kills it: no `finally`, no atexit, no clean close of SQLite.
The next `build_services` is what must put things right.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def killed_when_ready(script: str, args: Sequence[str], home: Path, tmp_path: Path) -> Iterator[None]:
    """Run `script` with `args` until it says "ready"; the body runs while it is alive; then
    SIGKILL, and check that is what ended it."""
    path = tmp_path / "child.py"
    path.write_text(script, encoding="utf-8")
    env = {**os.environ, "CALENDAR_ASSISTANT_HOME": str(home)}
    child = subprocess.Popen([sys.executable, str(path), *args], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stderr is not None
        line = child.stdout.readline().strip()
        assert line == "ready", (line, child.stderr.read() if child.poll() is not None else "")
        yield
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL
