"""`calendar-assistant demo` in a real terminal: the installed console script under tmux.

Why tmux: Pilot tests drive the app headless; only a real terminal shows that the installed
entry point starts, draws, takes Enter and exits cleanly. tmux is required, not optional (the
README lists it for the tests): if it is missing this test fails with a message saying so (CI
installs it), it never skips. It runs at 80×24, the size the app must serve first-class.
"""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest

from assistant.scripted.demo import plan_for
from tools.calendar.events import zone

pytestmark = pytest.mark.slow  # the installed console script in a real terminal, under tmux

TZ = "America/Los_Angeles"


def _tmux(socket: str, *args: str) -> str:
    done = subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True, timeout=10)
    return done.stdout


def flat(screen: str) -> str:
    """The screen's words with borders and line breaks gone: a sentence may wrap at 80 columns."""
    return " ".join(screen.replace("│", " ").split())


def _wait_for(socket: str, session: str, needle: str, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = _tmux(socket, "capture-pane", "-p", "-t", session)
        if needle in screen:
            return screen
        time.sleep(0.1)
    raise AssertionError(f"{needle!r} never appeared on the screen; last screen:\n{screen}")


def test_demo_runs_in_a_real_terminal(tmp_path: Path) -> None:
    if shutil.which("tmux") is None:
        pytest.fail("tmux is not installed, and this test runs the demo in a real terminal: "
                    "install it (apt-get install -y tmux) and run again")
    exe = Path(sys.executable).with_name("calendar-assistant")
    if not exe.exists():
        found = shutil.which("calendar-assistant")
        assert found, "the calendar-assistant console script is not installed (pip install -e .)"
        exe = Path(found)
    socket = f"ca-test-{os.getpid()}"
    session = "demo"
    env = {"CALENDAR_ASSISTANT_HOME": str(tmp_path / "home"), "CALENDAR_ASSISTANT_TIMEZONE": TZ,
           "TERM": "xterm-256color", "COLORTERM": "truecolor"}
    # -u: something in a pytest run leaks COLUMNS=80/LINES=24 into the tmux server's
    # environment, and the app would believe them (shutil.get_terminal_size reads them first).
    assignments = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    command = f"env -u COLUMNS -u LINES {assignments} {shlex.quote(str(exe))} demo"
    _tmux(socket, "new-session", "-d", "-s", session, "-x", "80", "-y", "24", command)
    try:
        first = _wait_for(socket, session, "DEMO", 20)
        assert "DEMO — DEMO" not in first
        assert "Add Maya's soccer game" in first  # pre-filled: the person only presses Enter
        plan = plan_for(datetime.now(zone(TZ)))
        _tmux(socket, "send-keys", "-t", session, "Enter")
        _wait_for(socket, session, "Verified", 30)  # step 1: a right change
        _wait_for(socket, session, "Move the swim lesson to", 10)  # step 2 waits in the input
        _tmux(socket, "send-keys", "-t", session, "Enter")
        screen = _wait_for(socket, session, "Corrected after review", 30)
        wrong = f"{plan.wrong:%A}, {plan.wrong:%B} {plan.wrong.day} at 5:00 PM"
        assert "Caught:" in screen and "Friday" in screen, screen  # what was wrong
        assert wrong in flat(screen), screen  # and what it had been set to before the rollback
        _wait_for(socket, session, "/undo", 10)  # step 3
        _tmux(socket, "send-keys", "-t", session, "Enter")
        _wait_for(socket, session, "Undo the last change?", 10)
        _tmux(socket, "send-keys", "-t", session, "Enter")  # Enter for each step, as the banner says
        screen = _wait_for(socket, session, "Undone", 15)
        back = f"{plan.swim_day:%A}, {plan.swim_day:%B} {plan.swim_day.day} at 5:00 PM"
        assert "'Swim lesson' back on " + back in flat(screen), screen
        _tmux(socket, "send-keys", "-t", session, "C-q")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and session in _tmux(socket, "list-sessions", "-F", "#{session_name}"):
            time.sleep(0.1)
        assert session not in _tmux(socket, "list-sessions", "-F", "#{session_name}"), "ctrl+q did not quit"
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True, timeout=10)


def _demo_with_long_fallback(folder: Path) -> Path:
    """The built-in demo script, but anything off-script is answered with a reply far taller
    than 80x24, its first and last lines marked."""
    import json

    from assistant.scripted.demo import DEMO_SCRIPT

    script = json.loads(DEMO_SCRIPT.read_text(encoding="utf-8"))
    body = "\n\n".join(f"Paragraph {i}: a long answer about the week that goes on for a while."
                       for i in range(1, 31))
    script["fallback"] = {"content": [{"type": "text", "text": "FIRST LINE of the answer.\n\n" + body
                                       + "\n\nLAST LINE of the answer."}]}
    path = folder / "long-demo.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    return path


def _replace_input(socket: str, session: str, text: str) -> None:
    """Clear the input (ctrl+u) and type `text`, again if the window was still starting up and
    the keys did not land (seen in a freshly started terminal; not what the test is about)."""
    for _ in range(10):
        _tmux(socket, "send-keys", "-t", session, "C-u")
        _tmux(socket, "send-keys", "-t", session, "-l", text)
        try:
            _wait_for(socket, session, f"│  {text}", 2)
            return
        except AssertionError:
            continue
    _wait_for(socket, session, f"│  {text}", 2)


def test_a_long_reply_scrolling_and_typing_in_a_real_terminal(tmp_path: Path) -> None:
    """At 80x24 in tmux: a long reply opens at its first line; PageDown/PageUp scroll it while the
    input keeps what is being typed; keys typed with the conversation focused reach the input."""
    if shutil.which("tmux") is None:
        pytest.fail("tmux is not installed: install it (apt-get install -y tmux) and run again")
    exe = Path(sys.executable).with_name("calendar-assistant")
    if not exe.exists():
        exe = Path(shutil.which("calendar-assistant") or "calendar-assistant")
    socket = f"ca-scroll-{os.getpid()}"
    session = "long"
    env = {"CALENDAR_ASSISTANT_HOME": str(tmp_path / "home"), "CALENDAR_ASSISTANT_TIMEZONE": TZ,
           "TERM": "xterm-256color", "COLORTERM": "truecolor"}
    assignments = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    script = _demo_with_long_fallback(tmp_path)
    command = (f"env -u COLUMNS -u LINES {assignments} {shlex.quote(str(exe))} demo "
               f"--script {shlex.quote(str(script))}")
    _tmux(socket, "new-session", "-d", "-s", session, "-x", "80", "-y", "24", command)
    try:
        _wait_for(socket, session, "│  Add Maya's soccer game", 20)  # in the input: it is up
        _replace_input(socket, session, "tell me about my week")
        _tmux(socket, "send-keys", "-t", session, "Enter")
        deadline = time.monotonic() + 60
        screen = ""
        while time.monotonic() < deadline:  # the reply streams in; then the turn is over
            screen = _tmux(socket, "capture-pane", "-p", "-t", session)
            if "FIRST LINE of the answer." in screen and "thinking" not in screen:
                break
            time.sleep(0.2)
        assert "FIRST LINE of the answer." in screen, screen  # opened at its start,
        assert "LAST LINE" not in screen, screen  # the rest below
        _tmux(socket, "send-keys", "-t", session, "-l", "and fri")
        _wait_for(socket, session, "and fri", 5)
        for _ in range(4):
            _tmux(socket, "send-keys", "-t", session, "PageDown")
        screen = _wait_for(socket, session, "LAST LINE of the answer.", 10)
        assert "FIRST LINE" not in screen and "and fri" in screen  # scrolled; typing kept
        for _ in range(4):
            _tmux(socket, "send-keys", "-t", session, "PageUp")
        screen = _wait_for(socket, session, "FIRST LINE of the answer.", 10)
        assert "and fri" in screen
        _tmux(socket, "send-keys", "-t", session, "BTab")  # the focus leaves the input
        _tmux(socket, "send-keys", "-t", session, "-l", "day")
        screen = _wait_for(socket, session, "and friday", 10)  # the keys reached the input
        _tmux(socket, "send-keys", "-t", session, "C-q")
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True, timeout=10)
