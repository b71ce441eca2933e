"""Who owns an open turn, and whether that process still runs.

An open turn in the journal is either in flight in some live process or was left behind by one
that died. Start-up recovery must tell the two apart: rolling back a live turn reverts changes
that another window is about to report as done. The owner is (host, boot id, pid, process start
time): the boot id tells a reboot apart, the start time (from /proc/<pid>/stat) tells a reused pid
apart, and a turn owned on another host is never taken (we cannot see its processes).
"""
from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from pathlib import Path

BOOT_ID_PATH = Path("/proc/sys/kernel/random/boot_id")
PROC = Path("/proc")


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None


def boot_id() -> str:
    """This boot's id ("" where the OS does not publish one)."""
    return _read(BOOT_ID_PATH) or ""


def _stat(pid: int) -> tuple[str, str] | None:
    """(state, start time in clock ticks) of a process, or None when there is no such process."""
    text = _read(PROC / str(pid) / "stat")
    if text is None:
        return None
    fields = text.rsplit(")", 1)[-1].split()  # the name in parentheses may hold spaces
    if len(fields) < 20:
        return None
    return fields[0], fields[19]


@dataclass(frozen=True)
class Owner:
    """Who owns an open turn (stored with it: `tools.journal.entries.owner_text`)."""

    host: str
    boot: str
    pid: int
    started: str  # process start time in clock ticks since boot; "" when unknown


def current_owner() -> Owner:
    stat = _stat(os.getpid())
    return Owner(socket.gethostname(), boot_id(), os.getpid(), stat[1] if stat else "")


def is_alive(owner: Owner | None) -> bool:
    """Whether the owning process may still be running (when in doubt: yes, never steal)."""
    if owner is None:
        return False
    if owner.host != socket.gethostname():
        return True
    here = boot_id()
    if here and owner.boot and here != owner.boot:
        return False  # the machine rebooted since: every process of that boot is gone
    if PROC.is_dir() and (PROC / "self").exists():
        stat = _stat(owner.pid)
        if stat is None or stat[0] in ("Z", "X"):
            return False
        return not owner.started or stat[1] == owner.started
    try:  # no /proc (macOS): ask the kernel whether the pid exists
        os.kill(owner.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
